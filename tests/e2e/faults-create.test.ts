// Fault matrix, create (POST subnets + task). A POST is repeated only when the service
// cannot have acted (refused, 429, 503, 409 locked); otherwise the run fails and says what to check.
import { matrix } from "./faults";

const POST = "POST /cloud/v1/subnets/1/1";
matrix("create", {
  "429 with Retry-After": { outcome: "recovers" },
  "500": { outcome: "fails", message: new RegExp(`${POST}: 500 Internal Server Error`) },
  "502": { outcome: "fails", message: new RegExp(`${POST}: 502 Bad Gateway`) },
  "503": { outcome: "recovers" },
  // Locked by a running task: the service refused without acting, so the POST waits for the lock.
  "409": { outcome: "recovers" },
  // Dropped before the service acted: after looking for it (30 s), the error says how to adopt it if it shows up.
  "connection reset": { outcome: "fails", message: /connection failed.*The service may have created Subnet "e2e-subnet".*importId/ },
  // The service acts after the client gave up: the subnet with our cidr on our network is found and recorded.
  "response slower than the request timeout": { outcome: "recovers" },
  "task ERROR": { outcome: "fails", message: /Subnet "e2e-subnet": task [0-9a-f-]+ \(create_subnet\) failed: Backend capacity exhausted/ },
  // The running task lists the subnet's id: the stack records it, the next up waits for it.
  "task never finishes (deadline)": {
    outcome: "fails",
    message:
      /Subnet "e2e-subnet" was created \(id [0-9a-f-]{36}, task\(s\) [0-9a-f-]{36}\) but the create did not complete: .*timed out after 3s/,
  },
});

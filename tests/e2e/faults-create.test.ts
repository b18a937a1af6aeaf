// Fault matrix, create (POST subnets + task). A POST is repeated only when the service
// cannot have acted (refused, 429, 503); otherwise the run fails and says what to check.
import { matrix } from "./faults";

const POST = "POST /cloud/v1/subnets/1/1";
matrix("create", {
  "429 with Retry-After": { outcome: "recovers" },
  "500": { outcome: "fails", message: new RegExp(`${POST}: 500 Internal Server Error`) },
  "502": { outcome: "fails", message: new RegExp(`${POST}: 502 Bad Gateway`) },
  "503": { outcome: "recovers" },
  "409": { outcome: "fails", message: new RegExp(`${POST}: 409 Conflict`) },
  "connection reset": { outcome: "fails", message: /connection failed.*The service may have created Subnet "e2e-subnet"/ },
  "response slower than the request timeout": { outcome: "fails", message: /no response in time.*may have created Subnet "e2e-subnet"/, settlesLater: true },
  "task ERROR": { outcome: "fails", message: /Subnet "e2e-subnet": task [0-9a-f-]+ \(create_subnet\) failed: Backend capacity exhausted/ },
  "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task\(s\).*cims:taskTimeoutSeconds/, settlesLater: true },
});

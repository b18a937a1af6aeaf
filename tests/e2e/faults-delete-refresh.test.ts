// Fault matrix, delete (DELETE subnets + task) and refresh (GET subnets): both safe to
// repeat; a delete whose task fails or is overdue fails the run, and converges after.
import { matrix } from "./faults";

matrix("delete", {
  "429 with Retry-After": { outcome: "recovers" },
  "500": { outcome: "recovers" },
  "502": { outcome: "recovers" },
  "503": { outcome: "recovers" },
  "409": { outcome: "recovers" },
  "connection reset": { outcome: "recovers" },
  "response slower than the request timeout": { outcome: "recovers" },
  "task ERROR": { outcome: "fails", message: /task [0-9a-f-]+ \(delete_subnet\) failed: Backend capacity exhausted/ },
  "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
});

matrix("refresh", {
  "429 with Retry-After": { outcome: "recovers" },
  "500": { outcome: "recovers" },
  "502": { outcome: "recovers" },
  "503": { outcome: "recovers" },
  "409": { outcome: "recovers" },
  "connection reset": { outcome: "recovers" },
  "response slower than the request timeout": { outcome: "recovers" },
  "task ERROR": { outcome: "n/a" },
  "task never finishes (deadline)": { outcome: "n/a" },
});

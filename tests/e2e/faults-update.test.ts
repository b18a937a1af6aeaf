// Fault matrix, update (PATCH lbpools + task): PATCH is safe to repeat, so every transport
// and status fault is absorbed; a failed or overdue task fails the run.
import { matrix } from "./faults";

matrix("update", {
  "429 with Retry-After": { outcome: "recovers" },
  "500": { outcome: "recovers" },
  "502": { outcome: "recovers" },
  "503": { outcome: "recovers" },
  "409": { outcome: "recovers" },
  "connection reset": { outcome: "recovers" },
  "response slower than the request timeout": { outcome: "recovers" },
  "task ERROR": { outcome: "fails", message: /task [0-9a-f-]+ \(update_lbpool\) failed: Backend capacity exhausted/ },
  "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
});

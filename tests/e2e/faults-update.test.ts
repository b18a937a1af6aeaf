// Fault matrix, update (PATCH lbpools + task): PATCH is safe to repeat, so every transport
// and status fault is absorbed; a failed or overdue task fails the run.
import { matrix, requestFaultsRecover } from "./faults";

matrix("update", {
  ...requestFaultsRecover(),
  "task ERROR": { outcome: "fails", message: /task [0-9a-f-]+ \(update_lbpool\) failed: Backend capacity exhausted/ },
  "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
});

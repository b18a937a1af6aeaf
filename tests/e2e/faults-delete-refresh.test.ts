// Fault matrix, delete (DELETE subnets + task) and refresh (GET subnets): both safe to
// repeat; a delete whose task fails or is overdue fails the run, and converges after.
import { matrix, requestFaultsRecover } from "./faults";

matrix("delete", {
  ...requestFaultsRecover(),
  "task ERROR": { outcome: "fails", message: /task [0-9a-f-]+ \(delete_subnet\) failed: Backend capacity exhausted/ },
  "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
});

matrix("refresh", {
  ...requestFaultsRecover(),
  "task ERROR": { outcome: "n/a" },
  "task never finishes (deadline)": { outcome: "n/a" },
});

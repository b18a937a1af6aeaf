// Fault matrix, update (PATCH lbpools + task): outcomes and why in faults.ts (EXPECTED.update).
import { matrix } from "./faults";

matrix("update");

// Fault matrix in process, every kind's delete: each kind whose test kit puts it under the matrix
// (`faults`) and whose operations include delete, in the scene its kit readies. Outcomes and why:
// tests/support/faults.ts (matrixOf) and each kit's `faults`.
import { matrixOfEveryKit } from "./matrix";

matrixOfEveryKit("delete");

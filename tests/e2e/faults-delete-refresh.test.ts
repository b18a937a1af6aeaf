// Fault matrix, delete (DELETE subnets + task) and refresh (GET subnets): outcomes and why in
// faults.ts (EXPECTED.delete, EXPECTED.refresh).
import { matrix } from "./faults";

matrix("delete");
matrix("refresh");

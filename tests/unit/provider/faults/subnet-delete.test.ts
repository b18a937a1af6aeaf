// Fault matrix in process, Subnet delete (DELETE subnets + task): outcomes and why in
// tests/support/faults.ts (SUBNET).
import { matrix } from "./matrix";

matrix("Subnet", "delete");

// Fault matrix in process, Subnet create (POST subnets + task): outcomes and why in
// tests/support/faults.ts (SUBNET).
import { matrix } from "./matrix";

matrix("Subnet", "create");

// Fault matrix in process, Subnet refresh (GET subnets): outcomes and why in
// tests/support/faults.ts (SUBNET).
import { matrix } from "./matrix";

matrix("Subnet", "refresh");

// Fault matrix, Subnet delete (DELETE subnets + task) and refresh (GET subnets): outcomes and
// why in faults.ts (SUBNET).
import { matrix, SUBNET } from "./faults";

matrix(SUBNET, "delete");
matrix(SUBNET, "refresh");

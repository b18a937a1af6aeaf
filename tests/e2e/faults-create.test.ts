// Fault matrix, Subnet create (POST subnets + task): outcomes and why in faults.ts (SUBNET).
import { matrix, SUBNET } from "./faults";

matrix(SUBNET, "create");

// Fault matrix, create (POST subnets + task): outcomes and why in faults.ts (EXPECTED.create).
import { matrix } from "./faults";

matrix("create");

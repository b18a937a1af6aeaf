// The fault matrix's request faults on the plugin face, in process, Subnet delete: see
// plugin-subnet-create.test.ts.
import { matrix } from "./matrix";

matrix("Subnet", "delete", "native", "recovers");

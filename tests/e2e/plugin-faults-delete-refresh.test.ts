// The fault matrix's request faults on the plugin face, delete and refresh: see
// plugin-faults-create-update.test.ts.
import { matrix, SUBNET } from "./faults";

matrix(SUBNET, "delete", "native", "recovers");
matrix(SUBNET, "refresh", "native", "recovers");

// The fault matrix's request faults on the plugin face, delete and refresh: see
// plugin-faults-create-update.test.ts.
import { matrix } from "./faults";

matrix("delete", "native", "recovers");
matrix("refresh", "native", "recovers");

// The fault matrix's request faults on the plugin face, in process, LbPoolSettings update: see
// plugin-subnet-create.test.ts.
import { matrix } from "./matrix";

matrix("LbPoolSettings", "update", "native", "recovers");

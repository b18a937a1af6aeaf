// Fault matrix in process, LbPoolSettings update (PATCH lbpools + task): outcomes and why in
// tests/support/faults.ts (POOL_SETTINGS).
import { matrix } from "./matrix";

matrix("LbPoolSettings", "update");

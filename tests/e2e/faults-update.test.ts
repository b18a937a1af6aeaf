// Fault matrix, LbPoolSettings update (PATCH lbpools + task): outcomes and why in faults.ts (POOL_SETTINGS).
import { matrix, POOL_SETTINGS } from "./faults";

matrix(POOL_SETTINGS, "update");

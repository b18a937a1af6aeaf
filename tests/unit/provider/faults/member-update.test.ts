// Fault matrix in process, LbPoolMember update: outcomes and why in tests/support/faults.ts
// (LB_POOL_MEMBER).
import { matrix } from "./matrix";

matrix("LbPoolMember", "update");

// Fault matrix, LbPoolMember create (POST members + task), every row on one stack: outcomes
// and why in faults.ts (LB_POOL_MEMBER). One face: the plugin face serves the same methods,
// and plugin-faults-*.test.ts prove its plumbing under faults.
import { LB_POOL_MEMBER, matrix } from "./faults";

matrix(LB_POOL_MEMBER, "create");

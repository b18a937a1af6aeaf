// Fault matrix, LbPoolMember update (PATCH member + task), every row on one stack: see
// faults-member-create.test.ts.
import { LB_POOL_MEMBER, matrix } from "./faults";

matrix(LB_POOL_MEMBER, "update");

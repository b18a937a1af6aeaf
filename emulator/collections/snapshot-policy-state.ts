// A lifecycle policy's name and status: the policy's own calls (GET, the list, PATCH), served
// by SnapshotPolicy, which keeps the policies. The service has each call once.
import type { EmulatedResource } from "./emulated-resource";
import { SnapshotPolicy } from "./snapshot-policy";
import { SnapshotPolicyState as contract } from "../../api/contract/snapshot-policy-state";

/** SnapshotPolicyState: served by SnapshotPolicy. */
export const SnapshotPolicyState: EmulatedResource = { contract, operations: {}, servedBy: SnapshotPolicy };

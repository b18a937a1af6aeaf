// Every kind the provider serves, one line each, in the order programs, the schema and
// cims-import list them. A kind is its file here (descriptor, methods and docs example, which
// its <kind>.example.ts beside it holds; its prose, <kind>.md, for its reference page and schema
// description), its contract (api/contract/) and its emulator collection (emulator/collections/).
export { Subnet } from "./subnet";
export { BaremetalImage } from "./baremetal-image";
export { LbPoolSettings } from "./lb-pool-settings";
export { SnapshotPolicy } from "./snapshot-policy";
export { SnapshotPolicyState } from "./snapshot-policy-state";
export { QuotaThreshold } from "./quota-threshold";
export { LbPoolMember } from "./lb-pool-member";
export { SnapshotPolicyVolume } from "./snapshot-policy-volume";

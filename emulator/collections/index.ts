// Every resource the emulator serves, one line each (the kinds of provider/kinds/index.ts).
export { Subnet } from "./subnet";
export { BaremetalImage } from "./baremetal-image";
export { LbPoolSettings } from "./lb-pool-settings";
export { SnapshotPolicyState } from "./snapshot-policy-state";
export { QuotaThreshold } from "./quota-threshold";
export { LbPoolMember } from "./lb-pool-member";

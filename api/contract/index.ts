export * from "./types";
export { BaremetalImage } from "./baremetal-image";
export { HealthMonitor, LbPoolSettings, PoolMember, SessionPersistence } from "./lb-pool-settings";
export { PolicySchedule, PolicyVolume, RetentionTime, SnapshotPolicyState } from "./snapshot-policy-state";
export { GlobalQuotas, QuotaEntry, QuotaMessage, QuotaThreshold, RegionalQuotas } from "./quota-threshold";
export { HostRoute, Subnet } from "./subnet";
export { LbPoolMember } from "./lb-pool-member";
export * from "./derive";

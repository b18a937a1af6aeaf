// Public entry point of `pulumi-cims`: the CIMS resources. The emulator is at
// `pulumi-cims/emulator`, the test-only Echo resource at `pulumi-cims/testing`.
export { Subnet, type SubnetArgs, type HostRoute } from "./resources/subnet";
export { BaremetalImage, type BaremetalImageArgs } from "./resources/baremetal-image";
export {
  SnapshotPolicyState,
  type SnapshotPolicyStateArgs,
  type PolicySchedule,
  type RetentionTime,
} from "./resources/snapshot-policy-state";
export type { Timeouts } from "./resources/schema";
export {
  LbPoolSettings,
  type LbPoolSettingsArgs,
  type PoolMember,
  type HealthMonitor,
  type SessionPersistence,
} from "./resources/lb-pool-settings";
export { QuotaThreshold, type QuotaThresholdArgs, type QuotaMessage, type QuotaEntry } from "./resources/quota-threshold";

// Public entry point of `pulumi-cims`: the CIMS resources, as a program loads them (no
// validation, HTTP or parsing code: that lives in methods/, loaded by the provider process).
// The emulator is at `pulumi-cims/emulator`, the test-only Echo resource at `pulumi-cims/testing`.
export { Subnet, type SubnetArgs, type SubnetState, type HostRoute } from "./resources/subnet";
export { BaremetalImage, type BaremetalImageArgs, type BaremetalImageState } from "./resources/baremetal-image";
export {
  SnapshotPolicyState,
  type SnapshotPolicyStateArgs,
  type SnapshotPolicyStateState,
  type PolicySchedule,
  type RetentionTime,
} from "./resources/snapshot-policy-state";
export type { Timeouts } from "./resources/timeouts";
export {
  LbPoolSettings,
  type LbPoolSettingsArgs,
  type LbPoolSettingsState,
  type PoolMember,
  type HealthMonitor,
  type SessionPersistence,
} from "./resources/lb-pool-settings";
export {
  QuotaThreshold,
  type QuotaThresholdArgs,
  type QuotaThresholdState,
  type QuotaMessage,
  type QuotaMessageInput,
  type QuotaEntry,
} from "./resources/quota-threshold";
/** The same resources through the `pulumi-resource-cims` plugin (`cims:index:<Kind>`): see docs/platform.md. */
export * as native from "./resources/native";

// The plugin face for TypeScript programs: `cims.native.<Kind>`, the same arguments and
// outputs as the dynamic resources, served by the `pulumi-resource-cims` plugin (types
// `cims:index:<Kind>`) instead of the serialized dynamic providers. A program chooses per
// resource; the dynamic face stays the default. The plugin is found by the project's
// Pulumi.yaml: `plugins: { providers: [{ name: cims, path: node_modules/pulumi-cims/bin }] }`.
import * as pulumi from "@pulumi/pulumi";
import { type BaremetalImageArgs, type BaremetalImageState, OUTPUTS as IMAGE_OUTPUTS } from "./baremetal-image";
import { type LbPoolSettingsArgs, type LbPoolSettingsState, OUTPUTS as POOL_OUTPUTS } from "./lb-pool-settings";
import { type OutputsOf, outputKeys } from "./outputs";
import { OUTPUTS as QUOTA_OUTPUTS, type QuotaThresholdArgs, type QuotaThresholdState } from "./quota-threshold";
import { OUTPUTS as POLICY_OUTPUTS, type SnapshotPolicyStateArgs, type SnapshotPolicyStateState } from "./snapshot-policy-state";
import { OUTPUTS as SUBNET_OUTPUTS, type SubnetArgs, type SubnetState } from "./subnet";

type CustomResourceClass<State> = new (
  type: string,
  name: string,
  props: pulumi.Inputs,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.CustomResource & OutputsOf<State>;

/** pulumi.CustomResource with an Output property per key of `State`. */
const custom = <State>() => pulumi.CustomResource as unknown as CustomResourceClass<State>;

/** A subnet (see `cims.Subnet`), through the plugin. `pulumi import cims:index:Subnet <name> <id>` adopts one. */
export class Subnet extends custom<SubnetState>() {
  constructor(name: string, args: SubnetArgs, opts?: pulumi.CustomResourceOptions) {
    super("cims:index:Subnet", name, { ...outputKeys(SUBNET_OUTPUTS), ...args }, opts);
  }
}

/** A bare-metal image from a volume (see `cims.BaremetalImage`), through the plugin. */
export class BaremetalImage extends custom<BaremetalImageState>() {
  constructor(name: string, args: BaremetalImageArgs, opts?: pulumi.CustomResourceOptions) {
    super("cims:index:BaremetalImage", name, { ...outputKeys(IMAGE_OUTPUTS), ...args }, opts);
  }
}

/** Chosen settings of an existing load balancer pool (see `cims.LbPoolSettings`), through the plugin. */
export class LbPoolSettings extends custom<LbPoolSettingsState>() {
  constructor(name: string, args: LbPoolSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super("cims:index:LbPoolSettings", name, { ...outputKeys(POOL_OUTPUTS), ...args }, opts);
  }
}

/** The name and status of an existing snapshot lifecycle policy (see `cims.SnapshotPolicyState`), through the plugin. */
export class SnapshotPolicyState extends custom<SnapshotPolicyStateState>() {
  constructor(name: string, args: SnapshotPolicyStateArgs, opts?: pulumi.CustomResourceOptions) {
    super("cims:index:SnapshotPolicyState", name, { ...outputKeys(POLICY_OUTPUTS), ...args }, opts);
  }
}

/** A client's quota notification threshold (see `cims.QuotaThreshold`), through the plugin. */
export class QuotaThreshold extends custom<QuotaThresholdState>() {
  constructor(name: string, args: QuotaThresholdArgs, opts?: pulumi.CustomResourceOptions) {
    super("cims:index:QuotaThreshold", name, { ...outputKeys(QUOTA_OUTPUTS), ...args }, opts);
  }
}

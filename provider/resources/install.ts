// Loaded by the serialized shim's configure() in the provider process: takes the stack
// config, then puts the real provider methods on the (deserialized) shim object.
import type * as pulumi from "@pulumi/pulumi";
import { setConfig } from "./runtime";

type Methods = Required<Pick<pulumi.dynamic.ResourceProvider, "check" | "diff" | "create" | "read" | "update" | "delete">>;

/** Each kind's implementation, loaded only when a resource of that kind is used. */
const KINDS: Record<string, () => Methods> = {
  Subnet: () => require("./subnet").subnetMethods,
  BaremetalImage: () => require("./baremetal-image").baremetalImageMethods,
  LbPoolSettings: () => require("./lb-pool-settings").lbPoolSettingsMethods,
  SnapshotPolicyState: () => require("./snapshot-policy-state").snapshotPolicyStateMethods,
  QuotaThreshold: () => require("./quota-threshold").quotaThresholdMethods,
  Echo: () => require("../testing/echo-impl").echoMethods,
};

export async function install(target: object, kind: string, req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  const load = KINDS[kind];
  if (!load) throw new Error(`pulumi-cims: unknown resource kind "${kind}"; is the installed pulumi-cims older than the one that wrote this state?`);
  setConfig((key) => req.config.get(key));
  Object.assign(target, load());
}

// THE FROZEN DOOR. Every resource's serialized provider (shim.ts) runs
// `require("pulumi-cims/provider/resources/install").install(this, "<Kind>", req)` in the
// provider process, and that text is stored in the state of every stack that ever used this
// package. So this file's path, its `install(target, kind, req)` signature and the kind
// names must never change; package.json exports this path and no other internal one.
// It takes the stack config, then puts the real provider methods (../methods/) on the
// deserialized shim object.
import type * as pulumi from "@pulumi/pulumi";
import { installMethods, type Methods } from "../methods/install";

/** Each kind's methods, loaded only when a resource of that kind is used. */
const KINDS: Record<string, () => Methods> = {
  Subnet: () => (require("../methods/subnet") as typeof import("../methods/subnet")).subnetMethods,
  BaremetalImage: () => (require("../methods/baremetal-image") as typeof import("../methods/baremetal-image")).baremetalImageMethods,
  LbPoolSettings: () => (require("../methods/lb-pool-settings") as typeof import("../methods/lb-pool-settings")).lbPoolSettingsMethods,
  SnapshotPolicyState: () =>
    (require("../methods/snapshot-policy-state") as typeof import("../methods/snapshot-policy-state")).snapshotPolicyStateMethods,
  QuotaThreshold: () => (require("../methods/quota-threshold") as typeof import("../methods/quota-threshold")).quotaThresholdMethods,
};

export async function install(target: object, kind: string, req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  const load = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined;
  if (!load)
    throw new Error(`pulumi-cims: unknown resource kind "${kind}"; is the installed pulumi-cims older than the one that wrote this state?`);
  installMethods(target, load(), req);
}

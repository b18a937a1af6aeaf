import { SEED } from "../support/cims";
import type { KindKit } from "./kit";

const POLICY_ID = Number(SEED.policyId);

export const SnapshotPolicyState: KindKit = {
  // The seed's policy: added paused, its name and status set or left to the service, removed
  // (which leaves the policy as the stack set it).
  lifecycle: {
    names: ["policy"],
    added: () => ({ status: "paused" }),
    fields: { status: [undefined, "active", "paused"], name: [undefined, "nightly-a", "nightly-b"] },
    args: (v) => ({ policyId: POLICY_ID, ...v }),
    holds: (record, v) => [
      ...(v.name !== undefined ? [["name", record?.name, v.name] as const] : []),
      ...(v.status !== undefined ? [["status", record?.status, v.status] as const] : []),
    ],
    refreshed: (o, record) => [["name, status", [o.name, o.status], [record?.name, record?.status]]],
  },
  example: {
    record: (env, r) => env.emulator.store.get("lifecycle_policies", r.outputs?.policyId),
    // Destroy leaves the policy as the stack set it.
    afterDestroy: (policy, declared) => expect(policy).toMatchObject({ name: declared.name, status: declared.status }),
  },
};

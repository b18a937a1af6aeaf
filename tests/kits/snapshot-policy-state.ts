import type { KindKit } from "./kit";

export const SnapshotPolicyState: KindKit = {
  lifecycle: true,
  example: {
    record: (env, r) => env.emulator.store.get("lifecycle_policies", r.outputs?.policyId),
    // Destroy leaves the policy as the stack set it.
    afterDestroy: (policy, declared) => expect(policy).toMatchObject({ name: declared.name, status: declared.status }),
  },
};

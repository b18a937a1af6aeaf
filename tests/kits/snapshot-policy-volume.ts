import type { ApiRecord } from "../../api/guards";
import type { KindKit } from "./kit";

export const SnapshotPolicyVolume: KindKit = {
  example: {
    // The policy's entry for the volume, named as the kind reads it (its policy and scope beside it).
    record: (env, r) => {
      const policy = env.emulator.store.get("lifecycle_policies", r.outputs?.policyId);
      const volumes: ApiRecord[] = Array.isArray(policy?.volumes) ? policy.volumes : [];
      const entry = volumes.find((v) => v.volume_id === r.outputs?.volumeId);
      return entry && { ...entry, id: r.id, policy_id: policy?.id, project_id: policy?.project_id, region_id: policy?.region_id };
    },
    // The volume leaves the policy; the policy stays.
    afterDestroy: (membership) => expect(membership).toBeUndefined(),
  },
};

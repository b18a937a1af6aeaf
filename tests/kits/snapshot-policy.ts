import type { KindKit } from "./kit";

export const SnapshotPolicy: KindKit = {
  create: async () => ({ name: "p", action: "volume_snapshot" }),
  example: {
    record: (env, r) => env.emulator.store.get("lifecycle_policies", r.id),
    // The stack made the policy: destroy deletes it.
    afterDestroy: (record) => expect(record).toBeUndefined(),
  },
};

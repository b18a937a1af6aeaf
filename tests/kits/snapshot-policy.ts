import { byId, type SceneOf } from "../support/scenes";
import type { KindKit } from "./kit";

/** Row `row`'s policy name under the fault matrix (a create's messages name it). */
export const policyOf = (row: number): string => `e2e-policy-${row}`;

/** A policy create whose answer was lost and whose policy no look found: it may exist, and would carry the create's mark. */
const policyMayExist = (policies: string, how: string) =>
  new RegExp(
    `SnapshotPolicy "e2e-policy-\\d+": POST ${policies}: ${how}.*The service may have created SnapshotPolicy "e2e-policy-\\d+"; ` +
      `it is not in the stack\\. GET ${policies} lists the scope's policies: it would be named "e2e-policy-\\d+ cims-create-[0-9a-f]{12}"`,
  );

/** Each row creates a policy of its own name; the seed's policies are another team's, untouched. */
const scene: SceneOf = async ({ env, state, row }) => {
  const name = policyOf(row);
  const inputs = { name, schedules: [{ type: "interval", hours: 6, maxQuantity: 4 }] };
  const seeded = structuredClone(env.emulator.store.list("lifecycle_policies"));
  const mine = () => env.emulator.store.list("lifecycle_policies").filter((p) => String(p.name).startsWith(name));
  return {
    async next() {},
    run: () => state.up(name, inputs),
    async check(converged) {
      expect(state.ids()).toEqual(byId(mine()));
      expect(env.emulator.store.list("lifecycle_policies").filter((p) => seeded.some((s) => s.id === p.id))).toEqual(seeded);
      if (converged) expect(mine().map((p) => p.name)).toEqual([name]);
    },
    settle: async () => undefined,
  };
};

export const SnapshotPolicy: KindKit = {
  create: async () => ({ name: "p", action: "volume_snapshot" }),
  // A synchronous create (no task): a POST the service cannot have acted on is repeated; any
  // other lost answer is looked for by the create's mark, which rides in the policy's name: an
  // answer slower than the request timeout, whose POST the service acts on, is found and
  // recorded; a 5xx or a reset before the service acted finds nothing and fails saying what the
  // policy would be named.
  faults: {
    ops: ["create"],
    create: {
      named: (row) => `SnapshotPolicy "${policyOf(row)}"`,
      lost: (policies) => ({
        "500": { outcome: "fails", message: policyMayExist(policies, "500 Internal Server Error") },
        "502": { outcome: "fails", message: policyMayExist(policies, "502 Bad Gateway") },
        "connection reset": { outcome: "fails", message: policyMayExist(policies, "connection failed") },
        "response slower than the request timeout": { outcome: "recovers" },
      }),
    },
    scene,
  },
  example: {
    record: (env, r) => env.emulator.store.get("lifecycle_policies", r.id),
    // The stack made the policy: destroy deletes it.
    afterDestroy: (record) => expect(record).toBeUndefined(),
  },
};

// LbPoolSettings's members take every setting the vendor SDK's member takes, in process on
// both faces against one emulator: the monitor's address and port, admin state and backup are
// sent with the member's create and changed in place by one PATCH of the member (the same id);
// an instance is fixed when the member is made, so a new instanceId is a new member.
import { api, SEED } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { withEmulatedState } from "../faults/matrix";

const POOL_PATH = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
const INSTANCE = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b";
const OTHER_INSTANCE = "6f7a8b9c-0d1e-4f2a-9b3c-4d5e6f7a8b9c";
const A = { address: "10.0.0.30", protocolPort: 8080 };
const B = { address: "10.0.0.31", protocolPort: 8080 };
const program = (...members: Array<Record<string, unknown>>) => ({ poolId: SEED.poolId, members });

type Held = Record<string, unknown> & { id: string; address: string };
const held = async (env: Emulated, address: string): Promise<Held | undefined> =>
  ((await api(env, "GET", POOL_PATH)).body.members as Held[]).find((m) => m.address === address);

describe.each(["dynamic", "native"] as const)("LbPoolSettings members' settings, %s face", (face) => {
  test("adminStateUp, backup, monitorAddress and monitorPort: sent at create, changed in place on the same member, then no change", () =>
    withEmulatedState("LbPoolSettings", face, async (env, pool) => {
      const first = program({ ...A, adminStateUp: false, backup: true, monitorAddress: "10.0.0.99", monitorPort: 9090 });
      await pool.up("web", first);
      const made = await held(env, A.address);
      expect(made).toMatchObject({ admin_state_up: false, backup: true, monitor_address: "10.0.0.99", monitor_port: 9090 });
      expect(await pool.changes("web", first)).toBe(false);

      const next = program({ ...A, adminStateUp: true, backup: true, monitorAddress: "10.0.0.99", monitorPort: 9091 });
      expect(await pool.changes("web", next)).toBe(true);
      await pool.up("web", next);
      expect(await held(env, A.address)).toMatchObject({ id: made!.id, admin_state_up: true, monitor_port: 9091 });
      expect(await pool.changes("web", next)).toBe(false);
    }));

  test("instanceId: sent at create; a new one makes a new member", () =>
    withEmulatedState("LbPoolSettings", face, async (env, pool) => {
      for (const id of [INSTANCE, OTHER_INSTANCE]) env.emulator.store.put("instances", { id, name: "web", project_id: 1, region_id: 1 });
      const first = program({ ...B, instanceId: INSTANCE });
      await pool.up("web", first);
      const made = await held(env, B.address);
      expect(made).toBeDefined();
      expect(await pool.changes("web", first)).toBe(false);

      const moved = program({ ...B, instanceId: OTHER_INSTANCE });
      expect(await pool.changes("web", moved)).toBe(true);
      await pool.up("web", moved);
      const again = await held(env, B.address);
      expect(again?.id).toBeDefined();
      expect(again?.id).not.toBe(made!.id);
      expect(await pool.changes("web", moved)).toBe(false);
    }));
});

import type { ApiRecord } from "../../api/guards";
import type { KindKit } from "./kit";

const key = (address: unknown, port: unknown) => `${String(address)}:${String(port)}`;

export const LbPoolSettings: KindKit = {
  lifecycle: true,
  values: {
    healthmonitor: { type: "TCP", delay: 7, timeout: 3, max_retries: 2 },
    session_persistence: { type: "SOURCE_IP" },
    members: [{ address: "10.0.0.44", protocol_port: 8081, weight: 3 }],
  },
  // Its update (PATCH of the pool and its task) is safe to repeat; what it does with members is its own tests'.
  faults: { ops: ["update"] },
  example: {
    record: (env, r) => env.emulator.store.get("lbpools", r.outputs?.poolId),
    // The pool and its settings stay; the stack's members go.
    afterDestroy: (pool, declared) => {
      const listed = (declared.members as ApiRecord[]).map((m) => key(m.address, m.protocolPort));
      const left = (pool?.members as ApiRecord[]).map((m) => key(m.address, m.protocol_port));
      expect(left.filter((m) => listed.includes(m))).toEqual([]);
    },
  },
};

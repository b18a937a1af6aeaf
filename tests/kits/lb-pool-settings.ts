import type { ApiRecord } from "../../api/guards";
import { isKind, SEED } from "../support/cims";
import { type EngineSceneOf, POOL_SETTINGS_INPUTS, type SceneOf, sleep, stackCommand, tasksEnd } from "../support/scenes";
import type { KindKit } from "./kit";

const key = (address: unknown, port: unknown) => `${String(address)}:${String(port)}`;

/** The seeded pool's settings: each row sets a client timeout of its own, so its update is a real PATCH. */
const scene: SceneOf = async ({ env, state, row }) => {
  const settings = (timeout: number) => ({ ...POOL_SETTINGS_INPUTS, timeoutClientData: timeout });
  await state.up("pool", settings(0));
  let timeout = 0;
  return {
    async next() {
      timeout = (row + 1) * 1000;
    },
    run: () => state.up("pool", settings(timeout)),
    async check(converged) {
      const pool = env.emulator.store.get("lbpools", SEED.poolId)!;
      const outs = state.resources.get("pool")?.outs;
      const service = { lbAlgorithm: pool.lb_algorithm, timeoutClientData: pool.timeout_client_data };
      expect({ lbAlgorithm: outs?.lbAlgorithm, timeoutClientData: outs?.timeoutClientData }).toEqual(service);
      if (converged) expect(service).toEqual({ lbAlgorithm: "ROUND_ROBIN", timeoutClientData: timeout });
    },
    settle: () => tasksEnd(env),
  };
};

/** Through the engine: the row sets a client timeout of its own, so its `up` is a real PATCH. */
const engineScene: EngineSceneOf = async ({ stacks, op, face, config, row }) => {
  const env = await stacks.program("pool", { poolId: SEED.poolId, ...config }, { face });
  await env.stack.up();
  const timeout = (row + 1) * 1000;
  return {
    env,
    next: () => env.stack.setConfig("clientTimeout", String(timeout)),
    run: (allowFailure) => stackCommand(env, op, allowFailure),
    async check(converged) {
      const pool = env.emulator.store.get("lbpools", SEED.poolId)!;
      const state = (await env.stack.exportState()).deployment.resources?.find((r) => isKind(r.type, "LbPoolSettings"));
      const service = { lbAlgorithm: pool.lb_algorithm, timeoutClientData: pool.timeout_client_data };
      expect({ lbAlgorithm: state?.outputs?.lbAlgorithm, timeoutClientData: state?.outputs?.timeoutClientData }).toEqual(service);
      if (converged) expect(service).toEqual({ lbAlgorithm: "ROUND_ROBIN", timeoutClientData: timeout });
    },
    settle: () => sleep(4500),
  };
};

export const LbPoolSettings: KindKit = {
  lifecycle: true,
  values: {
    healthmonitor: { type: "TCP", delay: 7, timeout: 3, max_retries: 2 },
    session_persistence: { type: "SOURCE_IP" },
    members: [{ address: "10.0.0.44", protocol_port: 8081, weight: 3 }],
  },
  // Its update (PATCH of the pool and its task) is safe to repeat; what it does with members is its own tests'.
  faults: { ops: ["update"], scene, engineScene },
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

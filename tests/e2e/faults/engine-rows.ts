// The fault matrix's rows that only the engine shows, through the real CLI: what a failure
// leaves in the stack's state (a partly created resource recorded, the state agreeing with the
// service after a failed update or delete, and after a refresh), and the next command
// converging from it. Every row of the matrix also runs in process, at the provider's methods
// (tests/unit/provider/faults/); the rows, their outcomes and why are tests/support/faults.ts.
import { api, type CimsTestEnv, type Face, isKind, SEED, type Stacks, useStacks } from "../../support/cims";
import {
  arm,
  clearFaults,
  type Matrix,
  messageOf,
  type Op,
  POOL_SETTINGS,
  type Row,
  rowNamed,
  sleep,
  SUBNET,
  SUBNET_PATH,
  subnetOf,
  usesLeft,
} from "../../support/faults";
import type { RunResult } from "../../support/harness";

/** An operation of a kind on a stack of its own, ready to run under one row's fault. */
interface Scene {
  env: CimsTestEnv;
  /** Readies the row's change (a subnet to add, a timeout to set...), before its fault is installed. */
  next(): Promise<void>;
  /** The command under test. */
  run(allowFailure: boolean): Promise<RunResult>;
  /** The stack and the service agree; `converged`: the service also holds what the program says. */
  check(converged: boolean): Promise<void>;
  /** After a failure the service acts on later: does what the message tells the user to do with what it made. */
  settle(): Promise<void>;
}

interface Target {
  matrix: Matrix;
  /** The row's stack, made with the row's config (a delete runs with the settings its resource was created with). */
  scene(stacks: Stacks, op: Op, face: Face, config: Record<string, string>, row: number): Promise<Scene>;
}

const runOp = (env: CimsTestEnv, op: Op, allowFailure: boolean): Promise<RunResult> =>
  op === "delete"
    ? env.stack.destroy([], { allowFailure })
    : op === "refresh"
      ? env.stack.refresh([], { allowFailure })
      : env.stack.up([], { allowFailure });

/** Subnet: create adds the row's subnet to the program; delete destroys it; refresh refreshes it. */
const SUBNET_STACK: Target = {
  matrix: SUBNET,
  async scene(stacks, op, face, config, row) {
    let program = op === "create" ? [] : [subnetOf(row)];
    const env = await stacks.program("subnet", { networkId: SEED.networkId, subnets: JSON.stringify(program), ...config }, { face });
    if (op !== "create") await env.stack.up();
    const inService = () => env.emulator.store.list("subnets");
    const ids = (list: Array<{ id?: unknown }>) => list.map((s) => String(s.id)).sort();
    const inState = async () => ids(((await env.stack.exportState()).deployment.resources ?? []).filter((r) => isKind(r.type, "Subnet")));
    return {
      env,
      async next() {
        if (op === "create") await env.stack.setConfig("subnets", JSON.stringify((program = [subnetOf(row)])));
        if (op === "delete") program = [];
      },
      run: (allowFailure) => runOp(env, op, allowFailure),
      async check(converged) {
        expect(await inState()).toEqual(ids(inService()));
        if (converged)
          expect(
            inService()
              .map((s) => `${String(s.name)} ${String(s.cidr)}`)
              .sort(),
          ).toEqual(program.map((s) => `${s.name} ${s.cidr}`).sort());
      },
      async settle() {
        await sleep(4500);
        if (op !== "create") return;
        const recorded = await inState();
        for (const id of ids(inService()).filter((id) => !recorded.includes(id))) await api(env, "DELETE", `${SUBNET_PATH}/${id}`);
        await sleep(1000);
      },
    };
  },
};

/** LbPoolSettings: the row sets a client timeout of its own, so its `up` is a real PATCH. */
const POOL_SETTINGS_STACK: Target = {
  matrix: POOL_SETTINGS,
  async scene(stacks, op, face, config, row) {
    const env = await stacks.program("pool", { poolId: SEED.poolId, ...config }, { face });
    await env.stack.up();
    const timeout = (row + 1) * 1000;
    return {
      env,
      next: () => env.stack.setConfig("clientTimeout", String(timeout)),
      run: (allowFailure) => runOp(env, op, allowFailure),
      async check(converged) {
        const pool = env.emulator.store.get("lbpools", SEED.poolId)!;
        const state = (await env.stack.exportState()).deployment.resources?.find((r) => isKind(r.type, "LbPoolSettings"));
        const service = { lbAlgorithm: pool.lb_algorithm, timeoutClientData: pool.timeout_client_data };
        expect({ lbAlgorithm: state?.outputs?.lbAlgorithm, timeoutClientData: state?.outputs?.timeoutClientData }).toEqual(service);
        if (converged) expect(service).toEqual({ lbAlgorithm: "ROUND_ROBIN", timeoutClientData: timeout });
      },
      settle: () => sleep(4500),
    };
  },
};

export const STACKS = { Subnet: SUBNET_STACK, LbPoolSettings: POOL_SETTINGS_STACK };

async function runRow(scene: Scene, target: Target, op: Op, { fault, expected, row }: Row): Promise<void> {
  const { env } = scene;
  try {
    await scene.next();
    const armed = await arm(env, target.matrix, op, fault);
    const result = await scene.run(true);
    const output = result.stdout + result.stderr;
    expect(usesLeft(env)).toBeLessThan(armed);

    if (expected.outcome === "recovers") {
      expect({ code: result.code, output: result.code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
      await scene.check(true);
      return;
    }
    expect(result.code).not.toBe(0);
    const message = messageOf(expected, row);
    if (message) expect(output).toMatch(message);
    await clearFaults(env);
    if (expected.settlesLater) await scene.settle();
    else await scene.check(false);
    // Fault cleared: the same command converges.
    await scene.run(false);
    await scene.check(true);
  } finally {
    await clearFaults(env);
  }
}

/** The row of that fault for an operation of a kind, on a face, on a stack of its own. */
export function engineRow(kind: keyof typeof STACKS, op: Op, face: Face, faultName: string): void {
  const target = STACKS[kind];
  const row = rowNamed(target.matrix, op, faultName);
  describe(`fault matrix through the engine: ${kind} ${op}${face === "dynamic" ? "" : ` (${face} face)`}`, () => {
    const stacks = useStacks();
    test(
      `${op} + ${faultName}: ${row.expected.outcome}`,
      async () => {
        const scene = await target.scene(stacks, op, face, row.fault.config ?? {}, row.row);
        await runRow(scene, target, op, row);
      },
      10 * 60_000,
    );
  });
}

// The fault matrix: each operation under each emulator fault. Transient faults must be
// absorbed (the command succeeds, nothing duplicated); permanent ones must fail with an
// actionable message, leave the stack state matching the emulator, and converge on the
// next run once the fault is cleared. docs/reliability.md records the outcomes.
import { api, type CimsTestEnv, type Face, isKind, SEED, type Stacks, useStacks } from "../support/cims";
import type { RunResult } from "../support/harness";

export type Op = "create" | "update" | "delete" | "refresh";

export interface Fault {
  name: string;
  /** Installs the fault on the operation's request (method + path). */
  install(env: CimsTestEnv, method: string, path: string): Promise<void>;
  /** Extra stack config the row needs (e.g. a short request timeout). */
  config?: Record<string, string>;
}

const status = (code: number, retryAfter?: string, message?: string): Fault => ({
  name: retryAfter ? `${code} with Retry-After` : String(code),
  install: async (env, method, path) => {
    await api(env, "POST", "/__emulator/faults", {
      method,
      path,
      count: 2,
      action: "status",
      status: code,
      retryAfter,
      body: message ? { message } : undefined,
    });
  },
});

export const FAULTS: Fault[] = [
  status(429, "1"),
  status(500),
  status(502),
  status(503),
  // A lock held by another task: it clears, so it is retried (a lasting conflict is not: orphans-settings.test.ts).
  status(409, undefined, "Resource is locked by running task 0e8b5c52-0d6a-4b5e-9d6e-3c1f2a7b8c9d."),
  {
    name: "connection reset",
    install: (env, method, path) =>
      api(env, "POST", "/__emulator/faults", { method, path, count: 1, action: "close" }).then(() => undefined),
  },
  {
    name: "response slower than the request timeout",
    config: { "cims:requestTimeoutSeconds": "1" },
    install: (env, method, path) =>
      api(env, "POST", "/__emulator/faults", { method, path, count: 1, action: "delay", delayMs: 4000 }).then(() => undefined),
  },
  {
    name: "task ERROR",
    install: (env, method, path) =>
      api(env, "POST", "/__emulator/task-faults", { method, path, count: 1, message: "Backend capacity exhausted" }).then(() => undefined),
  },
  {
    name: "task never finishes (deadline)",
    config: { "cims:taskTimeoutSeconds": "3", createTimeout: "3" },
    install: (env, method, path) =>
      api(env, "POST", "/__emulator/task-faults", { method, path, count: 1, hang: true }).then(() => undefined),
  },
];

/** Every request-level fault (statuses, reset, slow answer) recovers: the call is safe to repeat. */
function requestFaultsRecover(): Record<string, Expectation> {
  return Object.fromEntries(FAULTS.filter((f) => !f.name.startsWith("task ")).map((f) => [f.name, { outcome: "recovers" }]));
}

export interface Expectation {
  outcome: "recovers" | "fails" | "n/a";
  /** What the failure message must say. */
  message?: RegExp;
  /**
   * The service may still act after the failure (an answer lost after it acted, a task that
   * outlives its deadline): documented, not hidden. Consistency is checked after the
   * next run instead, once anything created outside the stack has been deleted as the
   * message tells the user to.
   */
  settlesLater?: boolean;
}

/**
 * What each operation does under each fault. create (POST subnets + task): a POST is repeated
 * only when the service cannot have acted (refused, 429, 503, 409 locked); otherwise the run
 * fails and says what to check. update (PATCH lbpools + task): PATCH is safe to repeat, so
 * every transport and status fault is absorbed; a failed or overdue task fails the run.
 * delete (DELETE subnets + task) and refresh (GET subnets): both safe to repeat; a delete
 * whose task fails or is overdue fails the run, and converges after.
 */
const POST = "POST /cloud/v1/subnets/1/1";
export const EXPECTED: Record<Op, Record<string, Expectation>> = {
  create: {
    "429 with Retry-After": { outcome: "recovers" },
    "500": { outcome: "fails", message: new RegExp(`${POST}: 500 Internal Server Error`) },
    "502": { outcome: "fails", message: new RegExp(`${POST}: 502 Bad Gateway`) },
    "503": { outcome: "recovers" },
    // Locked by a running task: the service refused without acting, so the POST waits for the lock.
    "409": { outcome: "recovers" },
    // Dropped before the service acted: after looking for its mark (15 s at least), the error says how to adopt it if it shows up.
    "connection reset": { outcome: "fails", message: /connection failed.*The service may have created Subnet "e2e-subnet".*importId/ },
    // The service acts after the client gave up: the subnet carrying the create's mark is found and recorded.
    "response slower than the request timeout": { outcome: "recovers" },
    "task ERROR": {
      outcome: "fails",
      message: /Subnet "e2e-subnet": task [0-9a-f-]+ \(create_subnet\) failed: Backend capacity exhausted/,
    },
    // The running task lists the subnet's id: the stack records it, the next up waits for it.
    "task never finishes (deadline)": {
      outcome: "fails",
      message:
        /Subnet "e2e-subnet" was created \(id [0-9a-f-]{36}, task\(s\) [0-9a-f-]{36}\) but the create did not complete: .*timed out after 3s/,
    },
  },
  update: {
    ...requestFaultsRecover(),
    "task ERROR": { outcome: "fails", message: /task [0-9a-f-]+ \(update_lbpool\) failed: Backend capacity exhausted/ },
    "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
  },
  delete: {
    ...requestFaultsRecover(),
    "task ERROR": { outcome: "fails", message: /task [0-9a-f-]+ \(delete_subnet\) failed: Backend capacity exhausted/ },
    "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
  },
  refresh: {
    ...requestFaultsRecover(),
    "task ERROR": { outcome: "n/a" },
    "task never finishes (deadline)": { outcome: "n/a" },
  },
};

const SUBNET_PATH = "/cloud/v1/subnets/1/1";

/** Where each operation's request goes, and the program it runs. */
const TARGET: Record<Op, { program: string; method: string; path: string }> = {
  create: { program: "subnet", method: "POST", path: SUBNET_PATH },
  update: { program: "pool", method: "PATCH", path: `/cloud/v1/lbpools/1/1/${SEED.poolId}` },
  delete: { program: "subnet", method: "DELETE", path: `${SUBNET_PATH}/*` },
  refresh: { program: "subnet", method: "GET", path: `${SUBNET_PATH}/*` },
};

async function subnetIdsInState(env: CimsTestEnv): Promise<string[]> {
  const resources = (await env.stack.exportState()).deployment.resources ?? [];
  return resources
    .filter((r) => isKind(r.type, "Subnet"))
    .map((r) => String(r.id))
    .sort();
}

function subnetIdsInEmulator(env: CimsTestEnv): string[] {
  return env.emulator.store
    .list("subnets")
    .map((s) => String(s.id))
    .sort();
}

/** The stack and the service agree: no phantom in state, no orphan in the service. */
async function expectConsistent(env: CimsTestEnv, op: Op): Promise<void> {
  if (op === "update") {
    const pool = env.emulator.store.get("lbpools", SEED.poolId)!;
    const state = (await env.stack.exportState()).deployment.resources?.find((r) => isKind(r.type, "LbPoolSettings"));
    expect(state?.outputs?.lbAlgorithm).toBe(pool.lb_algorithm);
  } else {
    expect(await subnetIdsInState(env)).toEqual(subnetIdsInEmulator(env));
  }
}

/** Runs the operation: create and update are both an `up` (prepare() sets up the update). */
async function run(env: CimsTestEnv, op: Op, allowFailure: boolean): Promise<RunResult> {
  if (op === "delete") return env.stack.destroy([], { allowFailure });
  if (op === "refresh") return env.stack.refresh([], { allowFailure });
  return env.stack.up([], { allowFailure });
}

async function prepare(env: CimsTestEnv, op: Op): Promise<void> {
  if (op === "create") return;
  await env.stack.up();
  if (op === "update") await env.stack.setConfig("algorithm", "LEAST_CONNECTIONS");
}

async function runScenario(stacks: Stacks, op: Op, fault: Fault, expected: Expectation, face: Face): Promise<void> {
  const target = TARGET[op];
  const baseConfig: Record<string, string> = target.program === "pool" ? { poolId: SEED.poolId } : { networkId: SEED.networkId };
  const env = await stacks.program(target.program, { ...baseConfig, ...fault.config }, { face });
  await prepare(env, op);
  await fault.install(env, target.method, target.path);
  const result = await run(env, op, true);
  const output = result.stdout + result.stderr;

  if (expected.outcome === "recovers") {
    expect({ code: result.code, output: result.code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
    await expectConsistent(env, op);
    expect(subnetIdsInEmulator(env).length).toBeLessThanOrEqual(op === "delete" ? 0 : 1);
    return;
  }

  expect(result.code).not.toBe(0);
  if (expected.message) expect(output).toMatch(expected.message);
  await api(env, "DELETE", "/__emulator/faults");
  if (expected.settlesLater) {
    await new Promise((r) => setTimeout(r, 4500));
    const inState = await subnetIdsInState(env);
    if (op === "create") {
      for (const id of subnetIdsInEmulator(env).filter((id) => !inState.includes(id))) await api(env, "DELETE", `${SUBNET_PATH}/${id}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  } else {
    await expectConsistent(env, op);
  }
  // Fault cleared: the same command converges.
  await run(env, op, false);
  await expectConsistent(env, op);
  expect(subnetIdsInEmulator(env).length).toBeLessThanOrEqual(op === "delete" ? 0 : 1);
}

/**
 * One test per fault for an operation, with its expected outcome (EXPECTED), on a face;
 * `only`: just the faults with that outcome (the plugin face's run of the request faults).
 */
export function matrix(op: Op, face: Face = "dynamic", only?: Expectation["outcome"]): void {
  describe(`fault matrix: ${op}${face === "dynamic" ? "" : ` (${face} face)`}`, () => {
    const stacks = useStacks();
    for (const fault of FAULTS) {
      const expected = EXPECTED[op][fault.name];
      // Every fault needs a stated outcome: a fault added later must not pass by being skipped.
      if (!expected) throw new Error(`fault matrix ${op}: no expected outcome for "${fault.name}"`);
      if (expected.outcome === "n/a" || (only && expected.outcome !== only)) continue;
      test(
        `${op} + ${fault.name}: ${expected.outcome}`,
        async () => {
          await runScenario(stacks, op, fault, expected, face);
        },
        10 * 60_000,
      );
    }
  });
}

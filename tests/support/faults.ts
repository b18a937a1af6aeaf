// The fault matrix: each operation of a kind under each emulator fault, and the outcome it
// must have. Transient faults must be absorbed (the operation succeeds, nothing duplicated);
// permanent ones must fail with an actionable message, leave the state matching the
// emulator, and converge on the next run once the fault is cleared. A kind is a Matrix: its
// outcomes and the request each operation's fault goes on, derived by matrixOf from the kind's
// contract and what its test kit (tests/kits/, `faults`) says is its own. tests/unit/provider/faults/ runs
// every row in process against the kind's provider methods; tests/e2e/faults/ runs the rows
// only the engine shows (what a failure leaves in the stack's state) through the CLI.
// docs/reliability.md records the outcomes.
import { api, type CimsTestEnv, SEEDED_PARAMS } from "./cims";
import { type Contract, idParam, operation } from "../../api/contract";
import { LbPoolMember } from "../../api/contract/lb-pool-member";
import { type Kind, kind } from "../../provider/kinds/registry";
import { KITS } from "../kits";
import { type EngineSceneOf, type SceneOf, taskEnds } from "./scenes";

// What the kits' scenes share, where the tests that use it beside the matrix have found it.
export { MEMBER_SUBNET, type Member, memberAddress, POOL_SETTINGS_INPUTS, poolMembers, sleep, taskEnds } from "./scenes";

export type Op = "create" | "update" | "delete" | "refresh";

/** What a fault needs of the emulator: its control API, called with the key. */
export type Emulated = Pick<CimsTestEnv, "emulator" | "apiKey">;

export interface Fault {
  name: string;
  /** Installs the fault on the operation's request (method + path). */
  install(env: Emulated, method: string, path: string): Promise<void>;
  /** Extra provider (or program) config the row needs (e.g. a short request timeout). */
  config?: Record<string, string>;
  /** The emulator's rate limit (requests a second per key) while the row's operation runs. */
  rateLimit?: number;
}

const control = async (env: Emulated, path: string, body: unknown): Promise<void> => {
  expect((await api(env, "POST", path, body)).status).toBe(204);
};

const status = (code: number, retryAfter?: string, message?: string): Fault => ({
  name: retryAfter ? `${code} with Retry-After` : String(code),
  install: (env, method, path) =>
    control(env, "/__emulator/faults", {
      method,
      path,
      count: 2,
      action: "status",
      status: code,
      retryAfter,
      body: message ? { message } : undefined,
    }),
});

export const FAULTS: Fault[] = [
  // Under the service's rate limit too: the operation's other requests meet real 429s, paced.
  { ...status(429, "1"), rateLimit: 3 },
  status(500),
  status(502),
  status(503),
  // A lock held by another task: it clears, so it is retried (a lasting conflict is not: orphans-settings.test.ts).
  status(409, undefined, "Resource is locked by running task 0e8b5c52-0d6a-4b5e-9d6e-3c1f2a7b8c9d."),
  {
    name: "connection reset",
    install: (env, method, path) => control(env, "/__emulator/faults", { method, path, count: 1, action: "close" }),
  },
  {
    name: "response slower than the request timeout",
    config: { "cims:requestTimeoutSeconds": "1" },
    install: (env, method, path) => control(env, "/__emulator/faults", { method, path, count: 1, action: "delay", delayMs: 4000 }),
  },
  {
    name: "task ERROR",
    install: (env, method, path) =>
      control(env, "/__emulator/task-faults", { method, path, count: 1, message: "Backend capacity exhausted" }),
  },
  {
    name: "task never finishes (deadline)",
    config: { "cims:taskTimeoutSeconds": "3", createTimeout: "3" },
    install: (env, method, path) => control(env, "/__emulator/task-faults", { method, path, count: 1, hang: true }),
  },
];

/** Every request-level fault (statuses, reset, slow answer) recovers: the call is safe to repeat. */
function requestFaultsRecover(): Record<string, Expectation> {
  return Object.fromEntries(FAULTS.filter((f) => !f.name.startsWith("task ")).map((f) => [f.name, { outcome: "recovers" }]));
}

/**
 * An operation safe to repeat through a task: every request fault recovers; a task in ERROR
 * fails saying so (`failed`: how), an overdue one fails on its deadline (the task may still finish).
 */
function taskFails(failed: RegExp): Record<string, Expectation> {
  return {
    ...requestFaultsRecover(),
    "task ERROR": { outcome: "fails", message: failed },
    "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
  };
}

/** A read: every request fault recovers; task faults do not apply (a read starts no task). */
function readRecovers(): Record<string, Expectation> {
  return { ...requestFaultsRecover(), "task ERROR": { outcome: "n/a" }, "task never finishes (deadline)": { outcome: "n/a" } };
}

export interface Expectation {
  outcome: "recovers" | "fails" | "n/a";
  /** What the failure message must say (of row `row`, when it names the row's resource). */
  message?: RegExp | ((row: number) => RegExp);
  /**
   * The service may still act after the failure (an answer lost after it acted, a task that
   * outlives its deadline): documented, not hidden. Consistency is checked after the
   * next run instead, once anything created outside the state has been adopted or deleted
   * as the message tells the user to.
   */
  settlesLater?: boolean;
}

/** A kind under the matrix. */
export interface Matrix {
  name: string;
  /** Each operation's outcome under each fault, and why. */
  expected: Partial<Record<Op, Record<string, Expectation>>>;
  /** The request of each operation that the fault goes on (a path may hold `*` and a trailing `**`). */
  requests: Partial<Record<Op, { method: string; path: string }>>;
}

/** One row: a fault, its expected outcome, and its index (which names the row's resource). */
export interface Row {
  fault: Fault;
  expected: Expectation;
  row: number;
}

/**
 * The rows of an operation of a kind, but those that do not apply; `only`: just the faults
 * with that outcome. Every fault needs a stated outcome: a fault added later must not pass by
 * being skipped.
 */
export function rowsOf(matrix: Matrix, op: Op, only?: Expectation["outcome"]): Row[] {
  const expectations = matrix.expected[op];
  if (!expectations || !matrix.requests[op]) throw new Error(`fault matrix: ${matrix.name} has no ${op} row`);
  return FAULTS.flatMap((fault, row) => {
    const expected = expectations[fault.name];
    if (!expected) throw new Error(`fault matrix ${matrix.name} ${op}: no expected outcome for "${fault.name}"`);
    return expected.outcome !== "n/a" && (!only || expected.outcome === only) ? [{ fault, expected, row }] : [];
  });
}

/** The row of that fault (by name), which must apply. */
export function rowNamed(matrix: Matrix, op: Op, name: string): Row {
  const found = rowsOf(matrix, op).find((r) => r.fault.name === name);
  if (!found) throw new Error(`fault matrix ${matrix.name} ${op}: no row "${name}"`);
  return found;
}

/** The uses left in the installed faults: a row whose fault was never met proves nothing. */
export const usesLeft = (env: Emulated): number =>
  [...env.emulator.faults.requestFaults, ...env.emulator.faults.taskFaults].reduce((n, f) => n + (f.count ?? Infinity), 0);

/** Installs the row's fault (and rate limit) on the operation's request; answers the uses it armed. */
export async function arm(env: Emulated, matrix: Matrix, op: Op, fault: Fault): Promise<number> {
  const request = matrix.requests[op]!;
  await fault.install(env, request.method, request.path);
  if (fault.rateLimit) env.emulator.faults.setRateLimit(fault.rateLimit);
  return usesLeft(env);
}

/** Clears every fault and the rate limit; a task told to hang finishes. */
export async function clearFaults(env: Emulated): Promise<void> {
  expect((await api(env, "DELETE", "/__emulator/faults")).status).toBe(204);
}

/** An operation's path in the seed's scope; a record's id the seed does not hold is any (`*`). */
function seededPath(contract: Contract, name: "create" | "list" | "update" | "delete"): string {
  const op = operation(contract, name);
  if (!op) throw new Error(`fault matrix: ${contract.name}'s contract has no ${name}`);
  const params: Record<string, string> = { [idParam(contract)]: "*", ...SEEDED_PARAMS };
  return op.template.replace(/\{([a-z_]+)\}/g, (_all, p: string) => params[p] ?? "*");
}

/**
 * The request each operation's fault goes on, by the kind's contract: its method and path. A
 * refresh reads the kind's list (reads coalesce) or the record by id: the fault meets either,
 * under the list's path.
 */
function requestsOf(contract: Contract, ops: readonly Op[]): Matrix["requests"] {
  return Object.fromEntries(
    ops.map((op) =>
      op === "refresh"
        ? [op, { method: "GET", path: `${seededPath(contract, "list")}/**` }]
        : [op, { method: operation(contract, op)!.method, path: seededPath(contract, op) }],
    ),
  );
}

/** The task type the kind's contract names for an operation, as a failed task's message names it. */
function taskOf(contract: Contract, op: "create" | "update" | "delete"): string {
  const task = operation(contract, op)?.task;
  if (!task) throw new Error(`fault matrix: ${contract.name}'s ${op} answers with no task`);
  return task;
}

/** The expected message of a failing row. */
export const messageOf = (expected: Expectation, row: number): RegExp | undefined =>
  typeof expected.message === "function" ? expected.message(row) : expected.message;

/** What a kind's test kit says of it under the fault matrix; the rest follows from its contract. */
export interface KindFaults {
  /** The operations the matrix runs (by default each its contract has, and refresh). */
  readonly ops?: readonly Op[];
  /**
   * A create: how its messages name row `row`'s resource (a RegExp source), and its outcome
   * under the faults after which the service may have acted (500, 502, a reset, a slow answer),
   * given its request's path: what an answer lost means is the kind's own.
   */
  readonly create?: {
    readonly named: (row: number) => string;
    readonly lost: (path: string) => Record<Lost, Expectation>;
  };
  /** How a failed update's or delete's task names the resource, before `task <id> (<type>) failed` (a RegExp source). */
  readonly taskNamed?: string;
  /**
   * Readies a row's resource for the operation (tests/support/scenes.ts): the records it needs
   * first, what the row changes, and what must hold after it. The in-process tier
   * (tests/unit/provider/faults/) runs every row of every kit through it.
   */
  readonly scene: SceneOf;
  /** The same through the engine, for the rows tests/e2e/faults/ runs of the kind (engineRow). */
  readonly engineScene?: EngineSceneOf;
}

/** The faults after which the service may have acted on a create: its outcome is the kind's. */
type Lost = "500" | "502" | "connection reset" | "response slower than the request timeout";

/**
 * A create answering with a task: a POST is repeated only when the service cannot have acted
 * (429, 503, 409 locked); a task in ERROR fails naming the resource and the task's type; an
 * overdue task fails saying what the running task made, which the state records and the next
 * run waits for. The other faults are the kind's (`lost`).
 */
function createFaults(contract: Contract, create: NonNullable<KindFaults["create"]>): Record<string, Expectation> {
  const named = (row: number) => create.named(row);
  // A synchronous create (a policy's: the answer is the record) has no task to fail or outlast its deadline.
  if (!operation(contract, "create")?.task) {
    return {
      "429 with Retry-After": { outcome: "recovers" },
      "503": { outcome: "recovers" },
      "409": { outcome: "recovers" },
      ...create.lost(seededPath(contract, "create")),
      "task ERROR": { outcome: "n/a" },
      "task never finishes (deadline)": { outcome: "n/a" },
    };
  }
  const task = taskOf(contract, "create");
  return {
    "429 with Retry-After": { outcome: "recovers" },
    "503": { outcome: "recovers" },
    "409": { outcome: "recovers" },
    ...create.lost(seededPath(contract, "create")),
    "task ERROR": {
      outcome: "fails",
      message: (row) => new RegExp(`${named(row)}: task [0-9a-f-]+ \\(${task}\\) failed: Backend capacity exhausted`),
    },
    "task never finishes (deadline)": {
      outcome: "fails",
      message: (row) =>
        new RegExp(
          `${named(row)} was created \\(id [0-9a-f-]{36}, task\\(s\\) [0-9a-f-]{36}\\) but the create did not complete: .*timed out after 3s`,
        ),
    },
  };
}

/** An operation's outcomes: a create's as above, an update's or delete's through its task, a refresh's as a read's. */
function expectedOf(contract: Contract, op: Op, faults: KindFaults): Record<string, Expectation> {
  if (op === "refresh") return readRecovers();
  if (op === "create") {
    if (!faults.create) throw new Error(`fault matrix: ${contract.name}'s kit has no create faults (named, lost)`);
    return createFaults(contract, faults.create);
  }
  return taskFails(new RegExp(`${faults.taskNamed ?? ""}task [0-9a-f-]+ \\(${taskOf(contract, op)}\\) failed: Backend capacity exhausted`));
}

/** The kind under the matrix: its rows from its contract's operations and its kit's `faults`. */
export function matrixOf(name: Kind): Matrix {
  const faults = KITS[name].faults;
  if (!faults) throw new Error(`fault matrix: ${name}'s test kit (tests/kits/) says nothing of faults: give it \`faults\``);
  const contract = kind(name).descriptor.contract;
  const ops =
    faults.ops ?? (["create", "update", "delete", "refresh"] as const).filter((op) => op === "refresh" || operation(contract, op));
  return {
    name,
    expected: Object.fromEntries(ops.map((op) => [op, expectedOf(contract, op, faults)])),
    requests: requestsOf(contract, ops),
  };
}

/** The seeded pool's members, where a member's create goes (and another team's, outside Pulumi). */
export const MEMBERS = seededPath(LbPoolMember, "create");
/** A member another team adds to the seeded pool outside Pulumi (POST, then its task); its id. */
export async function addMemberOutside(env: Emulated, address: string): Promise<string> {
  const task = (await api(env, "POST", MEMBERS, { address, protocol_port: 8080 })).body.tasks[0];
  await taskEnds(env, task);
  return String((await api(env, "GET", `/cloud/v1/tasks/${task}`)).body.created_resources.members[0]);
}

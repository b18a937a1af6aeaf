// The fault matrix: each operation of a kind under each emulator fault, and the outcome it
// must have. Transient faults must be absorbed (the operation succeeds, nothing duplicated);
// permanent ones must fail with an actionable message, leave the state matching the
// emulator, and converge on the next run once the fault is cleared. A kind is a Matrix: its
// outcomes and the request each operation's fault goes on. tests/unit/provider/faults/ runs
// every row in process against the kind's provider methods; tests/e2e/faults/ runs the rows
// only the engine shows (what a failure leaves in the stack's state) through the CLI.
// docs/reliability.md records the outcomes.
import { processClock } from "../../provider/client/clock";
import { api, type CimsTestEnv, SEED } from "./cims";
import { type Contract, idParam, operation } from "../../api/contract";
import { LbPoolMember } from "../../api/contract/lb-pool-member";
import { LbPoolSettings } from "../../api/contract/lb-pool-settings";
import { SnapshotPolicy } from "../../api/contract/snapshot-policy";
import { Subnet } from "../../api/contract/subnet";

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

/** The path parameters of the seed's records the matrix's requests go to: the scope, and its pool. */
const SEEDED: Record<string, string> = { project_id: "1", region_id: "1", pool_id: SEED.poolId };

/** An operation's path in the seed's scope; a record's id the seed does not hold is any (`*`). */
function seededPath(contract: Contract, name: "create" | "list" | "update" | "delete"): string {
  const op = operation(contract, name);
  if (!op) throw new Error(`fault matrix: ${contract.name}'s contract has no ${name}`);
  const params: Record<string, string> = { [idParam(contract)]: "*", ...SEEDED };
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

// Subnet (create, delete, refresh) and LbPoolSettings (update).

export const SUBNET_PATH = seededPath(Subnet, "create");

/** Row `row`'s subnet: a name of its own (a create's messages name it) and a CIDR of its own. */
export const subnetOf = (row: number) => ({ name: `e2e-subnet-${row}`, cidr: `10.30.${row + 1}.0/24` });
/** How a create's messages name row `row`'s subnet. */
const subnetNamed = (row: number) => `Subnet "${subnetOf(row).name}"`;

/**
 * Subnet: create (POST subnets + task): a POST is repeated only when the service cannot have
 * acted (refused, 429, 503, 409 locked); otherwise the operation fails and says what to check.
 * delete (DELETE subnets + task) and refresh (GET subnets): both safe to repeat; a delete
 * whose task fails or is overdue fails, and converges after.
 */
const SUBNET_POST = `POST ${SUBNET_PATH}`;
export const SUBNET: Matrix = {
  name: "Subnet",
  expected: {
    create: {
      "429 with Retry-After": { outcome: "recovers" },
      "500": { outcome: "fails", message: new RegExp(`${SUBNET_POST}: 500 Internal Server Error`) },
      "502": { outcome: "fails", message: new RegExp(`${SUBNET_POST}: 502 Bad Gateway`) },
      "503": { outcome: "recovers" },
      // Locked by a running task: the service refused without acting, so the POST waits for the lock.
      "409": { outcome: "recovers" },
      // Dropped before the service acted: after looking for its mark (15 s at least), the error says how to adopt it if it shows up.
      "connection reset": {
        outcome: "fails",
        message: (row) => new RegExp(`connection failed.*The service may have created ${subnetNamed(row)}.*importId`),
      },
      // The service acts after the client gave up: the subnet carrying the create's mark is found and recorded.
      "response slower than the request timeout": { outcome: "recovers" },
      "task ERROR": {
        outcome: "fails",
        message: (row) =>
          new RegExp(`${subnetNamed(row)}: task [0-9a-f-]+ \\(${taskOf(Subnet, "create")}\\) failed: Backend capacity exhausted`),
      },
      // The running task lists the subnet's id: the state records it, the next run waits for it.
      "task never finishes (deadline)": {
        outcome: "fails",
        message: (row) =>
          new RegExp(
            `${subnetNamed(row)} was created \\(id [0-9a-f-]{36}, task\\(s\\) [0-9a-f-]{36}\\) but the create did not complete: .*timed out after 3s`,
          ),
      },
    },
    delete: taskFails(new RegExp(`task [0-9a-f-]+ \\(${taskOf(Subnet, "delete")}\\) failed: Backend capacity exhausted`)),
    refresh: readRecovers(),
  },
  requests: requestsOf(Subnet, ["create", "delete", "refresh"]),
};

/** The seeded pool's settings as tests/fixtures/programs/pool.ts declares them by default, as the provider's inputs. */
export const POOL_SETTINGS_INPUTS = {
  poolId: SEED.poolId,
  name: "e2e-pool",
  lbAlgorithm: "ROUND_ROBIN",
  members: [{ address: "10.0.0.10", protocolPort: 8080 }],
  // The seeded member, taken over on purpose (nothing shows a stack made it).
  adoptMembers: [SEED.keptMemberId],
  timeoutClientData: 0,
  crlSecretId: null,
};

/** LbPoolSettings: update (PATCH lbpools + task) is safe to repeat; a failed or overdue task fails. */
export const POOL_SETTINGS: Matrix = {
  name: "LbPoolSettings",
  expected: {
    update: taskFails(new RegExp(`task [0-9a-f-]+ \\(${taskOf(LbPoolSettings, "update")}\\) failed: Backend capacity exhausted`)),
  },
  requests: requestsOf(LbPoolSettings, ["update"]),
};

// LbPoolMember.

export const MEMBERS = seededPath(LbPoolMember, "create");
/** The subnet the members are in, seeded (a member's subnet is not what is under test). */
export const MEMBER_SUBNET = "5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f";
/** Row `row`'s member address for an operation (each its own /24). */
export const memberAddress = (op: Op, row: number): string => `10.70.${{ create: 1, update: 2, delete: 3, refresh: 4 }[op]}.${10 + row}`;

const MEMBER = `LbPoolMember 10\\.70\\.\\d+\\.\\d+:8080 of pool ${SEED.poolId}`;
/**
 * A create whose answer was lost: the member may exist; members carry no mark, so none is
 * looked for, and the message says where to look, how to adopt it, and what the next `up`
 * does meanwhile (stops at preview while a member is at that address and port).
 */
const memberMayExist = (how: string) =>
  new RegExp(
    `${MEMBER}: POST ${MEMBERS}: ${how}.*The service may have created ${MEMBER}; it is not in the stack\\. ` +
      `GET ${MEMBERS} lists the pool's members: one at 10\\.70\\.\\d+\\.\\d+:8080 may be the one it made.*` +
      'Adopt it by setting `importId: "<its id>"` on this resource \\(or delete it\\) before the next `pulumi up`, ' +
      "which otherwise stops at preview while a member is at that address and port",
  );

/** A member's task (`update`, `delete`) that ended in ERROR, naming the member and its id. */
const memberTaskFailed = (op: "update" | "delete") =>
  new RegExp(`${MEMBER} \\([0-9a-f-]{36}\\): task [0-9a-f-]+ \\(${taskOf(LbPoolMember, op)}\\) failed: Backend capacity exhausted`);

/**
 * LbPoolMember: create (POST members + task) repeats its POST only when the service cannot
 * have acted (429, 503, 409 locked); any other lost or failed answer fails saying the
 * member may exist and how to find and adopt it (members carry no mark: a member at the
 * address and port may be another stack's, so none is taken). update (PATCH member + task),
 * delete (DELETE member + task) and refresh (GET) are safe to repeat; a failed or overdue
 * task fails.
 */
export const LB_POOL_MEMBER: Matrix = {
  name: "LbPoolMember",
  expected: {
    create: {
      "429 with Retry-After": { outcome: "recovers" },
      "500": { outcome: "fails", message: memberMayExist("500 Internal Server Error") },
      "502": { outcome: "fails", message: memberMayExist("502 Bad Gateway") },
      "503": { outcome: "recovers" },
      "409": { outcome: "recovers" },
      "connection reset": { outcome: "fails", message: memberMayExist("connection failed") },
      // The service makes the member after the client gave up: the test adopts it, as the message says.
      "response slower than the request timeout": {
        outcome: "fails",
        message: memberMayExist("connection failed \\(UND_ERR_HEADERS_TIMEOUT\\): no response in time"),
        settlesLater: true,
      },
      "task ERROR": {
        outcome: "fails",
        message: new RegExp(`${MEMBER}: task [0-9a-f-]+ \\(${taskOf(LbPoolMember, "create")}\\) failed: Backend capacity exhausted`),
      },
      // The running task lists the member's id: the state records it, the next run waits for it.
      "task never finishes (deadline)": {
        outcome: "fails",
        message: new RegExp(
          `${MEMBER} was created \\(id [0-9a-f-]{36}, task\\(s\\) [0-9a-f-]{36}\\) but the create did not complete: .*timed out after 3s`,
        ),
      },
    },
    update: taskFails(memberTaskFailed("update")),
    delete: taskFails(memberTaskFailed("delete")),
    refresh: readRecovers(),
  },
  requests: requestsOf(LbPoolMember, ["create", "update", "delete", "refresh"]),
};

// SnapshotPolicy.

export const POLICIES = seededPath(SnapshotPolicy, "create");
/** Row `row`'s policy name (a create's messages name it). */
export const policyOf = (row: number): string => `e2e-policy-${row}`;

/** A policy create whose answer was lost and whose policy no look found: it may exist, and would carry the create's mark. */
const policyMayExist = (how: string) =>
  new RegExp(
    `SnapshotPolicy "e2e-policy-\\d+": POST ${POLICIES}: ${how}.*The service may have created SnapshotPolicy "e2e-policy-\\d+"; ` +
      `it is not in the stack\\. GET ${POLICIES} lists the scope's policies: it would be named "e2e-policy-\\d+ cims-create-[0-9a-f]{12}"`,
  );

/**
 * SnapshotPolicy: create (POST lifecycle_policy, synchronous: no task) repeats its POST only
 * when the service cannot have acted (429, 503, 409 locked). Any other lost answer is looked
 * for by the create's mark, which rides in the policy's name: an answer slower than the request
 * timeout, whose POST the service acts on, is found and recorded; a 5xx or a reset before the
 * service acted finds nothing and fails saying what the policy would be named.
 */
export const SNAPSHOT_POLICY: Matrix = {
  name: "SnapshotPolicy",
  expected: {
    create: {
      "429 with Retry-After": { outcome: "recovers" },
      "500": { outcome: "fails", message: policyMayExist("500 Internal Server Error") },
      "502": { outcome: "fails", message: policyMayExist("502 Bad Gateway") },
      "503": { outcome: "recovers" },
      "409": { outcome: "recovers" },
      "connection reset": { outcome: "fails", message: policyMayExist("connection failed") },
      // The service acts after the client gave up: the policy carrying the create's mark is found and recorded.
      "response slower than the request timeout": { outcome: "recovers" },
      // Synchronous: no task.
      "task ERROR": { outcome: "n/a" },
      "task never finishes (deadline)": { outcome: "n/a" },
    },
  },
  requests: requestsOf(SnapshotPolicy, ["create"]),
};

/** A member as the service answers it (the fields the checks read). */
export interface Member {
  id: string;
  address: string;
  protocol_port: number;
  weight: number;
}

/** The pool's members but the seeded one (another team's), which must be untouched. */
export async function poolMembers(env: Emulated): Promise<Member[]> {
  const pool = (await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body as { members: Member[] };
  const kept = pool.members.filter((m) => m.id === SEED.keptMemberId);
  expect(kept).toEqual([expect.objectContaining({ address: "10.0.0.10", protocol_port: 8080, weight: 1 })]);
  return pool.members.filter((m) => m.id !== SEED.keptMemberId);
}

/** Waits for a task started outside the provider (drift made through the API) to finish. */
export async function taskEnds(env: Emulated, taskId: string): Promise<void> {
  for (let state = ""; state !== "FINISHED"; await sleep(100)) {
    state = (await api(env, "GET", `/cloud/v1/tasks/${taskId}`)).body.state;
    if (state === "ERROR") throw new Error(`task ${taskId} failed`);
  }
}

/** On the process's clock: a test on virtual time (virtual-clock.ts) waits none of it. */
export const sleep = (ms: number): Promise<void> => processClock.sleep(ms);

/** A member another team adds to the seeded pool outside Pulumi (POST, then its task); its id. */
export async function addMemberOutside(env: Emulated, address: string): Promise<string> {
  const task = (await api(env, "POST", MEMBERS, { address, protocol_port: 8080 })).body.tasks[0];
  await taskEnds(env, task);
  return String((await api(env, "GET", `/cloud/v1/tasks/${task}`)).body.created_resources.members[0]);
}

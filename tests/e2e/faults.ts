// The fault matrix: each operation of a kind under each emulator fault. Transient faults must
// be absorbed (the command succeeds, nothing duplicated); permanent ones must fail with an
// actionable message, leave the stack state matching the emulator, and converge on the
// next run once the fault is cleared. A kind is a Target: the program its stack runs, the
// request each operation's fault goes on, and the check that state and service agree.
// docs/reliability.md records the outcomes.
import { api, type CimsTestEnv, type Face, isKind, SEED, type Stacks, useStacks } from "../support/cims";
import type { RunResult } from "../support/harness";
import { subnetRecord } from "../support/records";

export type Op = "create" | "update" | "delete" | "refresh";

export interface Fault {
  name: string;
  /** Installs the fault on the operation's request (method + path). */
  install(env: CimsTestEnv, method: string, path: string): Promise<void>;
  /** Extra stack config the row needs (e.g. a short request timeout). */
  config?: Record<string, string>;
  /** The emulator's rate limit (requests a second per key) while the row's command runs. */
  rateLimit?: number;
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
  // Under the service's rate limit too: the command's other requests meet real 429s, paced.
  { ...status(429, "1"), rateLimit: 3 },
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
   * next run instead, once anything created outside the stack has been adopted or deleted
   * as the message tells the user to.
   */
  settlesLater?: boolean;
}

/** An operation of a kind, ready to run under one fault after another. */
export interface Scene {
  env: CimsTestEnv;
  /** Readies row `row`'s change (a member to add, a weight to set...), before its fault is installed. */
  next(row: number): Promise<void>;
  /** The command under test. */
  run(allowFailure: boolean): Promise<RunResult>;
  /**
   * The stack and the service agree: no phantom in the state, no orphan in the service,
   * nothing duplicated. `converged`: the service also holds what the program says.
   */
  check(converged: boolean): Promise<void>;
  /** After a failure the service acts on later: does what the message tells the user to do with what it made. */
  settle(row: number): Promise<void>;
}

/** A kind under the matrix. */
export interface Target {
  name: string;
  /** Each operation's outcome under each fault, and why. */
  expected: Partial<Record<Op, Record<string, Expectation>>>;
  /** The request of each operation that the fault goes on (a path may hold `*` and a trailing `**`). */
  requests: Partial<Record<Op, { method: string; path: string }>>;
  /**
   * One scene per operation, its stack reused by every row whose fault needs no config (each
   * row leaves it converged): cheap enough for `npm test`. A fault with config gets a scene
   * of its own, made with that config: a setting changed later would not reach a delete,
   * which runs with the provider configuration its resource was created with.
   * `rows`: the rows (indices) the scene serves.
   */
  scene(stacks: Stacks, op: Op, face: Face, config: Record<string, string>, rows: number[]): Promise<Scene>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const runOp = (env: CimsTestEnv, op: Op, allowFailure: boolean): Promise<RunResult> =>
  op === "delete"
    ? env.stack.destroy([], { allowFailure })
    : op === "refresh"
      ? env.stack.refresh([], { allowFailure })
      : env.stack.up([], { allowFailure });

// Subnet (create, delete, refresh) and LbPoolSettings (update): one stack per operation, for
// every row whose fault needs no settings of its own.

const SUBNET_PATH = "/cloud/v1/subnets/1/1";

/** Row `row`'s subnet: a name of its own (a create's messages name it) and a CIDR of its own. */
const subnetOf = (row: number) => ({ name: `e2e-subnet-${row}`, cidr: `10.30.${row + 1}.0/24` });
/** How a create's messages name row `row`'s subnet. */
const subnetNamed = (row: number) => `Subnet "${subnetOf(row).name}"`;

/**
 * Subnet: create (POST subnets + task): a POST is repeated only when the service cannot have
 * acted (refused, 429, 503, 409 locked); otherwise the run fails and says what to check.
 * delete (DELETE subnets + task) and refresh (GET subnets): both safe to repeat; a delete
 * whose task fails or is overdue fails the run, and converges after.
 */
const SUBNET_POST = `POST ${SUBNET_PATH}`;
export const SUBNET: Target = {
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
        message: (row) => new RegExp(`${subnetNamed(row)}: task [0-9a-f-]+ \\(create_subnet\\) failed: Backend capacity exhausted`),
      },
      // The running task lists the subnet's id: the stack records it, the next up waits for it.
      "task never finishes (deadline)": {
        outcome: "fails",
        message: (row) =>
          new RegExp(
            `${subnetNamed(row)} was created \\(id [0-9a-f-]{36}, task\\(s\\) [0-9a-f-]{36}\\) but the create did not complete: .*timed out after 3s`,
          ),
      },
    },
    delete: {
      ...requestFaultsRecover(),
      "task ERROR": { outcome: "fails", message: /task [0-9a-f-]+ \(delete_subnet\) failed: Backend capacity exhausted/ },
      "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
    },
    refresh: readRecovers(),
  },
  requests: {
    create: { method: "POST", path: SUBNET_PATH },
    delete: { method: "DELETE", path: `${SUBNET_PATH}/*` },
    // A refresh reads the network's list (reads coalesce), or the subnet by id: the fault meets either.
    refresh: { method: "GET", path: `${SUBNET_PATH}/**` },
  },
  /**
   * create: each row adds its subnet to the program; delete: the first `up` makes one subnet
   * per row, and each row takes its own out of the program: that `up` runs the provider's
   * same delete (DELETE + task) as `destroy`, which a scene of one row (its stack's only
   * subnet) runs instead; refresh: one subnet, refreshed by every row.
   */
  async scene(stacks, op, face, config, rows) {
    let program = op === "delete" ? rows.map(subnetOf) : op === "refresh" ? [subnetOf(rows[0])] : [];
    const env = await stacks.program("subnet", { networkId: SEED.networkId, subnets: JSON.stringify(program), ...config }, { face });
    if (op !== "create") await env.stack.up();
    const destroys = op === "delete" && rows.length === 1;
    const inService = () => env.emulator.store.list("subnets");
    const ids = (list: Array<{ id?: unknown }>) => list.map((s) => String(s.id)).sort();
    const inState = async () => ids(((await env.stack.exportState()).deployment.resources ?? []).filter((r) => isKind(r.type, "Subnet")));
    const setProgram = async (list: typeof program) => {
      program = list;
      await env.stack.setConfig("subnets", JSON.stringify(list));
    };
    return {
      env,
      async next(row) {
        if (op === "create") await setProgram([...program, subnetOf(row)]);
        if (op === "delete") await setProgram(program.filter((s) => s.name !== subnetOf(row).name));
      },
      run: (allowFailure) => runOp(env, op === "delete" && !destroys ? "update" : op, allowFailure),
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

/** LbPoolSettings: update (PATCH lbpools + task) is safe to repeat; a failed or overdue task fails the run. */
export const POOL_SETTINGS: Target = {
  name: "LbPoolSettings",
  expected: {
    update: {
      ...requestFaultsRecover(),
      "task ERROR": { outcome: "fails", message: /task [0-9a-f-]+ \(update_lbpool\) failed: Backend capacity exhausted/ },
      "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
    },
  },
  requests: { update: { method: "PATCH", path: `/cloud/v1/lbpools/1/1/${SEED.poolId}` } },
  /** Each row sets a client timeout of its own: every row's `up` is a real PATCH. */
  async scene(stacks, op, face, config) {
    const env = await stacks.program("pool", { poolId: SEED.poolId, ...config }, { face });
    await env.stack.up();
    let timeout = 0;
    return {
      env,
      next: (row) => env.stack.setConfig("clientTimeout", String((timeout = (row + 1) * 1000))),
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

// LbPoolMember: one stack per operation, for every row whose fault needs no settings of its own.

const MEMBERS = `/cloud/v1/loadbalancers/1/1/pools/${SEED.poolId}/members`;
/** The subnet the members are in, seeded (a member's subnet is not what is under test). */
const MEMBER_SUBNET = "5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f";
/** A member as the service answers it (the fields the checks read). */
interface Member {
  id: string;
  address: string;
  protocol_port: number;
  weight: number;
}
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

/**
 * LbPoolMember: create (POST members + task) repeats its POST only when the service cannot
 * have acted (429, 503, 409 locked); any other lost or failed answer fails the run saying the
 * member may exist and how to find and adopt it (members carry no mark: a member at the
 * address and port may be another stack's, so none is taken). update (PATCH member + task),
 * delete (DELETE member + task) and refresh (GET) are safe to repeat; a failed or overdue
 * task fails the run.
 */
export const LB_POOL_MEMBER: Target = {
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
        message: new RegExp(`${MEMBER}: task [0-9a-f-]+ \\(create_lbmember\\) failed: Backend capacity exhausted`),
      },
      // The running task lists the member's id: the stack records it, the next up waits for it.
      "task never finishes (deadline)": {
        outcome: "fails",
        message: new RegExp(
          `${MEMBER} was created \\(id [0-9a-f-]{36}, task\\(s\\) [0-9a-f-]{36}\\) but the create did not complete: .*timed out after 3s`,
        ),
      },
    },
    update: {
      ...requestFaultsRecover(),
      "task ERROR": {
        outcome: "fails",
        message: new RegExp(`${MEMBER} \\([0-9a-f-]{36}\\): task [0-9a-f-]+ \\(update_lbmember\\) failed: Backend capacity exhausted`),
      },
      "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
    },
    delete: {
      ...requestFaultsRecover(),
      "task ERROR": {
        outcome: "fails",
        message: new RegExp(`${MEMBER} \\([0-9a-f-]{36}\\): task [0-9a-f-]+ \\(delete_lbmember\\) failed: Backend capacity exhausted`),
      },
      "task never finishes (deadline)": { outcome: "fails", message: /timed out after 3s waiting for task/, settlesLater: true },
    },
    refresh: readRecovers(),
  },
  requests: {
    create: { method: "POST", path: MEMBERS },
    update: { method: "PATCH", path: `${MEMBERS}/*` },
    delete: { method: "DELETE", path: `${MEMBERS}/*` },
    // A refresh reads the pool's members (reads coalesce), or the member by id: the fault meets either.
    refresh: { method: "GET", path: `${MEMBERS}/**` },
  },
  /**
   * create: each row adds a member to the program; update: each row sets the member's weight;
   * delete: each row takes one of the members made up front out of the program (the same
   * delete as `destroy`); refresh: each row changes the member's weight outside Pulumi first.
   */
  async scene(stacks, op, face, config, rows) {
    const octet = { create: 1, update: 2, delete: 3, refresh: 4 }[op];
    const address = (row: number) => `10.70.${octet}.${10 + row}`;
    const env = await stacks.program("member", { poolId: SEED.poolId, subnetId: MEMBER_SUBNET, ...config }, { face });
    const seeded = await api(env, "POST", "/__emulator/seed", {
      subnets: [subnetRecord({ id: MEMBER_SUBNET, name: "members", cidr: "10.70.0.0/16", gateway_ip: "10.70.0.1" })],
    });
    expect(seeded.status).toBe(204);
    let addresses: string[] = [];
    const program = async (list: string[]) => {
      addresses = list;
      await env.stack.setConfig("addresses", JSON.stringify(list));
    };
    let weight = 1;
    const importIds: Record<string, string> = {};

    /** The pool's members but the seeded one (another team's), as the service answers them. */
    const inService = async (): Promise<Member[]> => {
      const pool = (await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body;
      const kept = pool.members.filter((m: { id: string }) => m.id === SEED.keptMemberId);
      expect(kept).toEqual([expect.objectContaining({ address: "10.0.0.10", protocol_port: 8080, weight: 1 })]);
      return pool.members.filter((m: { id: string }) => m.id !== SEED.keptMemberId);
    };
    const inState = async () => ((await env.stack.exportState()).deployment.resources ?? []).filter((r) => isKind(r.type, "LbPoolMember"));
    const byId = <T extends { id?: unknown }>(list: T[]) => [...list].sort((a, b) => String(a.id).localeCompare(String(b.id)));

    if (op === "update" || op === "refresh") await program([address(0)]);
    if (op === "delete") await program(rows.map(address));
    // One at a time: each member's task locks the pool, so parallel creates would only wait for it.
    if (addresses.length > 0) await env.stack.up(["--parallel", "1"]);

    return {
      env,
      async next(row) {
        if (op === "create") await program([...addresses, address(row)]);
        if (op === "update") await env.stack.setConfig("weight", String((weight = row + 2)));
        if (op === "delete") await program(addresses.filter((a) => a !== address(row)));
        if (op === "refresh") {
          const [member] = await inState();
          const changed = await api(env, "PATCH", `${MEMBERS}/${String(member.id)}`, { weight: row + 10 });
          await taskEnds(env, changed.body.tasks[0]);
        }
      },
      // delete: an `up` without the member.
      run: (allowFailure) => runOp(env, op === "delete" ? "update" : op, allowFailure),
      async check(converged) {
        const service = byId(await inService());
        const state = byId(await inState());
        expect(state.map((r) => ({ id: r.id, address: r.outputs?.address, weight: r.outputs?.weight }))).toEqual(
          service.map((m) => ({ id: m.id, address: m.address, weight: m.weight })),
        );
        // One member per address and port: nothing was made twice.
        expect(new Set(service.map((m) => `${m.address}:${m.protocol_port}`)).size).toBe(service.length);
        if (!converged) return;
        expect(service.map((m) => m.address).sort()).toEqual([...addresses].sort());
        if (op === "update") expect(service.map((m) => m.weight)).toEqual([weight]);
      },
      async settle(row) {
        if (op !== "create") return; // the overdue task was let finish when the faults were cleared
        // The POST whose answer was lost is acted on a little later: the member appears, not
        // in the stack. As the message says: find it in the pool's list, adopt it by importId.
        let made: Member | undefined;
        for (let i = 0; i < 100 && !made; i++, await sleep(100))
          made = (await inService()).find((m) => m.address === address(row) && m.protocol_port === 8080);
        expect(made).toBeDefined();
        importIds[address(row)] = String(made?.id);
        await env.stack.setConfig("importIds", JSON.stringify(importIds));
      },
    };
  },
};

/** Waits for a task started outside Pulumi (drift made through the API) to finish. */
async function taskEnds(env: CimsTestEnv, taskId: string): Promise<void> {
  for (let state = ""; state !== "FINISHED"; await sleep(100)) {
    state = (await api(env, "GET", `/cloud/v1/tasks/${taskId}`)).body.state;
    if (state === "ERROR") throw new Error(`task ${taskId} failed`);
  }
}

/** The uses left in the installed faults: a row whose fault was never met proves nothing. */
const usesLeft = (env: CimsTestEnv): number =>
  [...env.emulator.faults.requestFaults, ...env.emulator.faults.taskFaults].reduce((n, f) => n + (f.count ?? Infinity), 0);

async function runRow(target: Target, scene: Scene, op: Op, fault: Fault, expected: Expectation, row: number): Promise<void> {
  const { env } = scene;
  const request = target.requests[op]!;
  try {
    await scene.next(row);
    await fault.install(env, request.method, request.path);
    if (fault.rateLimit) env.emulator.faults.setRateLimit(fault.rateLimit);
    const armed = usesLeft(env);
    const result = await scene.run(true);
    const output = result.stdout + result.stderr;
    expect(usesLeft(env)).toBeLessThan(armed);

    if (expected.outcome === "recovers") {
      expect({ code: result.code, output: result.code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
      await scene.check(true);
      return;
    }
    expect(result.code).not.toBe(0);
    if (expected.message) expect(output).toMatch(typeof expected.message === "function" ? expected.message(row) : expected.message);
    await api(env, "DELETE", "/__emulator/faults");
    if (expected.settlesLater) await scene.settle(row);
    else await scene.check(false);
    // Fault cleared: the same command converges.
    await scene.run(false);
    await scene.check(true);
  } finally {
    // A shared stack goes on to the next row as a user's would: with no fault (nor rate limit).
    await api(env, "DELETE", "/__emulator/faults");
  }
}

/**
 * One test per fault for an operation of a kind, with its expected outcome, on a face;
 * `only`: just the faults with that outcome (the plugin face's run of the request faults).
 */
export function matrix(target: Target, op: Op, face: Face = "dynamic", only?: Expectation["outcome"]): void {
  const expectations = target.expected[op];
  if (!expectations || !target.requests[op]) throw new Error(`fault matrix: ${target.name} has no ${op} row`);
  describe(`fault matrix: ${target.name} ${op}${face === "dynamic" ? "" : ` (${face} face)`}`, () => {
    const stacks = useStacks("all");
    const faults = FAULTS.filter((fault) => {
      const expected = expectations[fault.name];
      // Every fault needs a stated outcome: a fault added later must not pass by being skipped.
      if (!expected) throw new Error(`fault matrix ${target.name} ${op}: no expected outcome for "${fault.name}"`);
      return expected.outcome !== "n/a" && (!only || expected.outcome === only);
    });
    const alone = (fault: Fault) => fault.config !== undefined;
    const sharedRows = faults.flatMap((fault, row) => (alone(fault) ? [] : [row]));
    let shared: Promise<Scene> | undefined;
    const sceneFor = (fault: Fault, row: number) =>
      alone(fault)
        ? target.scene(stacks, op, face, fault.config ?? {}, [row])
        : (shared ??= target.scene(stacks, op, face, {}, sharedRows));
    faults.forEach((fault, row) => {
      const expected = expectations[fault.name];
      test(
        `${op} + ${fault.name}: ${expected.outcome}`,
        async () => {
          await runRow(target, await sceneFor(fault, row), op, fault, expected, row);
        },
        10 * 60_000,
      );
    });
  });
}

// The fault matrix (tests/support/faults.ts, each kind's rows from its contract and its test kit) in process: each row starts an emulator, readies
// the operation's resource through the kind's provider, installs the row's fault through the
// emulator's fault API, and calls the provider as the engine would for the operation, keeping
// what the engine would record (State). A row that recovers succeeds, its records as the
// service holds them, nothing duplicated; a row that fails says what its expectation says,
// leaves the recorded state matching the service's records (a partly created resource
// recorded by the id its failure carries), and converges with the next call once the fault
// is cleared. What only the engine shows (that state written to a stack) is tests/e2e/faults/.
import { randomBytes } from "node:crypto";
import { startEmulator } from "pulumi-cims/emulator";
import { processClock } from "../../../../provider/client/clock";
import { closeAllPools } from "../../../../provider/client/transport";
import type { Kind } from "../../../../provider/kinds/registry";
import { forgetRun } from "../../../../provider/methods/run-memory";
import { api, SEED, SEED_FILE } from "../../../support/cims";
import {
  arm,
  clearFaults,
  type Emulated,
  type Expectation,
  MEMBER_SUBNET,
  memberAddress,
  matrixOf,
  messageOf,
  type Op,
  POOL_SETTINGS_INPUTS,
  poolMembers,
  type Row,
  rowsOf,
  sleep,
  subnetOf,
  taskEnds,
  usesLeft,
} from "../../../support/faults";
import { subnetRecord } from "../../../support/records";
import { onVirtualTime } from "../../../support/virtual-clock";
import { type FaceName, failureOf, type Props, type Provider, providerOn } from "./faces";

/** A resource as the engine records it: a partly created one is updated by the next run. */
interface Recorded {
  id: string;
  outs: Props;
  inputs: Props;
  partial?: boolean;
}

/**
 * Each command runs a provider process of its own: what one remembers of its deployment (the
 * program's holdings, the lists its reads coalesced into, the records it adopted) is not the
 * next one's.
 */
function newCommand(): void {
  forgetRun();
}

/** What the engine records of each resource (by name), and how it calls the provider for each command. */
export class State {
  readonly resources = new Map<string, Recorded>();
  constructor(private readonly provider: Provider) {}

  /** `up` of one resource: check, then create, or diff and update (always, for one partly created). */
  async up(name: string, program: Props): Promise<void> {
    newCommand();
    const recorded = this.resources.get(name);
    const inputs = await this.provider.check(recorded?.inputs ?? {}, program);
    if (!recorded) {
      const created = await this.provider.create(inputs).catch((err: unknown) => {
        const failure = failureOf(err);
        if (failure.id) this.resources.set(name, { id: failure.id, outs: failure.properties ?? {}, inputs, partial: true });
        throw err;
      });
      this.resources.set(name, { id: created.id, outs: created.outs, inputs });
      return;
    }
    if (!recorded.partial && !(await this.provider.diff(recorded.id, recorded.outs, inputs))) return;
    const outs = await this.provider.update(recorded.id, recorded.outs, inputs);
    this.resources.set(name, { id: recorded.id, outs, inputs });
  }

  /** `destroy` (or an `up` without it): the delete; a failed one keeps the resource. */
  async destroy(name: string): Promise<void> {
    newCommand();
    const recorded = this.resources.get(name)!;
    await this.provider.delete(recorded.id, recorded.outs);
    this.resources.delete(name);
  }

  /** `refresh`: what the read found replaces what was recorded; a record gone is dropped. */
  async refresh(name: string): Promise<void> {
    newCommand();
    const recorded = this.resources.get(name)!;
    const read = await this.provider.read(recorded.id, recorded.outs);
    if (!read.id) this.resources.delete(name);
    else this.resources.set(name, { id: read.id, outs: read.props, inputs: read.inputs ?? recorded.inputs });
  }

  /**
   * What a preview asks of the resource (`--expect-no-changes`): whether `up` of the program
   * would change it, after its check (whose failure throws, as the preview fails); one not
   * recorded would be created.
   */
  async changes(name: string, program: Props): Promise<boolean> {
    newCommand();
    const recorded = this.resources.get(name);
    const news = await this.provider.check(recorded?.inputs ?? {}, program);
    return !recorded || recorded.partial === true || this.provider.diff(recorded.id, recorded.outs, news);
  }

  /** What `preview --diff` shows of the resource under the program: the properties it marks changed. */
  async shown(name: string, program: Props): Promise<string[]> {
    newCommand();
    const recorded = this.resources.get(name)!;
    const news = await this.provider.check(recorded.inputs, program);
    return this.provider.shown(recorded.id, recorded.outs, news, recorded.inputs);
  }

  ids(): string[] {
    return [...this.resources.values()].map((r) => r.id).sort();
  }
}

/** An operation of a kind, readied for one row. */
interface Scene {
  /** Readies the row's change (a subnet to add, a weight to set...), before its fault is installed. */
  next(): Promise<void>;
  /** The operation under test, as the engine calls the provider for it. */
  run(): Promise<void>;
  /** State and service agree: nothing recorded that is not there, nothing there unrecorded, nothing twice. `converged`: as the program says. */
  check(converged: boolean): Promise<void>;
  /** After a failure the service acts on later: what the message tells the user to do. */
  settle(): Promise<void>;
}

interface Target {
  kind: Kind;
  /** `program`: the row's settings of the program (a create timeout). */
  scene(env: Emulated, state: State, op: Op, row: number, program: Record<string, string>): Promise<Scene>;
}

/** Every task the service runs has ended (a task let finish when the faults were cleared). */
async function tasksEnd(env: Emulated): Promise<void> {
  const running = () => Object.values(env.emulator.store.tasks).filter((t) => t.state === "NEW" || t.state === "RUNNING");
  for (let i = 0; i < 150 && running().length > 0; i++, await sleep(100)) {
    for (const task of running()) await api(env, "GET", `/cloud/v1/tasks/${task.id}`);
  }
  expect(running()).toEqual([]);
}

const byId = (list: Array<{ id?: unknown }>) => list.map((r) => String(r.id)).sort();

/** Subnet: one per row (create, delete and refresh each of the row's own subnet). */
const SUBNET_TARGET: Target = {
  kind: "Subnet",
  async scene(env, state, op, row, program) {
    const mine = subnetOf(row);
    const inputs = {
      ...mine,
      networkId: SEED.networkId,
      tags: { owner: "e2e" },
      timeouts: { create: Number(program.createTimeout ?? 600) },
    };
    let wanted = op === "create" ? [] : [mine];
    if (op !== "create") await state.up(mine.name, inputs);
    const inService = () => env.emulator.store.list("subnets");
    return {
      async next() {
        wanted = op === "delete" ? [] : [mine];
      },
      run: () => (op === "delete" ? state.destroy(mine.name) : op === "refresh" ? state.refresh(mine.name) : state.up(mine.name, inputs)),
      async check(converged) {
        expect(state.ids()).toEqual(byId(inService()));
        if (converged) {
          expect(inService().map((s) => `${String(s.name)} ${String(s.cidr)}`)).toEqual(wanted.map((s) => `${s.name} ${s.cidr}`));
        }
      },
      settle: () => tasksEnd(env),
    };
  },
};

/** LbPoolSettings of the seeded pool: each row sets a client timeout of its own, so its update is a real PATCH. */
const POOL_SETTINGS_TARGET: Target = {
  kind: "LbPoolSettings",
  async scene(env, state, op, row) {
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
  },
};

/**
 * LbPoolMember of the seeded pool (beside another team's member, which nothing may touch):
 * create adds the row's member; update sets its weight; delete removes it; refresh reads it
 * after its weight was changed outside the provider.
 */
const MEMBER_TARGET: Target = {
  kind: "LbPoolMember",
  async scene(env, state, op, row) {
    const seeded = await api(env, "POST", "/__emulator/seed", {
      subnets: [subnetRecord({ id: MEMBER_SUBNET, name: "members", cidr: "10.70.0.0/16", gateway_ip: "10.70.0.1" })],
    });
    expect(seeded.status).toBe(204);
    const address = memberAddress(op, row);
    let weight = 1;
    let importId: string | undefined;
    const member = () => ({
      poolId: SEED.poolId,
      address,
      protocolPort: 8080,
      subnetId: MEMBER_SUBNET,
      weight,
      ...(importId ? { importId } : {}),
    });
    let wanted = op === "create" ? [] : [address];
    if (op !== "create") await state.up(address, member());
    return {
      async next() {
        if (op === "create") wanted = [address];
        if (op === "update") weight = row + 2;
        if (op === "delete") wanted = [];
        if (op === "refresh") {
          const changed = await api(env, "PATCH", `/cloud/v1/loadbalancers/1/1/pools/${SEED.poolId}/members/${state.ids()[0]}`, {
            weight: row + 10,
          });
          await taskEnds(env, changed.body.tasks[0]);
        }
      },
      run: () => (op === "delete" ? state.destroy(address) : op === "refresh" ? state.refresh(address) : state.up(address, member())),
      async check(converged) {
        const service = (await poolMembers(env)).sort((a, b) => a.id.localeCompare(b.id));
        const recorded = [...state.resources.values()].sort((a, b) => a.id.localeCompare(b.id));
        expect(recorded.map((r) => ({ id: r.id, address: r.outs.address, weight: r.outs.weight }))).toEqual(
          service.map((m) => ({ id: m.id, address: m.address, weight: m.weight })),
        );
        // One member per address and port: nothing was made twice.
        expect(new Set(service.map((m) => `${m.address}:${m.protocol_port}`)).size).toBe(service.length);
        if (!converged) return;
        expect(service.map((m) => m.address)).toEqual(wanted);
        if (op === "update") expect(service.map((m) => m.weight)).toEqual([weight]);
      },
      async settle() {
        await tasksEnd(env);
        if (op !== "create") return;
        // The POST whose answer was lost is acted on a little later: the member appears, not
        // in the state. As the message says: find it in the pool's list, adopt it by importId.
        let made: { id: string } | undefined;
        for (let i = 0; i < 100 && !made; i++, await sleep(100))
          made = (await poolMembers(env)).find((m) => m.address === address && m.protocol_port === 8080);
        expect(made).toBeDefined();
        importId = made?.id;
      },
    };
  },
};

export const TARGETS = { Subnet: SUBNET_TARGET, LbPoolSettings: POOL_SETTINGS_TARGET, LbPoolMember: MEMBER_TARGET };

/** The row's settings: the provider's (`cims:`) and the program's. */
function settingsOf(config: Record<string, string> = {}) {
  const entries = Object.entries(config);
  return {
    provider: Object.fromEntries(entries.filter(([k]) => k.startsWith("cims:"))),
    program: Object.fromEntries(entries.filter(([k]) => !k.startsWith("cims:"))),
  };
}

/** The stack config that points a provider at `env`'s emulator, with `settings` (more `cims:` config) over it. */
export const configFor = (env: Emulated, settings: Record<string, string> = {}): Record<string, string> => ({
  "cims:apiUrl": env.emulator.url,
  "cims:apiKey": env.apiKey,
  "cims:projectId": "1",
  "cims:regionId": "1",
  ...settings,
});

/** Another stack's State on the same emulator: `kind`'s provider on `face`, configured for `env`. */
export const stateOn = async (face: FaceName, kind: Kind, env: Emulated, settings?: Record<string, string>): Promise<State> =>
  new State(await providerOn(face, kind, configFor(env, settings)));

/**
 * `run` against a fresh emulator (its seed, 300 ms tasks) with a State of `kind`'s provider on
 * `face`, configured for it (and `settings`, more `cims:` config). Provider and emulator share
 * a virtual clock: tasks, task waits, retry pauses, pacing and deadlines take the time they
 * would, none of it real.
 */
export async function withEmulatedState(
  kind: Kind,
  face: FaceName,
  run: (env: Emulated, state: State) => Promise<void>,
  settings: Record<string, string> = {},
): Promise<void> {
  await onVirtualTime(async (clock) => {
    const apiKey = `unit-faults-${randomBytes(8).toString("hex")}`;
    const emulator = await startEmulator({ apiKey, seed: SEED_FILE, taskDurationMs: 300, clock: clock.forEmulator });
    try {
      const env = { emulator, apiKey };
      await run(env, await stateOn(face, kind, env, settings));
    } finally {
      await closeAllPools();
      await emulator.close();
    }
  });
}

async function runRow(target: Target, op: Op, face: FaceName, row: Row): Promise<void> {
  const { provider: settings, program } = settingsOf(row.fault.config);
  await withEmulatedState(target.kind, face, (env, state) => playRow(env, state, target, op, program, row), settings);
}

/** A row's scene: readied, its fault armed, the operation run, its outcome checked, and converged once the fault is cleared. */
async function playRow(
  env: Emulated,
  state: State,
  target: Target,
  op: Op,
  program: Record<string, string>,
  { fault, expected, row }: Row,
): Promise<void> {
  const scene = await target.scene(env, state, op, row, program);
  await scene.next();
  const armed = await arm(env, matrixOf(target.kind), op, fault);
  const began = processClock.now();
  const failure = await scene.run().then(() => undefined, failureOf);
  expect(usesLeft(env)).toBeLessThan(armed);
  // A row that sets the task deadline waits it out, on the rows' clock, and not much longer.
  const deadline = Number(fault.config?.["cims:taskTimeoutSeconds"] ?? NaN) * 1000;
  if (deadline) {
    expect(processClock.now() - began).toBeGreaterThanOrEqual(deadline);
    expect(processClock.now() - began).toBeLessThan(deadline + 2_000);
  }

  if (expected.outcome === "recovers") {
    expect(failure).toBeUndefined();
    await scene.check(true);
    return;
  }
  expect(failure).toBeDefined();
  const message = messageOf(expected, row);
  if (message) expect(failure?.message).toMatch(message);
  // A partly created resource: the message names the id the engine records.
  if (failure?.id) expect(failure.message).toContain(failure.id);
  await clearFaults(env);
  if (expected.settlesLater) await scene.settle();
  else await scene.check(false);
  // Fault cleared: the same operation converges.
  await scene.run();
  await scene.check(true);
}

/**
 * One test per fault for an operation of a kind on a face, with its expected outcome;
 * `only`: just the faults with that outcome (the plugin face's run of the request faults).
 */
export function matrix(kind: keyof typeof TARGETS, op: Op, face: FaceName = "dynamic", only?: Expectation["outcome"]): void {
  const target = TARGETS[kind];
  describe(`fault matrix in process: ${kind} ${op}${face === "dynamic" ? "" : ` (${face} face)`}`, () => {
    for (const row of rowsOf(matrixOf(target.kind), op, only)) {
      test(`${op} + ${row.fault.name}: ${row.expected.outcome}`, () => runRow(target, op, face, row), 90_000);
    }
  });
}

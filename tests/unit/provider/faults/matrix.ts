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
import { KIND_NAMES, type Kind } from "../../../../provider/kinds/registry";
import { forgetRun } from "../../../../provider/methods/run-memory";
import { SEED_FILE } from "../../../support/cims";
import { KITS } from "../../../kits";
import {
  arm,
  clearFaults,
  type Emulated,
  type Expectation,
  matrixOf,
  messageOf,
  type Op,
  type Row,
  rowsOf,
  usesLeft,
} from "../../../support/faults";
import type { SceneState } from "../../../support/scenes";
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
export class State implements SceneState {
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

async function runRow(kind: Kind, op: Op, face: FaceName, row: Row): Promise<void> {
  const { provider: settings, program } = settingsOf(row.fault.config);
  await withEmulatedState(kind, face, (env, state) => playRow(env, state, kind, op, program, row), settings);
}

/** A row's scene: readied, its fault armed, the operation run, its outcome checked, and converged once the fault is cleared. */
async function playRow(
  env: Emulated,
  state: State,
  kind: Kind,
  op: Op,
  program: Record<string, string>,
  { fault, expected, row }: Row,
): Promise<void> {
  const scene = await KITS[kind].faults!.scene({ env, state, op, row, program });
  await scene.next();
  const armed = await arm(env, matrixOf(kind), op, fault);
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
 * One test per fault for an operation of a kind on a face, with its expected outcome, in the
 * scene its test kit readies (`faults.scene`); `only`: just the faults with that outcome (the
 * plugin face's run of the request faults).
 */
export function matrix(kind: Kind, op: Op, face: FaceName = "dynamic", only?: Expectation["outcome"]): void {
  describe(`fault matrix in process: ${kind} ${op}${face === "dynamic" ? "" : ` (${face} face)`}`, () => {
    for (const row of rowsOf(matrixOf(kind), op, only)) {
      test(`${op} + ${row.fault.name}: ${row.expected.outcome}`, () => runRow(kind, op, face, row), 90_000);
    }
  });
}

/** The kinds whose test kits put them under the fault matrix (`faults`), in the registry's order. */
export const FAULT_KINDS = KIND_NAMES.filter((k) => KITS[k].faults !== undefined);

/** Every row of an operation, of every kind under the matrix whose operations include it: a kind's kit brings its rows. */
export function matrixOfEveryKit(op: Op): void {
  const kinds = FAULT_KINDS.filter((k) => matrixOf(k).expected[op] !== undefined);
  test(`some kit runs ${op} under the fault matrix`, () => expect(kinds.length).toBeGreaterThan(0));
  for (const kind of kinds) matrix(kind, op);
}

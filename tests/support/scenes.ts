// What a fault row's scene is (tests/support/faults.ts runs the rows; each kind's test kit,
// tests/kits/, readies its own resource for them: `faults.scene`) and what the kits' scenes
// share. Nothing here reads the kits, so a kit can import it while the matrix imports the kits.
import { processClock } from "../../provider/client/clock";
import { api, type CimsTestEnv, type Face, SEED, type Stacks } from "./cims";
import type { Emulated, Op } from "./faults";
import type { RunResult } from "./harness";

/** The properties of a resource as the engine hands them to a provider. */
export type Props = Record<string, unknown>;

/**
 * What the engine records of each resource of a row, and the commands a scene runs through it
 * (tests/unit/provider/faults/matrix.ts's State, which calls the kind's provider as the engine would).
 */
export interface SceneState {
  readonly resources: ReadonlyMap<string, { readonly id: string; readonly outs: Props }>;
  /** `up` of the resource `name` as the program declares it. */
  up(name: string, program: Props): Promise<void>;
  destroy(name: string): Promise<void>;
  refresh(name: string): Promise<void>;
  /** The recorded ids, sorted. */
  ids(): string[];
}

/** A row of an operation of a kind, readied: what it changes, runs and checks. */
/** What a row's scene does on either tier: ready the change, check what holds after it, settle what the service acts on later. */
interface SceneSteps {
  /** Readies the row's change (a subnet to add, a weight to set, a timeout to set...), before its fault is installed. */
  next(): Promise<void>;
  /** State and service agree: nothing recorded that is not there, nothing there unrecorded, nothing twice. `converged`: the service also holds what the program says. */
  check(converged: boolean): Promise<void>;
  /** After a failure the service acts on later: does what the message tells the user to do with what it made. */
  settle(): Promise<void>;
}

/** In process: the operation runs as the engine calls the provider for it. */
export interface FaultScene extends SceneSteps {
  run(): Promise<void>;
}

/** What a kit's scene is given: the row's emulator, the engine's record, the operation, the row and its program settings (a create timeout). */
export interface SceneContext {
  readonly env: Emulated;
  readonly state: SceneState;
  readonly op: Op;
  readonly row: number;
  readonly program: Readonly<Record<string, string>>;
}

/**
 * Readies the row's resource (the records it needs first: a subnet its member is in, the
 * resource itself for all but a create) and says how the row runs and what must hold after it.
 */
export type SceneOf = (ctx: SceneContext) => Promise<FaultScene>;

/** A row of an operation of a kind through the engine (tests/e2e/faults/engine-rows.ts), on a stack of its own. */
/** Under the engine: the command under test runs on the row's stack. */
export interface EngineScene extends SceneSteps {
  readonly env: CimsTestEnv;
  run(allowFailure: boolean): Promise<RunResult>;
}

/** What a kit's engine scene is given: the test's stacks, the operation, the face, the row's stack config and the row. */
export interface EngineSceneContext {
  readonly stacks: Stacks;
  readonly op: Op;
  readonly face: Face;
  /** The row's config: a delete runs with the settings its resource was created with. */
  readonly config: Readonly<Record<string, string>>;
  readonly row: number;
  /**
   * The stack an earlier row walked and left converged (its service holding what its program
   * declares), for a row that does not need a fresh one: the scene readies its change there,
   * with no stack and no first `up` of its own. A kit whose scene cannot leaves it unset.
   */
  readonly on?: CimsTestEnv;
}

/** Makes the row's stack, deploys what the operation needs first, and says how the row runs and what must hold after it. */
export type EngineSceneOf = (ctx: EngineSceneContext) => Promise<EngineScene>;

/** The stack's command for an operation: destroy, refresh, or up (a create or an update). */
export const stackCommand = (env: CimsTestEnv, op: Op, allowFailure: boolean): Promise<RunResult> =>
  op === "delete"
    ? env.stack.destroy([], { allowFailure })
    : op === "refresh"
      ? env.stack.refresh([], { allowFailure })
      : env.stack.up([], { allowFailure });

/** On the process's clock: a test on virtual time (virtual-clock.ts) waits none of it. */
export const sleep = (ms: number): Promise<void> => processClock.sleep(ms);

/** Ids of records, as strings, sorted: what a State's `ids()` is compared with. */
export const byId = (list: Array<{ id?: unknown }>): string[] => list.map((r) => String(r.id)).sort();

/** Every task the service runs has ended (a task let finish when the faults were cleared). */
export async function tasksEnd(env: Emulated): Promise<void> {
  const running = () => Object.values(env.emulator.store.tasks).filter((t) => t.state === "NEW" || t.state === "RUNNING");
  for (let i = 0; i < 150 && running().length > 0; i++, await sleep(100)) {
    for (const task of running()) await api(env, "GET", `/cloud/v1/tasks/${task.id}`);
  }
  expect(running()).toEqual([]);
}

/** Waits for a task started outside the provider (drift made through the API) to finish. */
export async function taskEnds(env: Emulated, taskId: string): Promise<void> {
  for (let state = ""; state !== "FINISHED"; await sleep(100)) {
    state = (await api(env, "GET", `/cloud/v1/tasks/${taskId}`)).body.state;
    if (state === "ERROR") throw new Error(`task ${taskId} failed`);
  }
}

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

/** The subnet the members are in, seeded (a member's subnet is not what is under test). */
export const MEMBER_SUBNET = "5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f";
/** Row `row`'s member address for an operation (each its own /24). */
export const memberAddress = (op: Op, row: number): string => `10.70.${{ create: 1, update: 2, delete: 3, refresh: 4 }[op]}.${10 + row}`;

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

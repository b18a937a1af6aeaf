// What a kind's tests need to know of it beyond its contract, in one place: the rows the
// suites that run over every kind read (./index.ts keeps one per kind, typed by the registry,
// so a kind added to provider/kinds/index.ts fails the typecheck until its kit exists).
// Everything else a suite checks of a kind follows from its contract and its descriptor.
import type { ApiRecord } from "../../api/guards";
import type { Kind } from "../../provider/kinds/registry";
import type { CimsTestEnv } from "../support/cims";
import type { KindFaults } from "../support/faults";
import type { StackExport } from "../support/harness";

/** What a kit reads the service's records from: the test's emulator. */
export type Seen = Pick<CimsTestEnv, "emulator">;

export type StateResource = NonNullable<StackExport["deployment"]["resources"]>[number];

/** Creates a record of a kind through its contract's create (on the emulator of the test); its id. */
export type Make = (kind: Kind, body: ApiRecord) => Promise<string>;

export interface KindKit {
  /**
   * The wire body of a create, for a kind that creates its records: what it refers to is the
   * seed's (examples/emulator-seed.json), or made first with `make`.
   */
  readonly create?: (make: Make) => Promise<ApiRecord>;
  /**
   * Wire values of the fields whose rules tie them to the record (a gateway inside the CIDR) or
   * whose shape is nested; every other updatable field gets one from its type.
   */
  readonly values?: Readonly<Record<string, unknown>>;
  /** What every update carries besides the field it sets (a PUT is a whole setting). */
  readonly base?: Readonly<Record<string, unknown>>;
  /**
   * The kind under the fault matrix (tests/support/faults.ts, matrixOf): what a lost create
   * means, how its messages name it, and the scenes that ready its rows (in process, and
   * through the engine where tests/e2e/faults/ runs one); its requests and task rows follow
   * from its contract.
   */
  readonly faults?: KindFaults;
  /**
   * The lifecycle model's program declares it (tests/model/), and its calls get the model's
   * faults: its rows here (a LifecycleModel: the program, its edits and the invariants derive
   * from them), or `true` where tests/model/ writes them (the kinds whose records other teams
   * share, make beside or take over: Subnet, BaremetalImage, LbPoolSettings).
   */
  readonly lifecycle?: true | LifecycleModel;
  /** The kind's docs example, deployed: the record a resource of the state is, and what destroy leaves of it. */
  readonly example: {
    readonly record: (env: Seen, r: StateResource) => ApiRecord | undefined;
    readonly afterDestroy: (record: ApiRecord | undefined, declared: ApiRecord) => void;
  };
}

/** A resource's values in the lifecycle model's program: its fields' values, as the model edits them. */
export type ModelValues = Readonly<Record<string, unknown>>;

/** A comparison an invariant makes: what it compares, what the service or state holds, what it must. */
export type Holds = ReadonlyArray<readonly [what: string, actual: unknown, expected: unknown]>;

/**
 * How the lifecycle model's program declares resources of a kind (tests/model/kits.ts): which,
 * with what arguments, which fields its edits change to which values, and what the service must
 * hold after each command. A kind with one gets its declaration, edits, additions, removals and
 * invariants with no line in tests/model/. Comparisons are returned, not asserted: the soak runs
 * the model outside jest.
 */
export interface LifecycleModel {
  /** The Pulumi name of each resource (slot) the program may declare of the kind. */
  readonly names: readonly string[];
  /** The values of the resources the first program declares, by slot (none: it declares none). */
  readonly start?: ReadonlyArray<ModelValues | undefined>;
  /** The values of a resource the program adds in a slot. */
  readonly added: (slot: number) => ModelValues;
  /** Its arguments in the program, from its values (the program names the kind: `new cims.<Kind>(name, args)`). */
  readonly args: (values: ModelValues, slot: number) => Readonly<Record<string, unknown>>;
  /** The fields its edits change, and the values each may take (`undefined`: omitted). */
  readonly fields: Readonly<Record<string, readonly unknown[]>>;
  /** After a successful `up`: its record (its kit's `example.record`) as the program says. */
  readonly holds: (record: ApiRecord | undefined, values: ModelValues, slot: number) => Holds;
  /** What the service holds of a slot the program does not declare, after an `up` and a `destroy` (a setting back at its default). */
  readonly absent?: (env: Seen, slot: number) => Holds;
  /** After a successful refresh: the state's outputs as the service's record. */
  readonly refreshed?: (outputs: Readonly<Record<string, unknown>>, record: ApiRecord | undefined) => Holds;
}

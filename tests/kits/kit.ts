// What a kind's tests need to know of it beyond its contract, in one place: the rows the
// suites that run over every kind read (./index.ts keeps one per kind, typed by the registry,
// so a kind added to provider/kinds/index.ts fails the typecheck until its kit exists).
// Everything else a suite checks of a kind follows from its contract and its descriptor.
import type { ApiRecord } from "../../api/guards";
import type { Kind } from "../../provider/kinds/registry";
import type { CimsTestEnv } from "../support/cims";
import type { KindFaults } from "../support/faults";
import type { StackExport } from "../support/harness";

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
   * means and how its messages name it; its requests and task rows follow from its contract.
   */
  readonly faults?: KindFaults;
  /** The lifecycle model's program declares it (tests/model/): its calls get the model's faults. */
  readonly lifecycle?: true;
  /** The kind's docs example, deployed: the record a resource of the state is, and what destroy leaves of it. */
  readonly example: {
    readonly record: (env: CimsTestEnv, r: StateResource) => ApiRecord | undefined;
    readonly afterDestroy: (record: ApiRecord | undefined, declared: ApiRecord) => void;
  };
}

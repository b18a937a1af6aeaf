// One descriptor per resource: everything the provider knows of a kind, in one place. Its
// field table (table.ts), methods, adoption, recovery and its cims-import row are built from
// it. The contract says what each field is and what the API's calls are; describe.ts adds
// what follows from it (the inputs every kind of its sort takes, where its record lives, its
// create's task); a kind's file says only the provider's behaviour: how messages name a
// resource, what a record adds to the outputs, how a create recognises the one it made.
import type { Spelling } from "../../api/canonical";
import type { Contract } from "../../api/contract";
import type { Survey } from "./evidence";
import type { Holding } from "./holdings";
import type { DERIVED, OwnField } from "./inputs";
import type { Inputs } from "./schema";
import type { ApiRecord } from "../../api/guards";
import type { CimsClient } from "../client/http";

/** Per-operation deadlines in seconds. */
export type Timeouts = Partial<Record<"create" | "update" | "delete", number>>;

/** The inputs check() returns for a resource with a scope: projectId and regionId filled in. */
export type Scoped<I = Inputs> = I & { projectId: number; regionId: number; timeouts?: Timeouts };

/** How cims-import writes a resource of this kind: its name prefix, order and arguments. */
/** A record as an import takes it, and what it left out and why (one sentence each). */
export interface Prepared {
  record: ApiRecord;
  notes: string[];
}

export interface ImportRow {
  prefix: string;
  /** What cims-import's messages call one and several. */
  nouns: readonly [string, string];
  /** The record's id, for order and names. */
  id: (record: ApiRecord) => string | number;
  /** What its resource name is made from. */
  name: (record: ApiRecord) => unknown;
  /**
   * Its arguments: `fields` are the contract's fields as the record holds them (in the
   * table's order; only those of `only` when given), `scope` the record's project and region.
   */
  args: (record: ApiRecord, fields: Inputs, scope: { projectId: number; regionId: number }) => Inputs;
  only?: readonly string[];
  /**
   * The record as an import may take it, read before `args` (a pool without the members others'
   * member creates made), and what it left out, in sentences; every import path runs it.
   */
  prepare?: (client: CimsClient, record: ApiRecord, scope: { projectId: number; regionId: number }) => Promise<Prepared>;
  /**
   * How cims-import finds records of this kind: a kind that owns its records lists them in
   * the scope (`filter`: a flag that narrows the list, and the list call's query parameter);
   * any other kind reads the records the user names, by `named`'s flag.
   */
  filter?: { flag: string; query: string; value: "<uuid>"; /** The help's words ("\n" breaks a line). */ help: string };
  named?: {
    flag: string;
    value: "<uuid>" | "<id>";
    repeatable: boolean;
    /** What the help's summary calls the records the flag names ("load balancer pools"). */
    what: string;
    /** The help's words for the flag ("\n" breaks a line). */
    help: string;
    /** What cims-import says of a named record that is not there. */
    missing: (id: string | number, where: string) => string;
  };
}

export interface Descriptor {
  contract: Contract;
  /**
   * The provider's own inputs (not sent to the API), fields like the contract's: their type is
   * their rule, `set: "create"` replaces, `neverDiff` never a diff (./inputs.ts).
   */
  own: Readonly<Record<string, OwnField>>;
  /** projectId/regionId: inputs defaulting to `cims:projectId`/`cims:regionId`. */
  scoped: boolean;
  /** Outputs hold only the fields the program gave (a pool's other settings are not the stack's). */
  outputsOnlyGiven?: boolean;
  /**
   * What the contract cannot say of the outputs, from the record: the provider's own inputs
   * read back (the scope, the identity) and `derived` outputs. The record's fields marked
   * `output` are filled from the contract (table.ts), never here.
   */
  record?: (record: ApiRecord) => Inputs;
  /** Outputs `record` derives (./inputs.ts DERIVED): declared by name, so the shape lists them. */
  derived?: ReadonlyArray<keyof typeof DERIVED>;
  /** How in-place updates spell enum values (`record`: a reference call beyond the spec). */
  patchSpelling?: Spelling;
  /** How messages name a resource from its inputs (`Subnet "app"`, with the id when known). */
  label: (inputs: Inputs, id?: string) => string;
  /** The field that identifies its record in the service's answers (`id` unless said). */
  recordKey?: string;
  /**
   * The path of the record a resource of this id is, in this scope (ignored by kinds with none);
   * `named`: the inputs of `importIdParts` (a member's pool).
   */
  recordPath: (inputs: Inputs | { projectId: number; regionId: number }, id: string, named?: Inputs) => string;
  /**
   * Inputs an import id names before the record's own id, as `<poolId>/<id>`: a record whose
   * path needs more than its scope (a pool member) is found by them.
   */
  importIdParts?: readonly string[];
  /**
   * How an import or an adoption reads the record where no GET answers it alone (a policy's
   * volume: an entry of its policy's list): from the inputs that name where it lives and its id;
   * a record that is not there throws NotFoundError. By default a GET of `recordPath`.
   */
  readRecord?: (inputs: Inputs, id: string) => Promise<ApiRecord>;
  import: ImportRow;
  /**
   * What `pulumi import` records beside the outputs, from the inputs it writes and the record
   * (a pool's settings: the members the program declares, by their ids).
   */
  importState?: (inputs: Inputs, record: ApiRecord) => Inputs;
}

/** Whether a descriptor is of a resource that owns its record. */
export function isOwned(d: Descriptor): d is OwnedDescriptor {
  return "paths" in d;
}

/** A resource whose record it creates and deletes (a subnet, an image). */
export interface OwnedDescriptor extends Descriptor {
  /** How messages call the record: `subnet`. */
  noun: string;
  /** The kind its create task lists in `created_resources`, and that task's type. */
  created: string;
  createTask: string;
  /** Path templates: `create` (POST; also the scope's list), `one` (GET/PATCH/DELETE, with `{<idParam>}`). */
  paths: { create: string; list: string; one: string; idParam: string };
  /** Where a record its create made is listed (evidence.ts). */
  survey: (inputs: Scoped) => Survey;
  /** Where to find what a create may have made, for the message that says so. */
  findHint: (inputs: Scoped) => string;
  /** What is this kind's own (a subnet's CIDR on its network). */
  hooks?: OwnedHooks;
  /** Inputs that fill the paths' further parameters (`poolId`: `{pool_id}`), beside the scope. */
  pathInputs?: readonly string[];
  /**
   * `task`: the records carry no tags, so the create's own task is the only evidence of what
   * it made: no mark is sent, and a create whose answer was lost is never looked for (a
   * record like it may be anyone's); it fails saying how to find and adopt it.
   */
  evidence?: "mark" | "task";
  /**
   * What the next `pulumi up` does while a record a create whose answer was lost may have
   * made is not in the stack: by default, creates another.
   */
  meanwhile?: string;
  /** The PATCH answers tasks (a pool member's), waited for before the record is read back. */
  updateByTask?: true;
}

export interface OwnedHooks {
  /** What a resource of this kind holds alone in the service (a subnet's CIDR on its network). */
  exclusive?: Exclusive;
}

/**
 * Something the service lets one record hold at a time in a place: a subnet's CIDR on its
 * network (no overlap), a pool member's address and port in its pool. A create that would
 * hold what a record or another resource of the program holds fails at preview and before
 * its POST, naming it; a replacement that would hold what its old record holds has its diff ask
 * to delete that first (any other replacement creates first).
 */
export interface Exclusive {
  /** What the inputs would hold; undefined while a value it needs is not known (preview). */
  holds: (inputs: Inputs) => Holding | undefined;
  /** What a record of the place holds. */
  heldBy: (record: ApiRecord) => string | undefined;
  /** Whether two values held in one place clash (overlapping CIDRs; one address and port). */
  clash: (a: string, b: string) => boolean;
  /** The service's rule, for messages: "the service refuses overlapping subnets on one network". */
  rule: string;
  /** The message for a record that holds it already: which, and how to adopt it or avoid it. */
  taken: (inputs: Inputs, record: ApiRecord) => string;
}

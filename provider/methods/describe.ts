// A kind's descriptor from what its file says (its behaviour) and what its contract says (the
// API's facts): the inputs every kind of its sort takes, where its record lives, which calls
// answer with tasks. A kind's file never restates a path, a parameter or a task type.
import type { Contract } from "../../api/contract";
import { byTask, idParam, isScoped, operation, operationsOf, parentInputs, recordName } from "../../api/contract";
import { canonical } from "../../api/net";
import { splitTags } from "../../api/tags";
import type { ApiRecord } from "../../api/guards";
import { toSnake } from "../../api/names";
import { apiPath, type PathParam } from "../client/path";
import type { Descriptor, Exclusive, ImportRow, OwnedDescriptor } from "./descriptor";
import { OWN, type OwnField } from "./inputs";
import { allKnown, type Inputs } from "./schema";

/** What the contract decides of a descriptor: never written in a kind's file. */
type ContractFacts = "own" | "scoped" | "recordPath" | "importIdParts" | "patchSpelling" | "derived";
type OwnedFacts = ContractFacts | "created" | "createTask" | "paths" | "pathInputs" | "updateByTask";

/** What a kind's file says: its behaviour, and the inputs only it takes (a pool's `membersOwnership`). */
export type Behaviour = Omit<Descriptor, ContractFacts> & { inputs?: Readonly<Record<string, OwnField>> };

type ImportDefaults = "nouns" | "id" | "name" | "args" | "prefix";
/**
 * An owned kind's import row: by default named by `noun` (its last word the names' prefix),
 * ordered by id, named by the record's `name`, and adopted by `importId`.
 */
type OwnedImportRow = Omit<ImportRow, ImportDefaults> &
  Partial<Pick<ImportRow, ImportDefaults>> & {
    /** Arguments a record implies beside a field's, written right after it (by the field's name). */
    argsAfter?: Readonly<Record<string, (r: ApiRecord) => Inputs>>;
  };
/**
 * An owned kind's behaviour. By default messages name a resource by its `name` (`Subnet "app"`),
 * and a record its create made is looked for in the kind's list.
 */
export type OwnedBehaviour = Omit<OwnedDescriptor, OwnedFacts | "import" | "label" | "survey"> & {
  inputs?: Readonly<Record<string, OwnField>>;
  import?: OwnedImportRow;
  label?: OwnedDescriptor["label"];
  survey?: OwnedDescriptor["survey"];
  /**
   * An input that narrows the kind's list to one place, its wire name the list's query (a
   * subnet's `networkId`): where a record its create made is looked for, and cims-import's
   * flag that imports only the records of the places it names.
   */
  listedBy?: string;
};

/**
 * The provider's own inputs of a kind, in order: the identity the contract names (a change
 * replaces), the scope where its records have one, `timeouts` where a call answers with a task,
 * `importId` and `deleteAdopted` where the provider creates the record, then the kind's own.
 */
function ownInputs(contract: Contract, inputs: Readonly<Record<string, OwnField>> = {}): Record<string, OwnField> {
  const own: Record<string, OwnField> = {};
  for (const [name, f] of Object.entries(contract.identity ?? {})) own[name] = { ...f, required: true, set: "create" };
  if (isScoped(contract)) Object.assign(own, { projectId: OWN.projectId, regionId: OWN.regionId });
  if (operationsOf(contract).some(byTask)) own.timeouts = OWN.timeouts;
  if (operation(contract, "create")) Object.assign(own, { importId: OWN.importId, deleteAdopted: OWN.deleteAdopted });
  return { ...own, ...inputs };
}

/** The path parameters where a record lives, from a resource's inputs (its scope, then its parents: a member's pool). */
export function scopeParamsOf(contract: Contract, i: Inputs): Record<string, PathParam> {
  const scope: Record<string, PathParam> = isScoped(contract) ? { project_id: Number(i.projectId), region_id: Number(i.regionId) } : {};
  for (const name of parentInputs(contract)) scope[toSnake(name)] = String(i[name]);
  return scope;
}

/** The path of one of a kind's calls for a resource's inputs (its list: where its records are). */
export function callPath(contract: Contract, call: "create" | "list", i: Inputs): string {
  const op = operation(contract, call);
  if (!op) throw new Error(`${contract.name} has no ${call} call`);
  return apiPath(op.template, scopeParamsOf(contract, i));
}

/**
 * What a record says of the provider's own inputs, where it carries them (a subnet's
 * `project_id`, a quota setting's `client_id`): read back on refresh and import.
 */
function ownFromRecord(contract: Contract, own: Readonly<Record<string, OwnField>>): (r: ApiRecord) => Inputs {
  const carried = Object.keys(own).filter((name) => toSnake(name) in contract.record);
  return (r) => Object.fromEntries(carried.map((name) => [name, r[toSnake(name)]]));
}

/**
 * The service's own read-only tags of a kind whose records carry tags: an output of their own,
 * from the record's tags field (under its record name: an image's `tags_v2`).
 */
function readOnlyTagsOf(contract: Contract): ((r: ApiRecord) => Inputs) | undefined {
  const tagged = Object.entries(contract.fields).find(([, f]) => f.type.kind === "tags");
  if (!tagged) return undefined;
  const wire = recordName(...tagged);
  return (r) => ({ readOnlyTags: splitTags(r[wire]).readOnly });
}

/** A settings kind's descriptor (a record that exists anyway): the behaviour, and what the contract says. */
export function describeSettings(b: Behaviour): Descriptor {
  const { contract, inputs, ...behaviour } = b;
  const own = ownInputs(contract, inputs);
  const fromRecord = ownFromRecord(contract, own);
  const id = idParam(contract);
  const parents = parentInputs(contract);
  const get = operation(contract, "get");
  if (!get) throw new Error(`${contract.name}: every kind needs a get call`);
  const tags = readOnlyTagsOf(contract);
  return {
    ...behaviour,
    contract,
    own,
    scoped: isScoped(contract),
    patchSpelling: operation(contract, "update")?.spelling ?? "spec",
    ...(tags ? { derived: ["readOnlyTags"] as const } : {}),
    record: (r) => ({ ...fromRecord(r), ...tags?.(r), ...b.record?.(r) }),
    recordPath: (s, recordId, named) => apiPath(get.template, { ...scopeParamsOf(contract, { ...s, ...named }), [id]: recordId }),
    ...(parents.length > 0 ? { importIdParts: parents } : {}),
  };
}

/** A descriptor of a kind whose records the provider creates and deletes: its calls from the contract too. */
export function describeOwned(b: OwnedBehaviour): OwnedDescriptor {
  const { contract, inputs: _inputs, ...behaviour } = b;
  const create = operation(contract, "create");
  const list = operation(contract, "list");
  if (!create?.task || !create.created || !list) {
    throw new Error(`${contract.name}: a kind that creates its records needs a create call with a task and a created key, and a list call`);
  }
  const parents = parentInputs(contract);
  const importRow = importRowOf(b);
  const label: OwnedDescriptor["label"] = b.label ?? ((i, id) => `${contract.name} "${String(i.name)}"${id ? ` (${id})` : ""}`);
  return {
    ...behaviour,
    ...describeSettings({ ...b, label, import: importRow }),
    label,
    survey: b.survey ?? surveyOf(contract, b.listedBy),
    import: importRow,
    created: create.created,
    createTask: create.task,
    paths: { create: create.template, list: list.template, one: operation(contract, "get")!.template, idParam: idParam(contract) },
    ...(parents.length > 0 ? { pathInputs: parents } : {}),
    ...(byTask(operation(contract, "update")) ? { updateByTask: true as const } : {}),
  };
}

/**
 * Where a record an owned kind's create made is listed: its list, narrowed to the place
 * `listedBy` names. What a create reads of a record there, besides its id, name and mark: the
 * fields only a replacement changes, which hold what a place holds (a subnet's cidr, a member's
 * address and port) and tell a twin (owned.ts).
 */
function surveyOf(contract: Contract, listedBy: string | undefined): OwnedDescriptor["survey"] {
  const reads = Object.entries(contract.fields)
    .filter(([, f]) => f.set === "create" && !f.notInRecord)
    .map(([name, f]) => recordName(name, f));
  return (i) => ({
    path: callPath(contract, "list", i),
    ...(listedBy ? { query: { [toSnake(listedBy)]: String(i[listedBy]) } } : {}),
    reads,
  });
}

/** What a place input names (`networkId`: a network), in messages and flags. */
const placeOf = (input: string): string => input.replace(/Id$/, "");

/**
 * An owned kind's import row: the defaults (named by `noun`, its last word the names' prefix;
 * ordered by id; named by the record's `name`; adopted by `importId`), with the arguments a
 * record implies after their field, and a filter by the place `listedBy` names.
 */
function importRowOf(b: OwnedBehaviour): ImportRow {
  const { argsAfter = {}, ...row } = b.import ?? {};
  const place = b.listedBy && placeOf(b.listedBy);
  return {
    prefix: b.noun.split(" ").pop()!,
    nouns: [b.noun, `${b.noun}s`],
    id: (r) => String(r.id).toLowerCase(),
    name: (r) => r.name,
    args: (r, fields, scope) => {
      const args: Inputs = {};
      for (const [name, value] of Object.entries(fields)) Object.assign(args, { [name]: value }, argsAfter[name]?.(r));
      return { ...args, ...scope, importId: String(r.id) };
    },
    ...(b.listedBy && place
      ? {
          filter: {
            flag: place,
            query: toSnake(b.listedBy),
            value: "<uuid>" as const,
            help: `import only the ${b.noun}s of this ${place} (repeatable; default: every\n${b.noun} of the project and region)`,
          },
        }
      : {}),
    ...row,
  };
}

/**
 * What a resource holds alone: its `value` input (a string) among the records of the place its
 * `per` input names, each record holding its field of that name (a subnet's cidr on its
 * network). How values clash, the service's rule and the message for one taken are the kind's.
 */
export function exclusiveIn(
  contract: Contract,
  x: { per: string; value: string } & Pick<Exclusive, "clash" | "rule" | "taken">,
): Exclusive {
  const type = contract.fields[x.per]?.type;
  const format = type?.kind === "string" && type.format === "uuid4" ? type.format : undefined;
  const wire = toSnake(x.value);
  return {
    holds: (i) => {
      const [place, value] = [i[x.per], i[x.value]];
      if (!allKnown(place, value) || typeof value !== "string") return undefined;
      return { place: `${placeOf(x.per)} ${String(format ? canonical(format, place) : place)}`, value, property: x.value };
    },
    heldBy: (r) => (typeof r[wire] === "string" ? r[wire] : undefined),
    clash: x.clash,
    rule: x.rule,
    taken: x.taken,
  };
}

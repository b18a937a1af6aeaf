// Adopting what already exists. Pulumi's own `import` does not work for dynamic resources
// (pulumi/pulumi#3550, #16175), so Subnet and BaremetalImage take `importId`: create reads
// that record instead of POSTing, refuses when a field that cannot change in place differs,
// and PATCHes only the in-place fields that differ. The settings resources (pool, policy,
// quota) adopt by their identity input and write only the fields that differ. What a record's
// resource adopted (importId, the plugin's `pulumi import`) its delete leaves in the service
// unless the program says `deleteAdopted`: another made it, and may still use it.
import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../client/errors";
import { apiClient, log, warn } from "./context";
import { differences } from "./drift";
import { claim } from "./evidence";
import { isUnknown, type CheckFailure, type Inputs } from "./schema";
import type { Table } from "./table";
import type { ApiRecord } from "../../api/guards";
import { messageOf } from "../../api/messages";
import { runMemory } from "./run-memory";

/** What adoption needs to know of a resource. */
export interface Adoptable {
  table: Table;
  /** `subnet`, `image`: how messages call the record. */
  noun: string;
  /** How progress lines name the resource (`Subnet "app"`). */
  what: (inputs: Inputs) => string;
  /** The record's GET path for these inputs' scope. */
  recordPath: (inputs: Inputs, id: string) => string;
  /** How to read the record where no GET of `recordPath` answers it (descriptor.ts: readRecord). */
  read?: (inputs: Inputs, id: string) => Promise<ApiRecord>;
}

const show = (v: unknown) => JSON.stringify(v) ?? "(none)";

/** One failure per replace-only field that differs, saying both values. */
function replaceFailures(a: Adoptable, record: ApiRecord, inputs: Inputs, fields: string[]): CheckFailure[] {
  const service = a.table.fromRecord(record, inputs);
  return fields.map((property) => ({
    property,
    reason:
      `${property}: the ${a.noun} to adopt (importId ${String(inputs.importId)}) has ${show(service[property])}, the program ${show(inputs[property])}; ` +
      `${property} cannot change in place. To adopt the ${a.noun} as it is, make the program say ${show(service[property])}. ` +
      `For a new ${a.noun} with ${show(inputs[property])} instead, remove \`importId\` from the resource: \`up\` then creates one ` +
      `(and, when the resource already holds the adopted ${a.noun}, replaces it: the adopted one is left in the service unless the resource has \`deleteAdopted: true\`)`,
  }));
}

/** Reads the record to adopt; a missing one is a failure naming importId. */
async function readAdoptee(a: Adoptable, inputs: Inputs): Promise<{ record?: ApiRecord; failure?: CheckFailure }> {
  const id = String(inputs.importId);
  try {
    return { record: a.read ? await a.read(inputs, id) : await apiClient().record("GET", a.recordPath(inputs, id)) };
  } catch (err) {
    const reason =
      err instanceof NotFoundError
        ? `importId: no ${a.noun} ${id} in project ${String(inputs.projectId)}, region ${String(inputs.regionId)} (check the id and the resource's projectId/regionId)`
        : `importId: the ${a.noun} ${id} could not be read: ${messageOf(err)}`;
    return { failure: { property: "importId", reason } };
  }
}

/**
 * check() of a resource about to be created with `importId` reads the record, so that
 * `pulumi preview` already fails when the record is missing, in another scope,
 * or differs in a field that cannot change in place, and says which fields `up` will change.
 */
export async function previewAdoption(a: Adoptable, olds: Inputs, inputs: Inputs): Promise<CheckFailure[]> {
  const creating = Object.keys(olds).length === 0;
  if (!creating || typeof inputs.importId !== "string" || isUnknown(inputs.importId)) return [];
  if (inputs.projectId === undefined || inputs.regionId === undefined) return [];
  const { record, failure } = await readAdoptee(a, inputs);
  if (!record) return [failure!];
  const { replaces, updates } = differences(a.table, record, inputs);
  if (replaces.length > 0) return replaceFailures(a, record, inputs, replaces);
  log(
    `${a.what(inputs)}: adopts ${a.noun} ${String(inputs.importId)}; up will ${updates.length > 0 ? `change ${updates.join(", ")}` : "change nothing"}; ` +
      (inputs.deleteAdopted === true
        ? "destroy deletes it (deleteAdopted: true)"
        : "destroy leaves it in the service unless the resource has `deleteAdopted: true`"),
  );
  return [];
}

/**
 * Whether a state is of a record its resource adopted rather than made: its `adopted` output,
 * or in a state written before that output, the importId it holds (every input is in the
 * state's outputs, and a delete gets nothing else on the dynamic face).
 */
export function wasAdopted(props: Inputs): boolean {
  return typeof props.adopted === "boolean" ? props.adopted : typeof props.importId === "string";
}

/**
 * The program's deleteAdopted as this run's diffs saw it, by record id: a replacement's delete
 * of the old record gets the old state, and must follow the program that asked for it.
 */
const deleteAdoptedThisRun = runMemory(new Map<string, boolean>());

/** The diff notes the program's deleteAdopted for the record it compares. */
export function noteDeleteAdopted(id: string, news: Inputs): void {
  if (id) deleteAdoptedThisRun.set(id.toLowerCase(), news.deleteAdopted === true);
}

/** Whether the program says the resource's adopted record goes with it: this run's program, else the state. */
export function deletesAdopted(id: string, props: Inputs): boolean {
  return deleteAdoptedThisRun.get(id.toLowerCase()) ?? props.deleteAdopted === true;
}

/**
 * The one rule of what a delete (destroy, a replacement, removal from the program) leaves:
 * a record the resource adopted stays in the service unless the program says `deleteAdopted`,
 * for it was made by someone else (another stack, a team, a tool) and may be in use there.
 * Said in a line naming it and how to have it deleted; true when the caller must leave it.
 */
export async function leavesAdopted(what: string, noun: string, id: string, props: Inputs): Promise<boolean> {
  if (!wasAdopted(props) || deletesAdopted(id, props)) return false;
  await warn(
    `${what}: ${noun} ${id} left in the service, not deleted: the resource adopted it (importId, \`pulumi import\` or ` +
      `cims-import) rather than created it. To have it deleted with the resource, set \`deleteAdopted: true\` on the resource ` +
      `and run \`pulumi up\` (it writes nothing to the service), then destroy; or delete ${noun} ${id} yourself`,
  );
  return true;
}

/**
 * Records adopted by this provider process, i.e. in this `pulumi up`. A replacement that
 * adopts the record its predecessor held (`up --replace`, a rename without an alias, both
 * with the same importId) must not then delete it: the old resource's delete leaves it.
 */
const adoptedThisRun = runMemory(new Set<string>());

/** A delete of a record this run adopted under a new resource: says so, and the caller leaves it. */
export function adoptedInThisRun(what: string, id: string): boolean {
  if (!adoptedThisRun.has(id.toLowerCase())) return false;
  log(`${what}: left as it is: its replacement in this run adopted the same record (importId)`);
  return true;
}

/** create() with `importId`: adopt the record, PATCHing only the in-place fields that differ. */
export async function adopt(
  a: Adoptable,
  inputs: Inputs,
  patch: (path: string, body: ApiRecord) => Promise<ApiRecord>,
): Promise<pulumi.dynamic.CreateResult> {
  const id = String(inputs.importId).toLowerCase();
  const { record, failure } = await readAdoptee(a, inputs);
  if (!record) throw new Error(failure!.reason);
  const { replaces, updates } = differences(a.table, record, inputs);
  if (replaces.length > 0)
    throw new Error(
      replaceFailures(a, record, inputs, replaces)
        .map((f) => f.reason)
        .join("; "),
    );
  adoptedThisRun.add(id);
  claim(id);
  const service = a.table.fromRecord(record, inputs);
  const body = a.table.patch(service, inputs, updates);
  const current = Object.keys(body).length > 0 ? await patch(a.recordPath(inputs, id), body) : record;
  log(`${a.what(inputs)}: adopted ${a.noun} ${id}${updates.length > 0 ? `, changed ${updates.join(", ")}` : ""}`);
  return { id, outs: { ...a.table.outputs(inputs, current, []), adopted: true } };
}

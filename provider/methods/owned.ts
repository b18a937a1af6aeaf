// The provider methods of a resource that owns its record (Subnet, BaremetalImage), built
// from its descriptor: check (with adoption's preview), diff, create (adopting with importId,
// or POST through a task after a look at what exists), update (PATCH of what the diff showed),
// delete (through a task) and read (refresh, coalesced through the scope's list).
import type * as pulumi from "@pulumi/pulumi";
import {
  type Adoptable,
  adopt,
  adoptedInThisRun,
  deletesAdopted,
  leavesAdopted,
  noteDeleteAdopted,
  previewAdoption,
  wasAdopted,
} from "./adopt";
import { callAndWait, deleteViaTask, patchOrRead, readOrGone, settlePending, withContext } from "./calls";
import { coalescedGet } from "./coalesce";
import { apiClient, log, resourceUrn, scopeDefaults, warn } from "./context";
import { createViaTask } from "./create";
import { callPath, describeOwned, type OwnedBehaviour } from "./describe";
import type { Exclusive, OwnedDescriptor, Scoped } from "./descriptor";
import { changedFields, type KindDiff } from "./diff";
import { differences } from "./drift";
import { CimsError } from "../client/errors";
import { CREATE_MARK_TAG, markOf, markOwner, ownerKey } from "./mark";
import { clashMessage, type Holding, hold, noteDiffed, takeDiffed } from "./holdings";
import { forgetList, foundNow, markedNamesakes } from "./evidence";
import type { CheckFailure, Inputs } from "./schema";
import { resourceTable, type Table } from "./table";
import type { ApiRecord } from "../../api/guards";
import type { KindEntry } from "./kind-entry";
import { messageOf } from "../../api/messages";

/** Why a twin may be the record this resource replaces, and what to do then. */
const TWIN_HINT =
  ". If it is the record this resource replaces (`pulumi up --replace`, or a taint), Pulumi created the replacement before deleting it " +
  "(the engine asks the provider nothing on such a replacement, so nothing could ask it to delete first), and the service refuses both at " +
  "once: set the resource option `deleteBeforeReplace: true` for that run (and, where the resource adopted its record, " +
  "`deleteAdopted: true` with an `up` before it: the delete leaves an adopted record)";

export interface Owned {
  descriptor: OwnedDescriptor;
  table: Table;
  methods: {
    check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult>;
    diff(id: string, olds: Inputs, news: Inputs): Promise<KindDiff>;
    create(inputs: Scoped): Promise<pulumi.dynamic.CreateResult>;
    update(id: string, olds: Scoped, news: Scoped): Promise<pulumi.dynamic.UpdateResult>;
    delete(id: string, props: Scoped): Promise<void>;
    read(id: string, props: Scoped): Promise<pulumi.dynamic.ReadResult>;
  };
}

/** Records of this name that a lost create left (mark.ts): the one this resource's own create left, and those whose mark names no resource. */
async function leftBehind(d: OwnedDescriptor, inputs: Scoped): Promise<{ own?: ApiRecord; unproven: ApiRecord[] }> {
  const urn = resourceUrn();
  const self = urn === undefined ? undefined : ownerKey(urn);
  const marked = await markedNamesakes(d.survey(inputs), inputs.name);
  const owner = (record: ApiRecord) => markOwner(markOf(record) ?? "");
  return {
    own: self === undefined ? undefined : marked.find((record) => owner(record) === self),
    unproven: marked.filter((record) => owner(record) === undefined),
  };
}

/**
 * A create that would make a second record beside one a lost create left, which nothing shows
 * is another resource's: refused until the program adopts it or it is deleted. A mark that
 * names another resource is that resource's to adopt, and no obstacle here.
 */
function unprovenReason(d: OwnedDescriptor, inputs: Scoped, records: ApiRecord[]): string {
  const ids = records.map((record) => String(record.id));
  return (
    `${d.label(inputs)}: ${d.noun} ${ids.join(", ")} of this name still carries the create mark ${CREATE_MARK_TAG}: a create whose ` +
    `outcome was lost (cancelled, or its answer never came) made it, and no stack records it. Its mark does not say which resource ` +
    `made it, so \`pulumi up\` makes no other ${d.noun} of this name while it exists: if it is this resource's, adopt it by setting ` +
    `\`importId: "${ids[0]}"\` on this resource; otherwise delete it (a create of this name under way elsewhere removes its mark once it lands)`
  );
}

/** Why this resource's own left record cannot be adopted as the program is (a field that cannot change in place differs). */
function ownMismatch(p: Parts, inputs: Scoped, record: ApiRecord): string | undefined {
  const { replaces } = differences(p.table, record, inputs);
  if (replaces.length === 0) return undefined;
  const service = p.table.fromRecord(record, inputs);
  const show = (v: unknown) => JSON.stringify(v) ?? "(none)";
  const fields = replaces.map((f) => `${f} ${show(service[f])} (the program: ${show(inputs[f])})`).join(", ");
  return (
    `${p.d.label(inputs)}: ${p.d.noun} ${String(record.id)}, left by this resource's cancelled create (it carries this resource's ` +
    `create mark ${CREATE_MARK_TAG}), has ${fields}, which cannot change in place: make the program say so and \`pulumi up\` ` +
    `adopts it, or delete it and \`pulumi up\` creates a new ${p.d.noun}`
  );
}

const adoptsLine = (d: OwnedDescriptor, inputs: Scoped, id: string) =>
  `${d.label(inputs)}: adopts ${d.noun} ${id} left by this resource's cancelled create (it carries this resource's create mark ` +
  `${CREATE_MARK_TAG}); \`pulumi up\` makes no other ${d.noun}`;

/**
 * A new resource's check (at preview, and at up before its create) looks for a record of its
 * name that a lost create left: its own (the mark names this resource) is adopted by the create,
 * and the preview says so; one whose mark names no resource fails the check, as the create
 * would otherwise make a second. `adopts`: the holding check is not made, as the record
 * adopted holds what the program does.
 */
async function checkMarked(p: Parts, inputs: Scoped): Promise<{ failure?: CheckFailure; adopts?: boolean }> {
  const { own, unproven } = await leftBehind(p.d, inputs);
  if (own) {
    const mismatch = ownMismatch(p, inputs, own);
    if (mismatch) return { failure: { property: "name", reason: mismatch } };
    await warn(adoptsLine(p.d, inputs, String(own.id)));
    return { adopts: true };
  }
  return unproven.length > 0 ? { failure: { property: "name", reason: unprovenReason(p.d, inputs, unproven) } } : {};
}

/** create() of a record its own lost create left: adopted as `importId` would, and its mark removed. */
async function adoptOwn(p: Parts, inputs: Scoped, record: ApiRecord): Promise<pulumi.dynamic.CreateResult> {
  const mismatch = ownMismatch(p, inputs, record);
  if (mismatch) throw new CimsError(mismatch);
  const id = String(record.id);
  log(adoptsLine(p.d, inputs, id));
  const taken = await adopt(p.adoptable, { ...inputs, importId: id }, (path, body) => p.patchRecord(path, body, inputs));
  // Its own create made it: not adopted, and the importId that took it is no input of the program.
  const { importId: _taken, ...outs } = taken.outs ?? {};
  const adopted = { ...taken, outs: { ...outs, adopted: false } };
  await apiClient()
    .record("PATCH", p.one(inputs, id), { body: { tags: { [CREATE_MARK_TAG]: null } } })
    .catch((err: unknown) =>
      log(`${p.d.label(inputs)}: could not remove the create mark ${CREATE_MARK_TAG} yet (the next update does): ${messageOf(err)}`),
    );
  return adopted;
}

/** What an owned resource's methods share: its descriptor, its table and the paths of its records. */
interface Parts {
  d: OwnedDescriptor;
  table: Table;
  ex: Exclusive | undefined;
  one: (i: Scoped, id: string) => string;
  list: (i: Scoped) => string;
  /**
   * The in-place update: a PATCH that answers the record, or (updateByTask) tasks waited for
   * before the record is read back. Nothing to change: the record is read.
   */
  patchRecord: (path: string, body: ApiRecord, props: Scoped) => Promise<ApiRecord>;
  adoptable: Adoptable;
}

function partsOf(d: OwnedDescriptor): Parts {
  const table = resourceTable(d);
  const one = (i: Scoped, id: string) => d.recordPath(i, id);
  const list = (i: Scoped) => callPath(d.contract, "list", i);
  const patchRecord = async (path: string, body: ApiRecord, props: Scoped): Promise<ApiRecord> => {
    if (!d.updateByTask || Object.keys(body).length === 0) return patchOrRead(path, body);
    await callAndWait("PATCH", path, d.label(props), "update", props, { body });
    return apiClient().record("GET", path);
  };
  const adoptable = { table, noun: d.noun, what: (i: Inputs) => d.label(i), recordPath: (i: Inputs, id: string) => one(i as Scoped, id) };
  return { d, table, ex: d.hooks?.exclusive, one, list, patchRecord, adoptable };
}

/** A record that holds what the inputs would, but for those `excused` (what the resource replaces). */
function holder(
  ex: Exclusive,
  records: ReadonlyArray<ApiRecord>,
  holding: Holding,
  excused: (r: ApiRecord) => boolean = () => false,
): ApiRecord | undefined {
  return records.find((r) => {
    const held = ex.heldBy(r);
    return held !== undefined && ex.clash(held, holding.value) && !excused(r);
  });
}

const isHeld = (record: ApiRecord | undefined) => record !== undefined;

/**
 * The record as the program declares it, with no create's mark: what a `pulumi up --replace`
 * (or a taint) replaces. Its in-place fields may have drifted (a tag another team added), its
 * name and the fields that only a replacement changes may not. The engine checks such a
 * replacement as a new resource, with no diff and nothing naming its old record, so preview
 * cannot tell it from another's twin; create() still refuses a twin before its POST unless it
 * is gone by then (the replacement deleted it first).
 */
function twin(table: Table, record: ApiRecord, inputs: Inputs): boolean {
  const { replaces, updates } = differences(table, record, inputs);
  return replaces.length === 0 && !updates.includes("name") && markOf(record) === undefined;
}

/** At preview: the program's clash, or a record holding it already (a list that fails is no failure yet). */
async function holdingFailure({ d, ex, table }: Parts, creating: boolean, inputs: Scoped): Promise<CheckFailure | undefined> {
  const holding = ex?.holds(inputs);
  if (!ex || !holding) return undefined;
  const replaced = creating ? takeDiffed(d.noun, holding) : undefined;
  const other = hold(d.noun, d.label(inputs), holding, ex.clash, replaced !== undefined);
  if (other) return { property: holding.property, reason: clashMessage(d.label(inputs), holding, other, ex.rule) };
  if (!creating || inputs.importId !== undefined) return undefined;
  // The id the diff saw is the old record; with none (`up --replace`), any twin may be.
  const own = (r: ApiRecord) => (replaced === undefined ? twin(table, r, inputs) : String(r.id).toLowerCase() === replaced.toLowerCase());
  const taken = await foundNow(d.survey(inputs), (records) => holder(ex, records, holding, own), isHeld).catch(() => undefined);
  return taken && { property: holding.property, reason: ex.taken(inputs, taken) };
}

async function check(p: Parts, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const result = p.table.check(olds, news, scopeDefaults);
  if (result.failures?.length) return result;
  const inputs = result.inputs as Scoped;
  const creating = Object.keys(olds).length === 0;
  if (creating && inputs.importId === undefined && p.d.evidence !== "task") {
    const marked = await checkMarked(p, inputs);
    if (marked.failure) return { ...result, failures: [marked.failure] };
    if (marked.adopts) return result;
  }
  const held = await holdingFailure(p, creating, inputs);
  if (held) return { ...result, failures: [held] };
  return { ...result, failures: await previewAdoption(p.adoptable, olds, inputs) };
}

async function diff({ d, ex, table }: Parts, id: string, olds: Inputs, news: Inputs): Promise<KindDiff> {
  const note = table.unmanagedNote(olds, news);
  if (note) log(note);
  const [before, after] = [ex?.holds(olds), ex?.holds(news)];
  // Create first, as Pulumi does, so that what uses the old record moves to the new one before
  // it goes; delete first only where the service would refuse the new record while the old one
  // exists. A replacement that adopts (importId) creates nothing, and may adopt the old record.
  const adopting = news.importId !== undefined;
  const deleteFirst = !adopting && !!before && !!after && before.place === after.place && !!ex?.clash(before.value, after.value);
  const result = table.diff(olds, news, deleteFirst);
  noteDeleteAdopted(id, news);
  if (deleteFirst && (result.replaces ?? []).length > 0 && wasAdopted(olds) && !deletesAdopted(id, olds)) {
    throw new CimsError(adoptedInTheWay(d, ex!, after, olds, id));
  }
  // Whatever this diff says, the engine may replace (`replaceOnChanges`, a partly created
  // resource, a pending replacement): the second check knows its old record.
  if (after) noteDiffed(d.noun, after, id);
  return result;
}

/**
 * A replacement that must delete its old record first (the two cannot coexist), where the old
 * record is adopted and the program does not say to delete it: its delete would leave it, and
 * the create would then be refused half-way through the up. Refused at the diff (the preview).
 */
function adoptedInTheWay(d: OwnedDescriptor, ex: Exclusive, after: Holding, olds: Inputs, id: string): string {
  return (
    `${after.property}: the replacement of ${d.label(olds, id)} must delete the ${d.noun} first (${ex.rule}), but the resource ` +
    `adopted that ${d.noun} rather than created it, and an adopted ${d.noun} is left in the service unless the program says ` +
    `otherwise: set \`deleteAdopted: true\` on the resource to have this replacement delete it, or change ${after.property} ` +
    `so that the new ${d.noun} and the old one can both exist`
  );
}

async function create(p: Parts, inputs: Scoped): Promise<pulumi.dynamic.CreateResult> {
  const { d, ex, table } = p;
  const what = d.label(inputs);
  if (inputs.importId !== undefined) {
    return withContext(what, () => adopt(p.adoptable, inputs, (path, body) => p.patchRecord(path, body, inputs)));
  }
  return withContext(what, async () => {
    // A record a lost create left: its own is adopted; one nothing shows is another's is no place for a second.
    if (d.evidence !== "task") {
      const { own, unproven } = await leftBehind(d, inputs);
      if (own) return adoptOwn(p, inputs, own);
      if (unproven.length > 0) throw new CimsError(unprovenReason(d, inputs, unproven));
    }
    // Refused here, before any write, when a record holds it already (a subnet's CIDR on its network).
    const survey = d.survey(inputs);
    const holding = ex?.holds(inputs);
    if (ex && holding) {
      const taken = await foundNow(survey, (records) => holder(ex, records, holding), isHeld).catch((err: unknown) => {
        throw new CimsError(`could not list what exists before creating a ${d.noun}, so nothing was created: ${messageOf(err)}`);
      });
      if (taken) throw new CimsError(ex.taken(inputs, taken) + (twin(table, taken, inputs) ? TWIN_HINT : ""));
    }
    const call = {
      path: callPath(d.contract, "create", inputs),
      body: table.body(inputs),
      kind: d.created,
      taskType: d.createTask,
      scope: { projectId: inputs.projectId, regionId: inputs.regionId },
      recordPath: (id: string) => p.one(inputs, id),
      find: d.findHint(inputs),
      survey,
      evidence: d.evidence,
      meanwhile: d.meanwhile,
    };
    return createViaTask(what, inputs, call, (record, taskIds) => ({ ...table.outputs(inputs, record, taskIds), adopted: false }));
  });
}

/**
 * PATCH the fields that changed between the state and the program (after waiting for a
 * create still running), or read back: the diff the preview showed, nothing else. A field
 * changed outside Pulumi since the last refresh is not written (nor is one under
 * `ignoreChanges`: the engine gives it the state's value): a refresh shows it, and the
 * `up` after it sets it back as its diff says. Outputs: table.updated().
 */
async function update({ d, table, one, patchRecord }: Parts, id: string, olds: Scoped, news: Scoped): Promise<pulumi.dynamic.UpdateResult> {
  const what = d.label(news, id);
  return withContext(what, async () => {
    await settlePending(what, olds);
    const path = one(news, id);
    const changed = changedFields(olds, news, table.rules).map((rule) => rule.name);
    let record: ApiRecord = await patchRecord(path, table.patch(olds, news, changed), news);
    // A create recorded before it removed its mark (mark.ts) leaves it to this update.
    if (markOf(record) !== undefined) record = await apiClient().record("PATCH", path, { body: { tags: { [CREATE_MARK_TAG]: null } } });
    return { outs: { ...table.updated(table.outputs(news, record, []), olds, news, changed), adopted: wasAdopted(olds) } };
  });
}

export function ownedResource(d: OwnedDescriptor): Owned {
  const p = partsOf(d);
  const { table, ex, one, list } = p;
  const methods: Owned["methods"] = {
    check: (olds, news) => check(p, olds, news),
    diff: (id, olds, news) => diff(p, id, olds, news),
    create: (inputs) => create(p, inputs),
    update: (id, olds, news) => update(p, id, olds, news),

    /** DELETE and wait; a record this run's replacement adopted, or one the resource adopted (adopt.ts), is left. */
    async delete(id, props) {
      if (adoptedInThisRun(d.label(props, id), id)) return;
      if (await leavesAdopted(d.label(props, id), d.noun, id, props)) return;
      await deleteViaTask(d.label(props, id), one(props, id), props);
      if (ex) forgetList(d.survey(props));
    },

    /** Refresh, through the scope's list when reads coalesce. */
    async read(id, props) {
      return readOrGone(id, props, one(props, id), (record) => table.fromRecord(record, props), table.rules, {
        get: () => coalescedGet(list(props), id, one(props, id)),
      });
    },
  };
  return { descriptor: d, table, methods };
}

/** A kind that owns its records, from what its file says: its descriptor (the contract's facts added), table and methods. */
export function ownedKind(b: OwnedBehaviour): KindEntry & { descriptor: OwnedDescriptor } {
  const descriptor = describeOwned(b);
  const { table, methods } = ownedResource(descriptor);
  return { descriptor, table, methods };
}

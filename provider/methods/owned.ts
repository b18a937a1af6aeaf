// The provider methods of a resource that owns its record (Subnet, BaremetalImage), built
// from its descriptor: check (with adoption's preview), diff, create (adopting with importId,
// or POST through a task after a look at what exists), update (PATCH, drift set back),
// delete (through a task) and read (refresh, coalesced through the scope's list).
import type * as pulumi from "@pulumi/pulumi";
import { toSnake } from "../../api/names";
import { apiPath, type PathParam } from "../client/path";
import { adopt, adoptedInThisRun, previewAdoption } from "./adopt";
import { callAndWait, deleteViaTask, patchOrRead, readOrGone, settlePending, withContext } from "./calls";
import { coalescedGet } from "./coalesce";
import { apiClient, log, scopeDefaults, warn } from "./context";
import { createViaTask } from "./create";
import type { OwnedDescriptor, Scoped } from "./descriptor";
import { changedFields, type KindDiff } from "./diff";
import { differences } from "./drift";
import { CimsError } from "../client/errors";
import { CREATE_MARK_TAG, markOf } from "./mark";
import { listNow, markedNamesakes } from "./ours";
import type { Inputs } from "./schema";
import { resourceTable, type Table } from "./table";
import { messageOf } from "./values";

type ApiRecord = Record<string, unknown>;

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

/**
 * A new resource's preview names each record of its name and scope that still carries a create
 * mark: an earlier create may have made it and lost it (cancelled while it looked for it), and
 * this create would make a second. A warning only: nothing shows it is this resource's.
 */
async function warnMarked(d: OwnedDescriptor, inputs: Scoped): Promise<void> {
  for (const record of await markedNamesakes(d.survey(inputs), inputs.name)) {
    const id = String(record.id);
    await warn(
      `${d.label(inputs)}: ${d.noun} ${id} of this name still carries the create mark ${CREATE_MARK_TAG}, so a create whose ` +
        `outcome was lost (cancelled, or its answer never came) may have made it, and no stack records it. If it is this ` +
        `resource's, adopt it by setting \`importId: "${id}"\` on this resource; otherwise delete it. Else \`pulumi up\` makes another ${d.noun}.`,
    );
  }
}

export function ownedResource(d: OwnedDescriptor): Owned {
  const table = resourceTable(d);
  // The scope, and the inputs that fill the paths' further parameters (a member's pool).
  const scope = (i: Scoped): Record<string, PathParam> => ({
    project_id: i.projectId,
    region_id: i.regionId,
    ...Object.fromEntries((d.pathInputs ?? []).map((name) => [toSnake(name), String(i[name])])),
  });
  const one = (i: Scoped, id: string) => apiPath(d.paths.one, { ...scope(i), [d.paths.idParam]: id });
  const list = (i: Scoped) => apiPath(d.paths.list, scope(i));
  /**
   * The in-place update: a PATCH that answers the record, or (updateByTask) tasks waited for
   * before the record is read back. Nothing to change: the record is read.
   */
  const patchRecord = async (path: string, body: ApiRecord, props: Scoped): Promise<ApiRecord> => {
    if (!d.updateByTask || Object.keys(body).length === 0) return patchOrRead(path, body);
    await callAndWait("PATCH", path, d.label(props), "update", props, { body });
    return apiClient().record("GET", path);
  };
  const adoptable = { table, noun: d.noun, what: (i: Inputs) => d.label(i), recordPath: (i: Inputs, id: string) => one(i as Scoped, id) };

  const methods: Owned["methods"] = {
    async check(olds, news) {
      const result = table.check(olds, news, scopeDefaults);
      if (result.failures?.length) return result;
      const inputs = result.inputs as Scoped;
      const creating = Object.keys(olds).length === 0;
      if (creating && inputs.importId === undefined && d.evidence !== "task") await warnMarked(d, inputs);
      if (creating && inputs.importId === undefined && d.hooks?.checkNew) {
        const failures = await d.hooks.checkNew(inputs);
        if (failures.length > 0) return { ...result, failures };
      }
      return { ...result, failures: await previewAdoption(adoptable, olds, inputs) };
    },

    async diff(id, olds, news) {
      const note = table.unmanagedNote(olds, news);
      if (note) log(note);
      const result = table.diff(olds, news, d.hooks?.deleteBeforeReplace?.(olds, news) ?? false);
      if ((result.replaces?.length ?? 0) > 0) d.hooks?.replacing?.(id);
      return result;
    },

    async create(inputs) {
      const what = d.label(inputs);
      if (inputs.importId !== undefined) {
        return withContext(what, () => adopt(adoptable, inputs, (path, body) => patchRecord(path, body, inputs)));
      }
      return withContext(what, async () => {
        // A kind may refuse the create here, before any write, given what exists (a subnet's
        // CIDR already taken on its network).
        const survey = d.survey(inputs);
        if (d.hooks?.beforePost) {
          const existing = await listNow(survey).catch((err: unknown) => {
            throw new CimsError(`could not list what exists before creating a ${d.noun}, so nothing was created: ${messageOf(err)}`);
          });
          d.hooks.beforePost(inputs, existing);
        }
        const call = {
          path: apiPath(d.paths.create, scope(inputs)),
          body: table.body(inputs),
          kind: d.created,
          taskType: d.createTask,
          scope: { projectId: inputs.projectId, regionId: inputs.regionId },
          recordPath: (id: string) => one(inputs, id),
          find: d.findHint(inputs),
          survey,
          evidence: d.evidence,
          meanwhile: d.meanwhile,
        };
        return createViaTask(what, inputs, call, (record, taskIds) => table.outputs(inputs, record, taskIds));
      });
    },

    /**
     * PATCH the fields that changed (after waiting for a create still running), or read back.
     * The answer is the record as the service now holds it: an in-place field that still
     * differs from the program (changed outside Pulumi since the last refresh) is PATCHed
     * too, so after `up` the service holds the program's values and the next preview is clean.
     */
    async update(id, olds, news) {
      const what = d.label(news, id);
      return withContext(what, async () => {
        await settlePending(what, olds);
        const path = one(news, id);
        const changed = changedFields(olds, news, table.rules).map((rule) => rule.name);
        let record: ApiRecord = await patchRecord(path, table.patch(olds, news, changed), news);
        // A create recorded before it removed its mark (mark.ts) leaves it to this update.
        if (markOf(record) !== undefined) record = await apiClient().record("PATCH", path, { body: { tags: { [CREATE_MARK_TAG]: null } } });
        const { updates: drifted } = differences(table, record, news);
        if (drifted.length > 0) {
          log(`${what}: ${drifted.join(", ")} changed outside Pulumi: set back to the program's value`);
          record = await patchRecord(path, table.patch(table.fromRecord(record, news), news, drifted), news);
        }
        return { outs: table.outputs(news, record, []) };
      });
    },

    /** DELETE and wait; a record this run's replacement adopted is left. */
    async delete(id, props) {
      if (adoptedInThisRun(d.label(props, id), id)) return;
      await deleteViaTask(d.label(props, id), one(props, id), props);
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

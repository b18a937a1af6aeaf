// SnapshotPolicy's provider methods: a volume snapshot lifecycle policy the stack makes
// (POST lifecycle_policy, synchronous: the policy is the stack's by the id that POST answered),
// changes (PATCH of name and status; schedules and volumes one by one, ./snapshot-policy-parts.ts)
// and deletes. `importId` adopts an existing policy instead, writing only what differs; destroy
// then leaves it unless `deleteAdopted`. SnapshotPolicyState is for a policy made elsewhere
// whose name and status alone the stack sets.
import type * as pulumi from "@pulumi/pulumi";
import { positiveId } from "../../api/contract/common";
import { SnapshotPolicy as contract } from "../../api/contract/snapshot-policy";
import type { ApiRecord } from "../../api/guards";
import { recordsIn, stringsIn } from "../../api/guards";
import { messageOf } from "../../api/messages";
import { NotFoundError } from "../client/errors";
import { adoptedInThisRun, leavesAdopted, noteDeleteAdopted } from "../methods/adopt";
import { readOrGone, withContext } from "../methods/calls";
import { apiClient, log, scopeDefaults } from "../methods/context";
import { callPath, describeSettings } from "../methods/describe";
import type { Descriptor } from "../methods/descriptor";
import { changedFields, type KindDiff } from "../methods/diff";
import { claim } from "../methods/evidence";
import { OWN } from "../methods/inputs";
import type { KindEntry } from "../methods/kind-entry";
import { type CheckFailure, containsUnknown, type Inputs } from "../methods/schema";
import { resourceTable } from "../methods/table";
import {
  matchSchedules,
  ownView,
  ownedSchedules,
  ownedVolumes,
  policyCall,
  policyPath,
  type PolicyRef,
  SCHEDULE_IDS,
  scheduleKey,
  partsNote,
  syncParts,
  volumesNotOurs,
} from "./snapshot-policy-parts";
import { snapshotPolicyExample } from "./snapshot-policy.example";
import type { WithExample } from "./program-model";

export const snapshotPolicyDescriptor: Descriptor = describeSettings({
  contract,
  inputs: {
    importId: {
      ...OWN.importId,
      type: positiveId,
      doc:
        "Adopt the existing policy with this id instead of creating one: `up` reads it, refuses if `action` differs (preview already " +
        "says so), sets the name and status where they differ, takes the policy's schedules the program declares as its own and adds the " +
        "others. It never causes a diff. Destroy, a replacement or removing the resource leaves an adopted policy in the service (the " +
        "`adopted` output says so) unless `deleteAdopted: true`.",
    },
  },
  label: (i, id) => `SnapshotPolicy "${String(i.name)}"${id ? ` (${id})` : ""}`,
  import: {
    nouns: ["snapshot policy", "snapshot policies"],
    prefix: "policy",
    id: (r) => Number(r.id),
    name: (r) => r.name,
    args: (r, fields, scope) => ({ ...fields, ...scope, importId: Number(r.id) }),
  },
  // `pulumi import` takes the policy's schedules the program it writes declares: all of them.
  importState: (inputs, record) => ({
    ...ownView(record, matchSchedules(recordsIn(inputs.schedules), recordsIn(record.schedules)), []),
    adopted: true,
  }),
});
export const snapshotPolicyTable = resourceTable(snapshotPolicyDescriptor);

const what = snapshotPolicyDescriptor.label;
const WRITTEN = ["name", "status"];
const PARTS = ["schedules", "volumeIds"];

/** The state of a policy as `record` holds it: the table's outputs, the stack's parts, and whether it was adopted. */
function stateOf(inputs: Inputs, record: ApiRecord, parts: Inputs, adopted: boolean): Inputs {
  return { ...snapshotPolicyTable.outputs(inputs, record, []), ...parts, adopted };
}

/** Two schedules declared alike would be one schedule to the stack: refused, naming the second. */
function duplicateSchedules(inputs: Inputs): CheckFailure[] {
  const keys = recordsIn(inputs.schedules).map(scheduleKey);
  return keys.flatMap((key, i) =>
    keys.indexOf(key) < i
      ? [
          {
            property: `schedules[${i}]`,
            reason: `schedules[${i}]: the same as schedules[${keys.indexOf(key)}]: declare each schedule once`,
          },
        ]
      : [],
  );
}

/** The policy `importId` names, or the failure that says why it cannot be adopted. */
async function adoptee(inputs: PolicyRef): Promise<{ record?: ApiRecord; failures: CheckFailure[] }> {
  const id = String(inputs.importId);
  let record: ApiRecord;
  try {
    record = await policyCall("GET", inputs, id);
  } catch (err) {
    const reason =
      err instanceof NotFoundError
        ? `importId: no snapshot policy ${id} in project ${String(inputs.projectId)}, region ${String(inputs.regionId)} (check the id and the resource's projectId/regionId)`
        : `importId: the snapshot policy ${id} could not be read: ${messageOf(err)}`;
    return { failures: [{ property: "importId", reason }] };
  }
  const failures: CheckFailure[] = volumesNotOurs(id, inputs, record, []).map((reason) => ({ property: "volumeIds", reason }));
  if (record.action !== inputs.action) {
    failures.push({
      property: "action",
      reason: `action: the policy to adopt (importId ${id}) has ${JSON.stringify(record.action)}, the program ${JSON.stringify(inputs.action)}; action cannot change in place: make the program say ${JSON.stringify(record.action)}`,
    });
  }
  return { record, failures };
}

async function check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const result = snapshotPolicyTable.check(olds, news, scopeDefaults);
  const failures = [...(result.failures ?? []), ...duplicateSchedules(result.inputs ?? {})];
  const inputs: PolicyRef = result.inputs ?? {};
  const adopting = Object.keys(olds).length === 0 && typeof inputs.importId === "number";
  if (failures.length > 0 || !adopting || containsUnknown(inputs)) return { inputs, failures };
  const found = await adoptee(inputs);
  if (found.failures.length === 0) {
    log(
      `${what(inputs)}: adopts snapshot policy ${String(inputs.importId)}; ` +
        (inputs.deleteAdopted === true
          ? "destroy deletes it (deleteAdopted: true)"
          : "destroy leaves it in the service unless the resource has `deleteAdopted: true`"),
    );
  }
  return { inputs, failures: found.failures };
}

async function diff(id: string, olds: Inputs, news: Inputs): Promise<KindDiff> {
  noteDeleteAdopted(id, news);
  const result = snapshotPolicyTable.diff(olds, news);
  const note = partsNote(what(news, id), olds, news);
  if (note && (result.diffs.includes("schedules") || result.diffs.includes("volumeIds"))) log(note);
  if (result.diffs.includes("volumeIds") && (result.replaces ?? []).length === 0 && !containsUnknown(news.volumeIds)) {
    const record = await policyCall("GET", news, id);
    const refused = volumesNotOurs(id, news, record, ownedVolumes(olds));
    if (refused.length > 0) throw new Error(`${what(news, id)}: ${refused.join("; ")}`);
  }
  return result;
}

/** Adopting the policy `importId` names: the name and status written where they differ, the parts brought to the program's. */
async function adopt(inputs: PolicyRef): Promise<pulumi.dynamic.CreateResult> {
  const id = String(inputs.importId);
  const { record, failures } = await adoptee(inputs);
  if (!record || failures.length > 0) throw new Error(failures.map((f) => f.reason).join("; "));
  claim(id);
  const differs = WRITTEN.filter((f) => record[f] !== inputs[f]);
  const patched =
    differs.length > 0 ? await policyCall("PATCH", inputs, id, "item", snapshotPolicyTable.patch({}, inputs, differs)) : record;
  const adopted = { [SCHEDULE_IDS]: matchSchedules(recordsIn(inputs.schedules), recordsIn(record.schedules)) };
  const { record: after, parts } = await syncParts(inputs, id, patched, adopted, PARTS);
  log(`${what(inputs, id)}: adopted snapshot policy ${id}${differs.length > 0 ? `, changed ${differs.join(", ")}` : ""}`);
  return { id, outs: stateOf(inputs, after, parts, true) };
}

async function create(inputs: PolicyRef): Promise<pulumi.dynamic.CreateResult> {
  return withContext(what(inputs), async () => {
    if (typeof inputs.importId === "number") return adopt(inputs);
    const body = snapshotPolicyTable.body(inputs);
    const record = await apiClient().record("POST", callPath(contract, "create", inputs), { body, query: { need_volumes: true } });
    const id = String(record.id);
    claim(id);
    // Every schedule and volume of the policy this POST made is the stack's: its own request put them there.
    const parts = ownView(
      record,
      matchSchedules(recordsIn(inputs.schedules), recordsIn(record.schedules)),
      stringsIn(inputs.volumeIds).map((v) => v.toLowerCase()),
    );
    return { id, outs: stateOf(inputs, record, parts, false) };
  });
}

/**
 * Writes what changed between the state and the program, as the preview showed it: the name and
 * status in one PATCH, then each schedule and volume on its own. A part changed outside Pulumi
 * since the last refresh is not written; a refresh shows it, and the `up` after it sets it back.
 */
async function update(id: string, olds: Inputs, news: PolicyRef): Promise<pulumi.dynamic.UpdateResult> {
  const changed = changedFields(olds, news, snapshotPolicyTable.rules).map((r) => r.name);
  return withContext(what(news, id), async () => {
    const written = changed.filter((f) => WRITTEN.includes(f));
    const record =
      written.length > 0
        ? await policyCall("PATCH", news, id, "item", snapshotPolicyTable.patch({}, news, written))
        : await policyCall("GET", news, id);
    const { record: after, parts } = await syncParts(news, id, record, olds, changed);
    // The parts were brought to the program's as well: only a field no call wrote keeps the state's value.
    const outs = snapshotPolicyTable.updated(stateOf(news, after, parts, olds.adopted === true), olds, news, changed);
    return { outs };
  });
}

async function remove(id: string, props: PolicyRef): Promise<void> {
  await withContext(what(props, id), async () => {
    if (adoptedInThisRun(what(props, id), id)) return;
    if (await leavesAdopted(what(props, id), "snapshot policy", id, props)) return;
    try {
      await apiClient().request("DELETE", policyPath(props, id));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  });
}

async function read(id: string, props: PolicyRef): Promise<pulumi.dynamic.ReadResult> {
  const toState = (record: ApiRecord) => ({
    ...snapshotPolicyTable.fromRecord(record, props),
    ...ownView(record, ownedSchedules(props), ownedVolumes(props)),
  });
  return readOrGone(id, props, "", toState, snapshotPolicyTable.rules, { get: () => policyCall("GET", props, id) });
}

export const snapshotPolicyMethods = { check, diff, create, update, read, delete: remove };

/** SnapshotPolicy: its descriptor, field table and methods, as the registry (./index.ts) lists it. */
export const SnapshotPolicy: KindEntry & WithExample = {
  example: snapshotPolicyExample,
  descriptor: snapshotPolicyDescriptor,
  table: snapshotPolicyTable,
  methods: snapshotPolicyMethods,
};

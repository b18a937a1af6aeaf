// SnapshotPolicyState's provider methods: the name and status (active/paused) of an existing
// volume snapshot lifecycle policy, PATCH lifecycle_policy (synchronous). Destroy leaves the
// policy as it is: the stack stops managing it.
import type * as pulumi from "@pulumi/pulumi";
import { SnapshotPolicyState as contract } from "../../api/contract/snapshot-policy-state";
import { patchOrRead, readOrGone, withContext } from "../methods/calls";
import { apiClient, log, scopeDefaults } from "../methods/context";
import type { Descriptor, Scoped } from "../methods/descriptor";
import type { KindEntry } from "../methods/kind-entry";
import { changedFields, type KindDiff } from "../methods/diff";
import { differences } from "../methods/drift";
import { boolean } from "../../api/contract/common";
import { describeSettings } from "../methods/describe";
import type { Inputs } from "../methods/schema";
import { resourceTable } from "../methods/table";
import { snapshotPolicyStateExample } from "./snapshot-policy-state.example";
import type { WithExample } from "./program-model";

/** A policy's chosen state: its inputs once checked. */
type PolicyInputs = Scoped<{ policyId: number; includeVolumes?: boolean }>;

export const policyDescriptor: Descriptor = describeSettings({
  contract,
  inputs: {
    includeVolumes: { type: boolean, set: "update", doc: "Also read the policy's volumes (the `volumes` output). Default false." },
  },
  label: (i) => `SnapshotPolicyState of policy ${String(i.policyId)}`,
  import: {
    nouns: ["policy", "policies"],
    prefix: "policy",
    named: {
      flag: "policy",
      value: "<id>",
      repeatable: true,
      what: "snapshot policies",
      help: "a snapshot lifecycle policy, as SnapshotPolicyState (repeatable)",
      missing: (id, where) => `policy ${id}: not found in ${where}`,
    },
    id: (r) => Number(r.id),
    name: (r) => r.name,
    args: (r, fields, scope) => ({ policyId: Number(r.id), ...scope, ...fields }),
  },
  record: (r) => ({ policyId: r.id }),
});
export const policyTable = resourceTable(policyDescriptor);

const path = (i: PolicyInputs) => policyDescriptor.recordPath(i, String(i.policyId));
// Volumes are listed in the record only when asked for.
const query = (i: PolicyInputs) => (i.includeVolumes ? { need_volumes: true } : {});
const what = policyDescriptor.label;

/** PATCH the fields that differ from `current` (none: no request); outputs from the answer. */
async function apply(inputs: PolicyInputs, changed: readonly string[], current: Record<string, unknown>): Promise<Inputs> {
  const body = policyTable.patch({}, inputs, changed);
  const record = Object.keys(body).length === 0 ? current : await patchOrRead(path(inputs), body, query(inputs));
  return outputs(inputs, record);
}

/** The outputs of this record; its volumes only when asked for. */
function outputs(inputs: Inputs, record: Record<string, unknown>): Inputs {
  const { volumes, ...state } = policyTable.outputs(inputs, record, []);
  return inputs.includeVolumes ? { ...state, volumes } : state;
}

async function check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const result = policyTable.check(olds, news, scopeDefaults);
  // includeVolumes: false is written, so the state says whether volumes are read.
  return { ...result, inputs: { ...result.inputs, includeVolumes: news.includeVolumes ?? false } };
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<KindDiff> {
  const note = policyTable.unmanagedNote(olds, news);
  if (note) log(note);
  return policyTable.diff(olds, news);
}

async function create(inputs: PolicyInputs): Promise<pulumi.dynamic.CreateResult> {
  // Adopting the policy: read it, and PATCH only a name or status it does not hold already.
  return withContext(what(inputs), async () => {
    const current = await apiClient().record("GET", path(inputs), { query: query(inputs) });
    return { id: String(inputs.policyId), outs: await apply(inputs, differences(policyTable, current, inputs).updates, current) };
  });
}

/**
 * PATCHes the fields that changed between the state and the program: the diff the preview
 * showed. A name or status changed outside Pulumi since the last refresh is not written (nor
 * one under `ignoreChanges`): a refresh shows it, and the `up` after it sets it back.
 */
async function update(_id: string, olds: PolicyInputs, news: PolicyInputs): Promise<pulumi.dynamic.UpdateResult> {
  const changed = changedFields(olds, news, policyTable.rules).map((r) => r.name);
  return withContext(what(news), async () => {
    const record = await patchOrRead(path(news), policyTable.patch({}, news, changed), query(news));
    return { outs: policyTable.updated(outputs(news, record), olds, news, changed) };
  });
}

async function remove(_id: string, props: PolicyInputs): Promise<void> {
  log(`${what(props)}: left as it is (the stack no longer manages it)`);
}

async function read(id: string, props: PolicyInputs): Promise<pulumi.dynamic.ReadResult> {
  const toState = (record: Record<string, unknown>) => {
    const { volumes, ...state } = policyTable.fromRecord(record);
    return props.includeVolumes ? { ...state, volumes } : state;
  };
  return readOrGone(id, props, path(props), toState, policyTable.rules, { includeAuto: true, query: query(props) });
}

export const snapshotPolicyStateMethods = { check, diff, create, update, read, delete: remove };

/** SnapshotPolicyState: its descriptor, field table and methods, as the registry (./index.ts) lists it. */
export const SnapshotPolicyState: KindEntry & WithExample = {
  example: snapshotPolicyStateExample,
  descriptor: policyDescriptor,
  table: policyTable,
  methods: snapshotPolicyStateMethods,
};

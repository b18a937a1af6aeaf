// SnapshotPolicyVolume: one volume's membership of a snapshot lifecycle policy that exists
// anyway, owned alone, so that a platform team keeps the policy while application teams attach
// their own volumes. Create adds only its volume, destroy removes only its volume (a list of one
// id each time: never a list computed from a read another stack may race).
//
// Evidence: the add carries no mark, and the policy lists a volume by id only, so a volume the
// policy holds is never taken for this stack's by its id. The service refuses to add a volume
// the policy already holds (assumed of the real service, which the emulator reproduces: the
// vendor's SDK and Terraform provider only ever add volumes the policy lacks), so the add's own
// success is the evidence: the policy did not hold the volume just before it, and holds it after.
// A volume held already is refused at preview and again before the add; one another adds between
// that read and the add makes the add refused, never taken.
import type * as pulumi from "@pulumi/pulumi";
import { SnapshotPolicyVolume as contract } from "../../api/contract/snapshot-policy-volume";
import { name } from "../../api/contract/common";
import { type ApiRecord, recordsIn } from "../../api/guards";
import { ConflictError, NotFoundError } from "../client/errors";
import { apiPath } from "../client/path";
import { readOrGone, withContext } from "../methods/calls";
import { adopt, adoptedInThisRun, type Adoptable, leavesAdopted, noteDeleteAdopted, previewAdoption, wasAdopted } from "../methods/adopt";
import { apiClient, log, scopeDefaults } from "../methods/context";
import type { Descriptor, Scoped } from "../methods/descriptor";
import type { KindDiff } from "../methods/diff";
import { describeSettings } from "../methods/describe";
import { OWN } from "../methods/inputs";
import type { KindEntry } from "../methods/kind-entry";
import { type CheckFailure, type Inputs, isUnknown } from "../methods/schema";
import { resourceTable } from "../methods/table";
import { snapshotPolicyVolumeExample } from "./snapshot-policy-volume.example";
import type { WithExample } from "./program-model";

type VolumeInputs = Scoped<{ policyId: number; volumeId: string; importId?: string; deleteAdopted?: boolean }>;

const NOUN = "policy volume";
const idOf = (i: Inputs) => `${String(i.policyId)}/${String(i.volumeId).toLowerCase()}`;
const where = (i: Inputs) => ({ project_id: Number(i.projectId), region_id: Number(i.regionId), policy_id: Number(i.policyId) });
const policyPath = (i: Inputs) => apiPath(contract.paths.item, where(i));

/** The policy with its volumes listed. */
const readPolicy = (i: Inputs): Promise<ApiRecord> => apiClient().record("GET", policyPath(i), { query: { need_volumes: true } });

/** The policy's entry for the volume, as this kind's record: the membership, named by policy and volume. */
function membership(policy: ApiRecord, volumeId: string): ApiRecord | undefined {
  const entry = recordsIn(policy.volumes).find((v) => String(v.volume_id).toLowerCase() === volumeId.toLowerCase());
  if (!entry) return undefined;
  const { id: policyId, project_id, region_id } = policy;
  return { ...entry, id: `${String(policyId)}/${String(entry.volume_id).toLowerCase()}`, policy_id: policyId, project_id, region_id };
}

/** The membership `id` (`<policyId>/<volumeId>`, or the volume's id alone) names in the inputs' policy; NotFoundError when the policy does not hold it. */
async function readMembership(inputs: Inputs, id: string): Promise<ApiRecord> {
  const volumeId = id.split("/").pop() ?? id;
  const path = policyPath(inputs);
  const found = membership(await readPolicy(inputs), volumeId);
  if (found) return found;
  throw new NotFoundError(404, "GET", path, { message: `Lifecycle policy ${String(inputs.policyId)} does not hold volume ${volumeId}.` });
}

export const policyVolumeDescriptor: Descriptor = {
  ...describeSettings({
    contract,
    inputs: {
      importId: {
        ...OWN.importId,
        type: name,
        doc:
          "Adopt the volume's membership of the policy, which the policy holds already, as `<policyId>/<volumeId>` (the two " +
          "inputs): `up` writes nothing, and destroy leaves the volume in the policy unless `deleteAdopted: true`. It never causes a diff.",
      },
    },
    label: (i) => `SnapshotPolicyVolume ${String(i.volumeId)} of policy ${String(i.policyId)}`,
    // `pulumi import` reads one by `<policyId>/<volumeId>`; cims-import does not list policies' volumes.
    import: {
      nouns: [NOUN, `${NOUN}s`],
      prefix: "policy-volume",
      id: (r) => String(r.id),
      name: (r) => r.volume_name,
      args: (r, fields, scope) => ({ policyId: Number(r.policy_id), ...fields, ...scope, importId: String(r.id) }),
    },
  }),
  importIdParts: ["policyId"],
  readRecord: readMembership,
};
export const policyVolumeTable = resourceTable(policyVolumeDescriptor);

const what = (i: Inputs) => policyVolumeDescriptor.label(i);
const adoptable: Adoptable = {
  table: policyVolumeTable,
  noun: NOUN,
  what,
  recordPath: (i) => policyPath(i),
  read: readMembership,
};

const known = (i: Inputs) => ["policyId", "volumeId", "projectId", "regionId"].every((k) => i[k] !== undefined && !isUnknown(i[k]));

function heldMessage(i: Inputs, race: boolean): string {
  return (
    `volumeId: policy ${String(i.policyId)} already holds volume ${String(i.volumeId)}` +
    (race ? " (someone attached it since this run read the policy, or an earlier attempt whose answer was lost did)" : "") +
    `, so nothing was added: a volume the stack did not attach is not its own. To manage that membership, adopt it on purpose: ` +
    `set \`importId: "${idOf(i)}"\` (destroy then leaves it in the policy unless \`deleteAdopted: true\`); otherwise attach another volume`
  );
}

/** At preview: the policy must exist, and hold the volume only when adopting it. */
async function previewHeld(olds: Inputs, i: Inputs): Promise<CheckFailure[]> {
  if (Object.keys(olds).length > 0 || !known(i)) return [];
  const policy = await readPolicy(i).catch((err: unknown) => {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  });
  if (!policy) {
    const reason = `policyId: no snapshot policy ${String(i.policyId)} in project ${String(i.projectId)}, region ${String(i.regionId)} (check the id and the resource's projectId/regionId)`;
    return [{ property: "policyId", reason }];
  }
  return membership(policy, String(i.volumeId)) ? [{ property: "volumeId", reason: heldMessage(i, false) }] : [];
}

async function check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const result = policyVolumeTable.check(olds, news, scopeDefaults);
  const inputs = result.inputs ?? {};
  if ((result.failures ?? []).length > 0) return result;
  const importId = inputs.importId;
  if (typeof importId === "string" && !isUnknown(importId) && known(inputs) && importId.toLowerCase() !== idOf(inputs)) {
    const reason = `importId: "${importId}" is not this resource's membership: give \`importId: "${idOf(inputs)}"\` (its policyId and volumeId), or change policyId and volumeId`;
    return { ...result, failures: [{ property: "importId", reason }] };
  }
  const failures = importId !== undefined ? await previewAdoption(adoptable, olds, inputs) : await previewHeld(olds, inputs);
  return { ...result, failures };
}

async function diff(id: string, olds: Inputs, news: Inputs): Promise<KindDiff> {
  noteDeleteAdopted(id, news);
  return policyVolumeTable.diff(olds, news);
}

/** One PUT naming only this volume; the service refuses a volume the policy already holds. */
async function add(inputs: VolumeInputs): Promise<ApiRecord> {
  const path = apiPath(contract.paths.add, where(inputs));
  try {
    return await apiClient().record("PUT", path, { body: { volume_ids: [inputs.volumeId] } });
  } catch (err) {
    if (err instanceof ConflictError) throw new Error(heldMessage(inputs, true), { cause: err });
    throw err;
  }
}

async function create(inputs: VolumeInputs): Promise<pulumi.dynamic.CreateResult> {
  if (inputs.importId !== undefined)
    return withContext(what(inputs), () => adopt(adoptable, inputs, () => readMembership(inputs, idOf(inputs))));
  return withContext(what(inputs), async () => {
    if (membership(await readPolicy(inputs), inputs.volumeId)) throw new Error(heldMessage(inputs, false));
    const answer = await add(inputs);
    const made = membership(answer, inputs.volumeId) ?? (await readMembership(inputs, inputs.volumeId));
    return { id: idOf(inputs), outs: { ...policyVolumeTable.outputs(inputs, made, []), adopted: false } };
  });
}

/** Only `deleteAdopted` changes in place, and it is the state's alone: nothing is written. */
async function update(_id: string, olds: Inputs, news: VolumeInputs): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: { ...olds, deleteAdopted: news.deleteAdopted ?? false, adopted: wasAdopted(olds) } };
}

/** Removes only this volume, and only while the policy holds it; an adopted one stays unless deleteAdopted. */
async function remove(id: string, props: VolumeInputs): Promise<void> {
  const label = what(props);
  if (adoptedInThisRun(label, id)) return;
  if (await leavesAdopted(label, NOUN, id, props)) return;
  await withContext(label, async () => {
    const held = await readMembership(props, props.volumeId).catch((err: unknown) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
    if (!held) return log(`${label}: the policy no longer holds the volume: nothing to remove`);
    await apiClient().record("PUT", apiPath(contract.paths.remove, where(props)), { body: { volume_ids: [props.volumeId] } });
  });
}

/** Refresh: the volume gone from the policy (or the policy gone) is the resource gone. */
async function read(id: string, props: VolumeInputs): Promise<pulumi.dynamic.ReadResult> {
  return readOrGone(id, props, policyPath(props), (r) => policyVolumeTable.fromRecord(r, props), policyVolumeTable.rules, {
    get: () => readMembership(props, props.volumeId),
  });
}

/** SnapshotPolicyVolume: its descriptor, field table and methods, as the registry (./index.ts) lists it. */
export const SnapshotPolicyVolume: KindEntry & WithExample = {
  example: snapshotPolicyVolumeExample,
  descriptor: policyVolumeDescriptor,
  table: policyVolumeTable,
  methods: { check, diff, create, update, read, delete: remove },
};

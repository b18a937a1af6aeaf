// A snapshot lifecycle policy's volumes one by one (the vendor SDK's snapshot_schedules
// add_volumes and remove_volumes: synchronous PUTs of `{volume_ids}` that answer the policy with
// its volumes listed). The volumes live in their policy's record (`lifecycle_policies[].volumes`),
// whose GET the policy's kind serves. Each volume must exist in the policy's project and region
// (404 otherwise), and an empty list is refused (400). Adding a volume the policy holds already
// is refused (409): the emulator is strict here, so a client that adds a volume knows from the
// answer alone that the volume was not there before. Removing one it does not hold changes nothing.
import { SnapshotPolicyVolume as contract } from "../../api/contract/snapshot-policy-volume";
import { type ApiRecord, isRecord, recordsIn, stringsIn } from "../../api/guards";
import { HttpError, type InvalidFields, notFound } from "../http-errors";
import { type Call, findScoped, inScope, type Services } from "../router";
import type { EmulatedResource } from "./emulated-resource";
import { SnapshotPolicyState } from "./snapshot-policy-state";

/** The body both calls take: a non-empty list of volume ids. */
function volumeIds(body: unknown): InvalidFields {
  const ids = isRecord(body) ? body.volume_ids : undefined;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string"))
    return { volume_ids: ["This field is required: a list of volume IDs."] };
  if (ids.length === 0) return { volume_ids: ["Ensure this field has at least 1 elements."] };
  return {};
}

/** The policy the path names, and the volumes the body names, each one of the policy's project and region (404 otherwise). */
function policyAndVolumes(services: Services, call: Call): { policy: ApiRecord; volumes: ApiRecord[] } {
  const policy = findScoped(services, call, "lifecycle_policies", "policy_id", "Lifecycle policy", "int");
  const ids = [...new Set(stringsIn(call.checked().volume_ids).map((id) => id.toLowerCase()))];
  const volumes = ids.map((id) => {
    const volume = services.store.get("volumes", id);
    if (!volume || !inScope(volume, Number(policy.project_id), Number(policy.region_id))) throw notFound("Volume", id);
    return volume;
  });
  return { policy, volumes };
}

const held = (policy: ApiRecord): ApiRecord[] => recordsIn(policy.volumes);
const holds = (policy: ApiRecord, id: unknown) => held(policy).some((v) => String(v.volume_id).toLowerCase() === String(id));

function save(services: Services, policy: ApiRecord, volumes: ApiRecord[]) {
  const updated = { ...policy, volumes };
  services.store.put("lifecycle_policies", updated);
  services.store.persist();
  return { status: 200, body: updated };
}

function add(services: Services, call: Call) {
  const { policy, volumes } = policyAndVolumes(services, call);
  const there = volumes.find((v) => holds(policy, v.id));
  if (there) throw new HttpError(409, "ConflictError", `Volume ${String(there.id)} is already in lifecycle policy ${String(policy.id)}.`);
  return save(services, policy, [...held(policy), ...volumes.map((v) => ({ volume_id: v.id, volume_name: v.name }))]);
}

function remove(services: Services, call: Call) {
  const { policy, volumes } = policyAndVolumes(services, call);
  const gone = new Set(volumes.map((v) => String(v.id)));
  return save(
    services,
    policy,
    held(policy).filter((v) => !gone.has(String(v.volume_id).toLowerCase())),
  );
}

/** SnapshotPolicyVolume: a policy's add and remove of volumes (SnapshotPolicy's volumeIds use them too); its GET is the policy's. */
export const SnapshotPolicyVolume: EmulatedResource = {
  contract,
  operations: { create: add, delete: remove },
  bodies: { create: volumeIds, delete: volumeIds },
  servedBy: SnapshotPolicyState,
};

// Snapshot lifecycle policies, as the vendor SDK calls them (`cloud.snapshot_schedules`): POST
// makes one and answers it (synchronous), GET and the list read them, PATCH sets the name and
// status, add_schedules and remove_schedules change the schedules one call at a time,
// DELETE removes it, estimate_max_policy_usage says what a policy would keep at most
// (SnapshotPolicyVolume's file serves the volumes' add and remove). Volumes
// are listed in an answer only with need_volumes=true; without it the field is there, empty (the
// vendor's model requires it). SnapshotPolicyState's calls are these same ones.
import { randomUUID } from "node:crypto";
import { apiTimestamp } from "../clock";
import { notFound, validationError } from "../http-errors";
import { type Call, findScoped, inScope, listPage, listScoped, type RequestContext, scopeOf, type Services } from "../router";
import type { EmulatedResource } from "./emulated-resource";
import { applyUpdate } from "../../api/contract";
import { ScheduleAdditions, ScheduleRemovals, SnapshotPolicy as contract } from "../../api/contract/snapshot-policy";
import { type ApiRecord, isRecord, recordsIn, stringsIn } from "../../api/guards";

/** The user the emulator's key belongs to, as the seed's policies name it. */
const USER_ID = 7;
const COLLECTION = "lifecycle_policies";

/** PATCH takes the name and status only (the vendor SDK's update params): the schedules and volumes have calls of their own. */
const PolicyPatch = { fields: { name: contract.fields.name, status: contract.fields.status }, omitted: "unmanaged" } as const;

function find(services: Services, ctx: RequestContext): ApiRecord {
  return findScoped(services, ctx, COLLECTION, "policy_id", "Lifecycle policy", "int");
}

function view(policy: ApiRecord, ctx: RequestContext): ApiRecord {
  if (ctx.query.get("need_volumes") === "true") return { ...policy, volumes: policy.volumes ?? [] };
  return { ...policy, volumes: [] };
}

function save(services: Services, call: Call, policy: ApiRecord) {
  const updated = { ...policy, updated_at: apiTimestamp(call.now) };
  services.store.put(COLLECTION, updated);
  services.store.persist();
  return { status: 200, body: view(updated, call) };
}

/** A schedule as the service records it: its id, owner and user beside what was asked. */
function scheduleRecord(schedule: unknown, policyId: number): ApiRecord {
  const given = isRecord(schedule) ? schedule : {};
  return { ...given, id: randomUUID(), owner: "lifecycle_policy", owner_id: policyId, user_id: USER_ID };
}

/** The policy's volume entries for these ids; a volume not in the policy's project and region is 404. */
function volumesOf(services: Services, ctx: RequestContext, ids: readonly string[]): ApiRecord[] {
  const { projectId, regionId } = scopeOf(ctx);
  return ids.map((id) => {
    const volume = services.store.get("volumes", id.toLowerCase());
    if (!inScope(volume, projectId, regionId)) throw notFound("Volume", id);
    return { volume_id: String(volume!.id), volume_name: String(volume!.name ?? "") };
  });
}

function create(services: Services, call: Call) {
  const body = call.checked();
  const { projectId, regionId } = scopeOf(call);
  const ids = services.store.list(COLLECTION).map((p) => Number(p.id));
  const id = Math.max(100, ...ids) + 1;
  const volumes = volumesOf(services, call, stringsIn(body.volume_ids));
  const policy: ApiRecord = {
    id,
    name: body.name,
    action: body.action,
    status: body.status ?? "active",
    project_id: projectId,
    region_id: regionId,
    user_id: USER_ID,
    schedules: recordsIn(body.schedules).map((s) => scheduleRecord(s, id)),
    volumes: [...new Map(volumes.map((v) => [v.volume_id, v])).values()],
    created_at: apiTimestamp(call.now),
  };
  return save(services, call, policy);
}

function addSchedules(services: Services, call: Call) {
  const policy = find(services, call);
  const added = recordsIn(call.checked().schedules).map((s) => scheduleRecord(s, Number(policy.id)));
  return save(services, call, { ...policy, schedules: [...recordsIn(policy.schedules), ...added] });
}

function removeSchedules(services: Services, call: Call) {
  const policy = find(services, call);
  const ids = stringsIn(call.checked().schedule_ids);
  const held = recordsIn(policy.schedules);
  const unknown = ids.filter((id) => !held.some((s) => s.id === id));
  if (unknown.length > 0)
    throw validationError({ schedule_ids: unknown.map((id) => `Schedule ${id} is not in policy ${String(policy.id)}.`) });
  return save(services, call, { ...policy, schedules: held.filter((s) => !ids.includes(String(s.id))) });
}

/**
 * What a policy of this body would keep at most (the vendor SDK's `estimate_max_usage`): each
 * volume holds up to the sum of its schedules' `max_quantity` snapshots (the sequence), each the
 * volume's size. The vendor documents the fields, not how the service prices them: the emulator
 * has no price list, so the cost is one the UI hides (`price_status: "hide"`), with no prices.
 */
function estimateMaxUsage(services: Services, call: Call) {
  const body = call.checked();
  const volumes = volumesOf(services, call, [...new Set(stringsIn(body.volume_ids).map((v) => v.toLowerCase()))]);
  const sequence = recordsIn(body.schedules).reduce((n, s) => n + (typeof s.max_quantity === "number" ? s.max_quantity : 0), 0);
  const size = volumes.reduce((n, v) => n + Number(services.store.get("volumes", v.volume_id)?.size ?? 0), 0);
  return {
    status: 200,
    body: {
      max_volume_snapshot_sequence_length: sequence,
      max_volume_snapshot_count_usage: sequence * volumes.length,
      max_volume_snapshot_size_usage: sequence * size,
      max_cost: {
        currency_code: null,
        discount_percent: null,
        price_per_hour: null,
        price_per_month: null,
        price_status: "hide",
        price_without_discount_per_month: null,
        tax_percent: 0,
      },
    },
  };
}

function remove(services: Services, ctx: RequestContext) {
  const policy = find(services, ctx);
  services.store.delete(COLLECTION, policy.id);
  services.store.persist();
  return { status: 204 };
}

/** SnapshotPolicy: the lifecycle policies, and what the service does on each of their calls. */
export const SnapshotPolicy: EmulatedResource = {
  store: { name: COLLECTION, key: "id", complete: (record) => ({ volumes: [], ...record }) },
  contract,
  operations: {
    create,
    list: (services, ctx) =>
      listPage(
        ctx,
        listScoped(services, ctx, COLLECTION).map((p) => view(p, ctx)),
      ),
    get: (services, ctx) => ({ status: 200, body: view(find(services, ctx), ctx) }),
    update: (services, call) => save(services, call, applyUpdate(PolicyPatch, find(services, call), call.checked())),
    delete: remove,
    more: { addSchedules, removeSchedules, estimateMaxUsage },
  },
  bodies: {
    update: PolicyPatch,
    addSchedules: ScheduleAdditions,
    removeSchedules: ScheduleRemovals,
  },
};

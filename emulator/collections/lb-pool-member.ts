// Load balancer pool members one by one (the vendor SDK's members resource): POST, PATCH
// and DELETE through tasks, GET one and the list. Members live inside their pool's record
// (`lbpools[].members`, as the pool's whole-list PATCH keeps them), so the subnet a member
// uses stays undeletable (subnet.ts) whichever way the member was made. A task locks the
// pool: its effect is the whole pool record with the member changed.
import { randomUUID } from "node:crypto";
import { type ApiRecord, recordsIn } from "../../api/guards";
import { applyUpdate, recordFields } from "../../api/contract";
import { LbPoolMember as contract } from "../../api/contract/lb-pool-member";
import { memberKey } from "../../api/members";
import { HttpError, notFound } from "../http-errors";
import { completeMember } from "../store/complete";
import {
  assertUnlocked,
  type Call,
  findScoped,
  inScope,
  listPage,
  type RequestContext,
  type Services,
  startTask,
  uuidParam,
} from "../router";
import type { EmulatedResource } from "./emulated-resource";

const pool = (services: Services, ctx: RequestContext): ApiRecord => findScoped(services, ctx, "lbpools", "pool_id", "Load balancer pool");

/** The pool's members as the service answers them (the vendor's Member model), by address. */
const members = (p: ApiRecord): ApiRecord[] => recordsIn(p.members);

function find(services: Services, ctx: RequestContext): { pool: ApiRecord; member: ApiRecord } {
  const p = pool(services, ctx);
  const id = uuidParam(ctx, "member_id");
  const member = members(p).find((m) => String(m.id).toLowerCase() === id);
  if (!member) throw notFound("Load balancer pool member", id);
  return { pool: p, member };
}

/** A task that puts the pool back with its members changed; it locks the pool while it runs. */
function poolTask(services: Services, call: Call, p: ApiRecord, list: ApiRecord[], created?: string) {
  return startTask(services, call, {
    projectId: Number(p.project_id),
    regionId: Number(p.region_id),
    effects: [{ op: "put", collection: "lbpools", record: { ...p, members: list } }],
    locks: [{ collection: "lbpools", id: String(p.id) }],
    ...(created ? { created: [created] } : {}),
  });
}

/**
 * A member's subnet or instance must exist in the pool's scope (instances come from the seed),
 * whether the member is added alone or in the pool's whole list: the service refuses it with 404.
 */
export function assertTargetExists(services: Services, p: ApiRecord, member: ApiRecord): void {
  const scoped = (collection: string, id: unknown) =>
    inScope(services.store.get(collection, id), Number(p.project_id), Number(p.region_id));
  if (typeof member.subnet_id === "string" && !scoped("subnets", member.subnet_id)) throw notFound("Subnet", member.subnet_id);
  if (typeof member.instance_id === "string" && !scoped("instances", member.instance_id)) throw notFound("Instance", member.instance_id);
}

function create(services: Services, call: Call) {
  const p = pool(services, call);
  const body = call.checked();
  assertUnlocked(services, "lbpools", String(p.id), "Load balancer pool");
  assertTargetExists(services, p, body);
  const key = memberKey(body.address, body.protocol_port);
  const taken = members(p).find((m) => memberKey(m.address, m.protocol_port) === key);
  if (taken) {
    throw new HttpError(409, "ConflictError", `Load balancer pool ${String(p.id)} has a member at ${key} already (${String(taken.id)}).`);
  }
  const id = randomUUID();
  // The record keeps no instance_id (the service's Member has none); the subnet is the one given.
  const member = completeMember({ ...recordFields(contract, body), id, subnet_id: body.subnet_id ?? null });
  return poolTask(services, call, p, [...members(p), member], id);
}

function patch(services: Services, call: Call) {
  const { pool: p, member } = find(services, call);
  const body = call.checked();
  assertUnlocked(services, "lbpools", String(p.id), "Load balancer pool");
  const updated = applyUpdate(contract, member, body);
  // A PATCH that changes nothing starts no task: the service answers {"tasks": []}.
  if (JSON.stringify(updated) === JSON.stringify(member)) return { status: 200, body: { tasks: [] } };
  return poolTask(
    services,
    call,
    p,
    members(p).map((m) => (m === member ? updated : m)),
  );
}

function remove(services: Services, call: Call) {
  const { pool: p, member } = find(services, call);
  assertUnlocked(services, "lbpools", String(p.id), "Load balancer pool");
  return poolTask(
    services,
    call,
    p,
    members(p).filter((m) => m !== member),
  );
}

/** LbPoolMember: what the service does on each call on a pool's members one by one. */
export const LbPoolMember: EmulatedResource = {
  contract,
  operations: {
    create,
    list: (services, ctx) => listPage(ctx, members(pool(services, ctx))),
    get: (services, ctx) => ({ status: 200, body: find(services, ctx).member }),
    update: patch,
    delete: remove,
  },
};

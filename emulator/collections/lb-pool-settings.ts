// Load balancer pools: GET (public API reference) and PATCH (spec, asynchronous; also at the
// vendor SDK's v2 path). Pools come from the seed; the PATCH result is applied when its task
// finishes. Members with the same address and port as an existing member are kept as they
// are (same id, untouched); the others are created anew. A health monitor is set by the
// PATCH, created by POST .../healthmonitor (the SDK's, a task) and removed by its DELETE.
import { type ApiRecord, isRecord, recordsIn } from "../../api/guards";
import type { EmulatedResource } from "./emulated-resource";
import { randomUUID } from "node:crypto";
import { assertUnlocked, type Call, findScoped, listPage, listScoped, type RequestContext, type Services, startTask } from "../router";
import { stringifyJson as stringifyLossless } from "../../api/json";
import { applyUpdate } from "../../api/contract";
import { HealthMonitor, LbPoolSettings as contract } from "../../api/contract/lb-pool-settings";
import { memberKey as key } from "../../api/members";
import { HttpError, notFound } from "../http-errors";
import { completeHealthmonitor, completeMember } from "../store/complete";
import { assertTargetExists } from "./lb-pool-member";
import { canonicalBody } from "../validation";

function find(services: Services, ctx: RequestContext): ApiRecord {
  return findScoped(services, ctx, "lbpools", "pool_id", "Load balancer pool");
}

type Member = Record<string, unknown>;

/** address+port, the address in one spelling; a seeded non-IP address is taken as written. */
const memberKey = (m: Member): string => key(m.address, m.protocol_port);

export function mergeMembers(existing: Member[], requested: Member[]): { members: Member[]; created: string[] } {
  const created: string[] = [];
  const members = requested.map((m) => {
    // The same address spelled differently (2001:DB8::a, 2001:db8:0::a) is the same member.
    const key = memberKey(m);
    const kept = existing.find((e) => memberKey(e) === key);
    if (kept) return kept;
    const id = randomUUID();
    created.push(id);
    return completeMember({ ...m, id });
  });
  return { members, created };
}

function patch(services: Services, call: Call) {
  const pool = find(services, call);
  // Canonical spellings; members in the service's own order (by address and port).
  const body = call.checked();
  const id = String(pool.id);
  assertUnlocked(services, "lbpools", id, "Load balancer pool");
  for (const member of recordsIn(body.members)) assertTargetExists(services, pool, member);

  // The contract's fields as the PATCH sets them; members are kept by address and port, and a
  // health monitor gets what the service fills (its own rules, below).
  let created: string[] = [];
  const updated: ApiRecord = {
    ...applyUpdate(contract, pool, body, {
      own: {
        members: (held, given) => {
          const merged = mergeMembers(recordsIn(held), recordsIn(given));
          created = merged.created;
          return merged.members;
        },
        // The request check has refused a health monitor that is no object (null removes it by its own call).
        healthmonitor: (held, given) => completeHealthmonitor(isRecord(given) ? given : {}, isRecord(held) ? held : null),
      },
    }),
    provisioning_status: "ACTIVE",
  };

  // A PATCH that changes nothing starts no task: the service answers {"tasks": []}.
  const same = (r: ApiRecord) => stringifyLossless(canonicalBody({ ...r, provisioning_status: "ACTIVE" }, contract));
  if (same(updated) === same(pool)) return { status: 200, body: { tasks: [] } };

  // While the task runs, the pool shows it is being updated.
  services.store.put("lbpools", { ...pool, provisioning_status: "PENDING_UPDATE" });
  return startTask(services, call, {
    projectId: Number(pool.project_id),
    regionId: Number(pool.region_id),
    effects: [{ op: "put", collection: "lbpools", record: updated }],
    rollback: [{ op: "put", collection: "lbpools", record: pool }],
    locks: [{ collection: "lbpools", id }],
    created,
  });
}

/**
 * POST .../healthmonitor (the vendor SDK's): gives the pool a health monitor through a task;
 * 409 when it has one already (a PATCH changes it).
 */
function createHealthmonitor(services: Services, call: Call) {
  const pool = find(services, call);
  const body = call.checked();
  const id = String(pool.id);
  assertUnlocked(services, "lbpools", id, "Load balancer pool");
  if (pool.healthmonitor) throw new HttpError(409, "ConflictError", `Load balancer pool ${id} has a health monitor already.`);
  const monitor = completeHealthmonitor(body);
  return startTask(services, call, {
    projectId: Number(pool.project_id),
    regionId: Number(pool.region_id),
    effects: [{ op: "put", collection: "lbpools", record: { ...pool, healthmonitor: monitor } }],
    locks: [{ collection: "lbpools", id }],
    created: [String(monitor.id)],
  });
}

/** DELETE .../healthmonitor (reference): removes the pool's health monitor; 204, or 404 when it has none. */
function removeHealthmonitor(services: Services, ctx: RequestContext) {
  const pool = find(services, ctx);
  assertUnlocked(services, "lbpools", String(pool.id), "Load balancer pool");
  if (pool.healthmonitor === null || pool.healthmonitor === undefined) throw notFound("Health monitor of pool", pool.id);
  services.store.put("lbpools", { ...pool, healthmonitor: null });
  services.store.persist();
  return { status: 204 };
}

/** LbPoolSettings: the pools (the seed's; the service makes them with their load balancer), and what the service does on each of their calls. */
export const LbPoolSettings: EmulatedResource = {
  store: {
    name: "lbpools",
    key: "id",
    complete: (record) => ({
      admin_state_up: true,
      operating_status: "ONLINE",
      provisioning_status: "ACTIVE",
      healthmonitor: null,
      session_persistence: null,
      ...record,
      listeners: refs(record.listeners),
      loadbalancers: refs(record.loadbalancers),
      members: recordsIn(record.members).map((m) => completeMember(m)),
      ...(isRecord(record.healthmonitor) ? { healthmonitor: completeHealthmonitor(record.healthmonitor, record.healthmonitor) } : {}),
    }),
  },
  contract,
  operations: {
    list: (services, ctx) => listPage(ctx, listScoped(services, ctx, "lbpools")),
    get: (services, ctx) => ({ status: 200, body: find(services, ctx) }),
    update: patch,
    more: { updateV2: patch, createHealthmonitor, deleteHealthmonitor: removeHealthmonitor },
  },
  /** POST .../healthmonitor (the vendor SDK's): a whole health monitor. */
  bodies: { createHealthmonitor: HealthMonitor },
};

/** References as the service lists them: objects with an id (a seed may give bare ids). */
const refs = (list: unknown) => (Array.isArray(list) ? list.map((r) => (isRecord(r) ? r : { id: String(r) })) : []);

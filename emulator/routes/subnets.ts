// Subnets: POST (spec, asynchronous) and GET/PATCH/DELETE by id (public API reference).
import { randomUUID } from "node:crypto";
import { apiTimestamp } from "../clock";
import { notFound, validationError } from "../errors";
import { addressCount, contains, firstHost, overlaps, parseNetwork } from "../ipnet";
import { assertUnlocked, bodyObject, deleteByTask, findScoped, inScope, intParam, requireValid, type RequestContext, type Router, type Services, startTask } from "../router";
import type { ApiRecord } from "../state";
import { validateSubnetCreate, validateSubnetPatch } from "../validation";
import { mergeTags } from "./tags";

const BASE = "/cloud/v1/subnets/:project_id/:region_id";

export function registerSubnetRoutes(router: Router, services: Services): void {
  router.add("POST", BASE, (ctx) => create(services, ctx));
  router.add("GET", `${BASE}/:subnet_id`, (ctx) => ({ status: 200, body: find(services, ctx) }));
  router.add("PATCH", `${BASE}/:subnet_id`, (ctx) => patch(services, ctx));
  router.add("DELETE", `${BASE}/:subnet_id`, (ctx) => remove(services, ctx));
}

function create(services: Services, ctx: RequestContext) {
  const projectId = intParam(ctx, "project_id");
  const regionId = intParam(ctx, "region_id");
  const body = bodyObject(ctx);
  requireValid(validateSubnetCreate(body));
  const { store } = services;
  const network = store.get("networks", body.network_id);
  if (!inScope(network, projectId, regionId)) throw notFound("Network", body.network_id);
  const routerId = body.router_id_to_connect;
  if (typeof routerId === "string" && !inScope(store.get("routers", routerId), projectId, regionId)) throw notFound("Router", routerId);

  const cidr = body.cidr as string;
  const gateway = body.gateway_ip === undefined ? firstHost(cidr) : (body.gateway_ip as string | null);
  if (gateway !== null && !contains(cidr, gateway)) throw validationError({ gateway_ip: [`Gateway ${gateway} is not inside ${cidr}.`] });
  const id = randomUUID();
  const now = apiTimestamp(ctx.now);
  const count = addressCount(cidr);
  const record: ApiRecord = {
    id,
    name: body.name,
    cidr,
    network_id: body.network_id,
    ip_version: parseNetwork(cidr).version,
    enable_dhcp: body.enable_dhcp ?? true,
    connect_to_network_router: body.connect_to_network_router ?? true,
    router_id_to_connect: routerId ?? null,
    gateway_ip: gateway,
    dns_nameservers: body.dns_nameservers ?? [],
    host_routes: body.host_routes ?? [],
    tags: body.tags ?? {},
    total_ips: count,
    available_ips: gateway === null ? count : count - 1n,
    has_router: (body.connect_to_network_router ?? true) === true && gateway !== null,
    project_id: projectId,
    region_id: regionId,
    created_at: now,
    updated_at: now,
  };
  // Subnets still being created count too: two overlapping creates in flight must not both succeed.
  const creating = Object.values(store.tasks)
    .filter((t) => (t.state === "NEW" || t.state === "RUNNING") && t.task_type === "create_subnet" && t._emulator.failWith === undefined)
    .flatMap((t) => t._emulator.effects.flatMap((e) => (e.op === "put" ? [e.record] : [])));
  const clash = [...store.list("subnets"), ...creating].find((s) => s.network_id === body.network_id && overlaps(String(s.cidr), cidr));
  return startTask(services, ctx, {
    taskType: "create_subnet",
    projectId,
    regionId,
    effects: [{ op: "put", collection: "subnets", record }],
    locks: [{ collection: "subnets", id }],
    createdResources: { subnets: [id] },
    failWith: clash
      ? `Invalid input for operation: Requested subnet with cidr: ${cidr} for network: ${String(body.network_id)} overlaps with another subnet (${String(clash.id)}, ${String(clash.cidr)}).`
      : undefined,
  });
}

function find(services: Services, ctx: RequestContext): ApiRecord {
  return findScoped(services, ctx, "subnets", "subnet_id", "Subnet");
}

function unlocked(services: Services, id: string): void {
  assertUnlocked(services, "subnets", id, "Subnet");
}

function patch(services: Services, ctx: RequestContext) {
  const subnet = find(services, ctx);
  const body = bodyObject(ctx);
  requireValid(validateSubnetPatch(body));
  unlocked(services, String(subnet.id));
  if (typeof body.gateway_ip === "string" && !contains(String(subnet.cidr), body.gateway_ip)) {
    throw validationError({ gateway_ip: [`Gateway ${body.gateway_ip} is not inside ${String(subnet.cidr)}.`] });
  }
  const updated: ApiRecord = { ...subnet, updated_at: apiTimestamp(ctx.now) };
  for (const field of ["name", "enable_dhcp", "gateway_ip"] as const) if (field in body) updated[field] = body[field];
  for (const field of ["dns_nameservers", "host_routes"] as const) if (field in body) updated[field] = body[field] ?? [];
  if ("tags" in body) updated.tags = mergeTags(subnet.tags, body.tags);
  services.store.put("subnets", updated);
  services.store.persist();
  return { status: 200, body: updated };
}

function remove(services: Services, ctx: RequestContext) {
  return deleteByTask(services, ctx, find(services, ctx), "subnets", "Subnet", "delete_subnet");
}

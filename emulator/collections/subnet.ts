// Subnets: POST (spec, asynchronous) and GET/PATCH/DELETE by id (public API reference).
import { type ApiRecord, recordsIn } from "../../api/guards";
import { randomUUID } from "node:crypto";
import { apiTimestamp } from "../clock";
import { HttpError, notFound, validationError } from "../http-errors";
import { addressCount, contains, firstHost, isUuid4, overlaps, parseCidr } from "../../api/net";
import { type Call, inScope, listPage, listScoped, madeByTask, type RequestContext, scopeOf, type Services, startTask } from "../router";
import type { EmulatedResource } from "./emulated-resource";
import { taggedItem } from "./tagged-item";
import { recordFields } from "../../api/contract";
import { Subnet as contract } from "../../api/contract/subnet";
import { newTags } from "../tags";
import { gatewayIssue } from "../../api/rules";
import { toSnake } from "../../api/names";

function create(services: Services, call: Call) {
  const scope = scopeOf(call);
  const { projectId, regionId } = scope;
  const body = call.checked();
  const { store } = services;
  const network = store.get("networks", body.network_id);
  if (!inScope(network, projectId, regionId)) throw notFound("Network", body.network_id);
  const routerId = body.router_id_to_connect;
  if (typeof routerId === "string" && !inScope(store.get("routers", routerId), projectId, regionId)) throw notFound("Router", routerId);

  // The request check has refused a body without a CIDR, or with a gateway not an address or null.
  const cidr = String(body.cidr);
  const gateway = body.gateway_ip === undefined ? firstHost(cidr) : typeof body.gateway_ip === "string" ? body.gateway_ip : null;
  const id = randomUUID();
  const taskId = randomUUID();
  const now = apiTimestamp(call.now);
  const count = addressCount(cidr);
  // As the service's records are: the contract's fields as given or defaulted (canonical
  // spellings; tags as a list with the service's own read-only tag; no create-only
  // instructions), what the service chooses for those left to it (the CIDR's version, the
  // first host as gateway), and its own fields; has_router is deprecated and always false.
  const record: ApiRecord = {
    id,
    ...recordFields(contract, body, { newTags: (given) => newTags(given, taskId) }),
    ip_version: parseCidr(cidr)!.version,
    gateway_ip: gateway,
    total_ips: count,
    available_ips: gateway === null ? count : count - 1n,
    has_router: false,
    ...madeByTask(services, scope, taskId, now),
  };
  // Subnets still being created count too: two overlapping creates in flight must not both succeed.
  const creating = Object.values(store.tasks)
    .filter((t) => (t.state === "NEW" || t.state === "RUNNING") && t.task_type === call.op.task && t._emulator.failWith === undefined)
    .flatMap((t) => t._emulator.effects.flatMap((e) => (e.op === "put" ? [e.record] : [])));
  const clash = [...store.list("subnets"), ...creating].find((s) => s.network_id === body.network_id && overlaps(String(s.cidr), cidr));
  return startTask(services, call, {
    taskId,
    projectId,
    regionId,
    effects: [{ op: "put", collection: "subnets", record }],
    locks: [{ collection: "subnets", id }],
    created: [id],
    failWith: clash
      ? `Invalid input for operation: Requested subnet with cidr: ${cidr} for network: ${String(body.network_id)} overlaps with another subnet (${String(clash.id)}, ${String(clash.cidr)}).`
      : undefined,
  });
}

/**
 * GET, PATCH and DELETE by id. A PATCH's gateway is held to the create rule's words
 * (api/rules.ts) against the subnet's own cidr. A DELETE is refused while a load balancer pool
 * member of the scope still uses the subnet (the balancer holds a port with an address from
 * it), as the service refuses it.
 */
const item = taggedItem({
  collection: "subnets",
  idParam: "subnet_id",
  what: "Subnet",
  contract,
  checkPatch: (subnet, body) => {
    if (typeof body.gateway_ip !== "string") return;
    if (!contains(String(subnet.cidr), body.gateway_ip)) {
      throw validationError({ gateway_ip: [`Must be inside cidr ${String(subnet.cidr)}.`] });
    }
    // The create's rule for the rest (network and broadcast addresses), against the subnet's own cidr.
    const issue = gatewayIssue(String(subnet.cidr), body.gateway_ip, toSnake);
    if (issue) throw validationError({ gateway_ip: [issue] });
  },
  checkDelete: (subnet, services, ctx) => {
    const id = String(subnet.id);
    const used = listScoped(services, ctx, "lbpools").some((pool) => recordsIn(pool.members).some((m) => m.subnet_id === id));
    if (used)
      throw new HttpError(
        409,
        "ConflictError",
        `Unable to complete operation on subnet ${id}: One or more ports have an IP allocation from this subnet.`,
      );
  },
});

/** GET subnets (reference): the scope's subnets, optionally of one network. */
function list(services: Services, ctx: RequestContext) {
  const network = ctx.query.get("network_id");
  if (network !== null && !isUuid4(network)) throw validationError({ network_id: ["Must be a UUID (version 4)."] });
  const all = listScoped(services, ctx, "subnets");
  return listPage(ctx, network === null ? all : all.filter((s) => s.network_id === network.toLowerCase()));
}

/** Subnet: the subnets, and what the service does on each of its calls. */
export const Subnet: EmulatedResource = {
  store: {
    name: "subnets",
    key: "id",
    complete: (record, region) => ({
      has_router: false,
      creator_task_id: null,
      task_id: null,
      dns_nameservers: [],
      host_routes: [],
      tags: [],
      region: region(record.region_id),
      ...record,
    }),
  },
  contract,
  operations: { create, list, get: item.get, update: item.patch, delete: item.remove },
};

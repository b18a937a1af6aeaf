// Subnet: POST subnets (asynchronous; the id comes from the task), PATCH for the fields
// the service can change in place, DELETE (asynchronous), GET for refresh.
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { apiPath } from "../client/path";
import { overlaps } from "../../emulator/ipnet";
import { parseCidr } from "../../emulator/validation";
import { changedFields, diffResult, type FieldRule, sameValue } from "./diff";
import { createViaTask, deleteViaTask, outputKeys, plain, readOrGone, patchBody, patchOrRead, scopeFailures, withContext, withoutProvider } from "./ops";
import { cidr, type Inputs, ipAddress, isUnknown, nonBlank, scope, tags, timeouts, type Timeouts, userInputs, uuid4, validate } from "./schema";
import { subnetShim } from "./shim";

/** A static route advertised via DHCP. */
export interface HostRoute {
  /** Destination network, CIDR. */
  destination: string;
  /** Next hop, an IP address. */
  nexthop: string;
}

export interface SubnetArgs {
  /** Subnet name, not empty. Updates in place. */
  readonly name: pulumi.Input<string>;
  /** Network in CIDR form, no host bits set (`10.0.0.0/24`). Changing it replaces the subnet. */
  readonly cidr: pulumi.Input<string>;
  /** Network the subnet belongs to (uuid4). Changing it replaces the subnet. */
  readonly networkId: pulumi.Input<string>;
  /** Give the network's router a gateway in this subnet. Default true; must be false when `gatewayIp` is null. Replaces. */
  readonly connectToNetworkRouter?: pulumi.Input<boolean>;
  /** DNS servers advertised via DHCP. Omitted: the service's default; null or []: none. Updates in place. */
  readonly dnsNameservers?: pulumi.Input<pulumi.Input<string>[] | null>;
  /** DHCP on or off. Default true (false is sent, never dropped). Updates in place. */
  readonly enableDhcp?: pulumi.Input<boolean>;
  /** Gateway IP. Omitted: the service allocates one (see the `gatewayIp` output); null: no gateway. Updates in place. */
  readonly gatewayIp?: pulumi.Input<string | null>;
  /** Static routes advertised via DHCP. Omitted: none managed; null or []: none. Updates in place. */
  readonly hostRoutes?: pulumi.Input<pulumi.Input<{ destination: pulumi.Input<string>; nexthop: pulumi.Input<string> }>[] | null>;
  /** 4 or 6; default: the version of `cidr`, which it must match. Replaces. */
  readonly ipVersion?: pulumi.Input<4 | 6>;
  /** Router to connect to (uuid4); requires `connectToNetworkRouter` not false. Omitted: the network's router. Replaces. */
  readonly routerIdToConnect?: pulumi.Input<string | null>;
  /** Key-value tags, keys and values up to 255 characters. Default {}. Updates in place. */
  readonly tags?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Project; default `cims:projectId` / CIMS_PROJECT_ID. Replaces. */
  readonly projectId?: pulumi.Input<number>;
  /** Region; default `cims:regionId` / CIMS_REGION_ID. Replaces. */
  readonly regionId?: pulumi.Input<number>;
  /** Deadlines for waiting on this subnet's tasks. */
  readonly timeouts?: pulumi.Input<Timeouts>;
}

const schema = z
  .strictObject({
    name: nonBlank,
    cidr,
    networkId: uuid4,
    connectToNetworkRouter: z.boolean("must be true or false").optional(),
    dnsNameservers: z.array(ipAddress).nullable().optional(),
    enableDhcp: z.boolean("must be true or false").optional(),
    gatewayIp: ipAddress.nullable().optional(),
    hostRoutes: z.array(z.strictObject({ destination: cidr, nexthop: ipAddress })).nullable().optional(),
    ipVersion: z.union([z.literal(4), z.literal(6)], "must be 4 or 6").optional(),
    routerIdToConnect: uuid4.nullable().optional(),
    tags: tags.optional(),
    projectId: scope.projectId.optional(),
    regionId: scope.regionId.optional(),
    timeouts: timeouts.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.gatewayIp === null && v.connectToNetworkRouter !== false) {
      ctx.addIssue({ code: "custom", path: ["connectToNetworkRouter"], message: "must be set to false when gatewayIp is null (no gateway, so no router connection)" });
    }
    if (typeof v.routerIdToConnect === "string" && v.connectToNetworkRouter === false) {
      ctx.addIssue({ code: "custom", path: ["routerIdToConnect"], message: "requires connectToNetworkRouter to be true" });
    }
    const net = parseCidr(v.cidr);
    if (net && v.ipVersion !== undefined && v.ipVersion !== net.version) {
      ctx.addIssue({ code: "custom", path: ["ipVersion"], message: `must match cidr ${v.cidr} (IPv${net.version})` });
    }
    const dns = v.dnsNameservers ?? [];
    dns.forEach((ip, i) => {
      if (dns.indexOf(ip) !== i) ctx.addIssue({ code: "custom", path: ["dnsNameservers", i], message: `duplicates dnsNameservers[${dns.indexOf(ip)}]` });
    });
  });

const nullishList = (a: unknown, b: unknown) => sameValue(a ?? [], b ?? []);

const FIELDS: FieldRule[] = [
  { name: "name" },
  { name: "cidr", replaces: true },
  { name: "networkId", replaces: true },
  { name: "connectToNetworkRouter", replaces: true },
  { name: "dnsNameservers", autoWhenOmitted: true, equal: nullishList },
  { name: "enableDhcp" },
  { name: "gatewayIp", autoWhenOmitted: true },
  { name: "hostRoutes", autoWhenOmitted: true, equal: nullishList },
  { name: "ipVersion", replaces: true },
  { name: "routerIdToConnect", replaces: true, autoWhenOmitted: true },
  { name: "tags" },
  { name: "projectId", replaces: true },
  { name: "regionId", replaces: true },
  { name: "timeouts" },
];

/** Fields PATCH subnets/{id} can change, camelCase -> wire name. */
const PATCHABLE: Record<string, string> = {
  name: "name",
  enableDhcp: "enable_dhcp",
  dnsNameservers: "dns_nameservers",
  gatewayIp: "gateway_ip",
  hostRoutes: "host_routes",
  tags: "tags",
};

async function check(_olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const given = userInputs(news);
  const scoped = scopeFailures(given);
  const failures = [...validate(schema, scoped.inputs), ...scoped.failures];
  const net = typeof given.cidr === "string" ? parseCidr(given.cidr) : undefined;
  const inputs: Inputs = {
    ...scoped.inputs,
    connectToNetworkRouter: given.connectToNetworkRouter ?? true,
    enableDhcp: given.enableDhcp ?? true,
    ipVersion: given.ipVersion ?? net?.version,
    tags: given.tags ?? {},
  };
  return { inputs: plain({ ...news, ...inputs }) as Inputs, failures };
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.DiffResult> {
  const changed = changedFields(olds, news, FIELDS);
  // A replacement on the same network with an overlapping CIDR would be refused while the
  // old subnet exists: delete it first.
  const collides =
    !isUnknown(news.cidr) && olds.networkId === news.networkId && typeof news.cidr === "string" && typeof olds.cidr === "string" && overlaps(olds.cidr, news.cidr);
  return diffResult(changed, collides);
}

/** The wire body of POST subnets. Omitted optional fields stay omitted; null is sent as null. */
export function toCreateBody(i: Inputs): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: i.name,
    cidr: i.cidr,
    network_id: i.networkId,
    connect_to_network_router: i.connectToNetworkRouter,
    enable_dhcp: i.enableDhcp,
    ip_version: i.ipVersion,
    tags: i.tags,
  };
  if (i.gatewayIp !== undefined) body.gateway_ip = i.gatewayIp;
  if (i.dnsNameservers !== undefined) body.dns_nameservers = i.dnsNameservers;
  if (i.hostRoutes !== undefined) body.host_routes = i.hostRoutes;
  if (i.routerIdToConnect !== undefined) body.router_id_to_connect = i.routerIdToConnect;
  return body;
}

/** Outputs from the service's subnet record. */
export function fromRecord(r: Record<string, unknown>): Inputs {
  return plain({
    name: r.name,
    cidr: r.cidr,
    networkId: r.network_id,
    connectToNetworkRouter: r.connect_to_network_router,
    dnsNameservers: r.dns_nameservers ?? [],
    enableDhcp: r.enable_dhcp,
    gatewayIp: r.gateway_ip ?? null,
    hostRoutes: r.host_routes ?? [],
    ipVersion: r.ip_version,
    routerIdToConnect: r.router_id_to_connect ?? null,
    tags: r.tags ?? {},
    totalIps: r.total_ips === undefined || r.total_ips === null ? r.total_ips : String(r.total_ips),
    createdAt: r.created_at,
    projectId: r.project_id,
    regionId: r.region_id,
  }) as Inputs;
}

const base = (i: Inputs) => apiPath("/cloud/v1/subnets/{project_id}/{region_id}", { project_id: i.projectId as number, region_id: i.regionId as number });
const one = (i: Inputs, id: string) => `${base(i)}/${apiPath("{id}", { id })}`;

/** Inputs the user gave that the record echoes differently are kept as given (e.g. omitted routerIdToConnect). */
function outputs(record: Record<string, unknown>, inputs: Inputs, taskIds: string[]): Inputs {
  return { ...withoutProvider(inputs), ...fromRecord(record), taskIds };
}

async function create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult> {
  const call = { path: base(inputs), body: toCreateBody(inputs), kind: "subnets", recordPath: (id: string) => one(inputs, id) };
  return createViaTask(`Subnet "${String(inputs.name)}"`, inputs, call, (record, taskIds) => outputs(record, inputs, taskIds));
}

async function update(id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult> {
  const what = `Subnet "${String(news.name)}" (${id})`;
  return withContext(what, async () => {
    const body = patchBody(olds, news, FIELDS, (field) => PATCHABLE[field]);
    return { outs: outputs(await patchOrRead(one(news, id), body), news, []) };
  });
}

async function remove(id: string, props: Inputs): Promise<void> {
  await deleteViaTask(`Subnet "${String(props.name)}" (${id})`, one(props, id), props);
}

async function read(id: string, props: Inputs): Promise<pulumi.dynamic.ReadResult> {
  // Fields left to the service stay unmanaged after a refresh.
  const toState = (record: Record<string, unknown>) => {
    const fresh = fromRecord(record);
    if (props.routerIdToConnect === undefined) delete fresh.routerIdToConnect;
    return fresh;
  };
  return readOrGone(id, props, one(props, id), toState, FIELDS);
}

export const subnetMethods = { check, diff, create, update, read, delete: remove };

const SUBNET_OUTPUTS = [
  "name", "cidr", "networkId", "connectToNetworkRouter", "dnsNameservers", "enableDhcp", "gatewayIp", "hostRoutes",
  "ipVersion", "routerIdToConnect", "tags", "totalIps", "createdAt", "projectId", "regionId", "taskIds",
];

/**
 * A subnet of a CIMS network. Created asynchronously: `pulumi up` waits for the service's
 * task and reads the new id from it. See SubnetArgs for which changes update in place and
 * which replace; destroy deletes the subnet.
 */
export class Subnet extends pulumi.dynamic.Resource {
  public readonly name!: pulumi.Output<string>;
  public readonly cidr!: pulumi.Output<string>;
  public readonly networkId!: pulumi.Output<string>;
  public readonly connectToNetworkRouter!: pulumi.Output<boolean>;
  public readonly dnsNameservers!: pulumi.Output<string[]>;
  public readonly enableDhcp!: pulumi.Output<boolean>;
  /** The gateway in effect: given, allocated by the service, or null for none. */
  public readonly gatewayIp!: pulumi.Output<string | null>;
  public readonly hostRoutes!: pulumi.Output<HostRoute[]>;
  public readonly ipVersion!: pulumi.Output<4 | 6>;
  public readonly routerIdToConnect!: pulumi.Output<string | null>;
  public readonly tags!: pulumi.Output<Record<string, string>>;
  /** Number of usable addresses, a decimal string (it can exceed 2^53 for IPv6). */
  public readonly totalIps!: pulumi.Output<string>;
  public readonly createdAt!: pulumi.Output<string>;
  public readonly projectId!: pulumi.Output<number>;
  public readonly regionId!: pulumi.Output<number>;
  /** Tasks of the last operation ([] for in-place updates, which are synchronous). */
  public readonly taskIds!: pulumi.Output<string[]>;

  constructor(name: string, args: SubnetArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      subnetShim,
      name,
      { ...outputKeys(SUBNET_OUTPUTS), ...args },
      opts,
      "cims",
      "Subnet",
    );
  }
}

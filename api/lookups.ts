// The lookups (`cims:index:get<Name>`): functions that find one record (or every record) a
// program refers to but does not manage, by id, by name or by a natural filter. As data: which
// list call each reads, in which scope, what it filters on and which of the record's fields it
// answers, named as the vendor SDK's models name them (camelCased). The plugin's Invoke, the
// default face's `cims.get<Name>()`, schema.json, the SDKs and docs/functions/ derive from it.
import type { CallContract, TerraformName } from "./contract/types";
import { operationsOf, scopeParams } from "./contract/operations";
import { Project, Region, Network, Volume } from "./contract/read-only";
import { Subnet } from "./contract/subnet";
import { BaremetalImage } from "./contract/baremetal-image";
import { LbPoolSettings } from "./contract/lb-pool-settings";
import { SnapshotPolicy } from "./contract/snapshot-policy";

/** A value's type, as the schema and the filters know it. */
export type LookupType = "string" | "integer" | "boolean" | "number" | "strings";

/** A filter: an input compared with the record's field `wire` (equal, or for `strings` the same set). */
export interface LookupFilter {
  readonly name: string;
  readonly wire: string;
  readonly type: LookupType;
  readonly doc: string;
}

/** A field of the answer: the record's `wire` field, named by its camelCase. */
export interface LookupOutput {
  readonly wire: string;
  readonly type: LookupType;
  readonly doc: string;
  /**
   * The vendor SDK's model requires it, so every record holds it: the schema marks it required
   * and the SDKs give it as a plain value (Go's `int`, not `*int`; Java's `Integer`, not an
   * `Optional`), which a resource's required input takes as it is. `id` and `name` always are.
   */
  readonly always?: true;
}

/**
 * Where the list is: `project-region` (the path's `{project_id}/{region_id}`, from the inputs
 * or the provider's config), `none` (the key's whole account).
 */
export type LookupScope = "project-region" | "none";

export interface Lookup {
  /** `getSubnet`: the function's name; its token is `cims:index:<name>`. */
  readonly name: string;
  /** What it finds, in the singular (`subnet`), for its messages. */
  readonly what: string;
  readonly doc: string;
  readonly scope: LookupScope;
  /** The list call it reads: the template of a contract's list operation. */
  readonly path: string;
  /** The vendor SDK's model of a listed record: that operation's response. */
  readonly model: string;
  readonly filters: readonly LookupFilter[];
  readonly outputs: readonly LookupOutput[];
  /**
   * Answers every match as the array `many.field` (of objects of the type `many.type`) instead
   * of exactly one; `parts`: each match's array `parts` of records (a pool's members).
   */
  readonly many?: { readonly field: string; readonly type: string; readonly parts?: string };
  /** Filters the answer needs (a pool's members need the pool). */
  readonly required?: readonly string[];
  /** The vendor's Terraform data sources that find the same record, by generation (none where it has none). */
  readonly terraform?: readonly TerraformName[];
}

/** A data source of each generation of the vendor's Terraform provider (v1 `gcore_x`, v2 `gcore_cloud_y`). */
const tf = (v1: string | undefined, v2: string | undefined): readonly TerraformName[] => [
  ...(v1 ? [{ type: v1, generation: 1 as const }] : []),
  ...(v2 ? [{ type: v2, generation: 2 as const }] : []),
];

/**
 * Where a lookup reads, all from a contract: its list operation's path and model, and the scope
 * the record's path says (a record by id alone is the account's, `none`). A contract may list
 * its records at more than one call: `operation` names the one read (images: `listImages`).
 */
function reads(contract: CallContract, name = "list"): { scope: LookupScope; path: string; model: string } {
  const op = operationsOf(contract).find((o) => o.name === name);
  if (!op?.response) throw new Error(`${contract.name}: no operation ${name} with a response model, which a lookup reads`);
  const scope = scopeParams(contract).join("/");
  if (scope !== "" && scope !== "project_id/region_id")
    throw new Error(`${contract.name}: a lookup reads records of the account or of a project and region, not of ${scope}`);
  return { scope: scope === "" ? "none" : "project-region", path: op.template, model: op.response };
}

const str = (wire: string, doc: string): LookupOutput => ({ wire, type: "string", doc });
const int = (wire: string, doc: string): LookupOutput => ({ wire, type: "integer", doc });
const bool = (wire: string, doc: string): LookupOutput => ({ wire, type: "boolean", doc });
const SCOPED = [int("project_id", "The record's project."), int("region_id", "The record's region."), str("region", "The region's name.")];
const byId = (what: string, type: LookupType = "string"): LookupFilter => ({ name: "id", wire: "id", type, doc: `The ${what}'s id.` });
const byName = (what: string, wire = "name"): LookupFilter => ({ name: "name", wire, type: "string", doc: `The ${what}'s name, exactly.` });

const SUBNET_OUTPUTS = [
  str("id", "The subnet's id."),
  str("name", "The subnet's name."),
  str("cidr", "Its network, in CIDR form."),
  str("network_id", "The network it belongs to."),
  int("ip_version", "4 or 6."),
  bool("enable_dhcp", "Whether DHCP is on."),
  str("gateway_ip", "Its gateway's address; absent when it has none."),
  { wire: "dns_nameservers", type: "strings", doc: "The DNS servers advertised via DHCP." },
  bool("has_router", "Whether a router is connected."),
  str("created_at", "When the service created it (ISO 8601)."),
  ...SCOPED,
] as const satisfies LookupOutput[];

const SUBNET_FILTERS = [
  byId("subnet"),
  byName("subnet"),
  { name: "networkId", wire: "network_id", type: "string", doc: "The network the subnet belongs to." },
  { name: "cidr", wire: "cidr", type: "string", doc: "The subnet's CIDR, as the service writes it." },
] as const satisfies LookupFilter[];

const MEMBER_OUTPUTS = [
  str("id", "The member's id."),
  str("address", "Its IP address."),
  int("protocol_port", "Its port."),
  int("weight", "Its weight, 1 to 256."),
  str("subnet_id", "Its subnet; absent for a public member."),
  bool("admin_state_up", "Whether it takes traffic."),
  bool("backup", "Whether it is a backup member."),
  str("operating_status", "Its operating status."),
] as const satisfies LookupOutput[];

const DEFINED = [
  {
    name: "getProject",
    terraform: tf("gcore_project", "gcore_cloud_project"),
    what: "project",
    doc: "A project of the key's account, by id or by name (the vendor SDK's projects.list).",
    ...reads(Project),
    filters: [byId("project", "integer"), byName("project")],
    outputs: [
      int("id", "The project's id."),
      { ...int("client_id", "The account (client) it belongs to: a QuotaThreshold's `clientId` takes it."), always: true },
      str("name", "The project's name."),
      str("description", "Its description; absent when it has none."),
      bool("is_default", "Whether it is the account's default project."),
      str("state", "Its state, e.g. `ACTIVE`."),
      str("created_at", "When it was created (ISO 8601)."),
    ],
  },
  {
    name: "getRegion",
    terraform: tf("gcore_region", "gcore_cloud_region"),
    what: "region",
    doc: "A region, by id or by its display name (the vendor SDK's regions.list).",
    ...reads(Region),
    filters: [byId("region", "integer"), byName("region", "display_name")],
    outputs: [
      int("id", "The region's id."),
      str("display_name", "Its name."),
      str("slug", "Its short name."),
      str("state", "Its state, e.g. `ACTIVE`."),
      str("zone", "Its zone, e.g. `EMEA`."),
      str("access_level", "`core` or `edge`."),
      bool("has_baremetal", "Whether it has bare metal servers."),
      str("external_network_id", "Its external network; absent when it has none."),
    ],
  },
  {
    name: "getNetwork",
    terraform: tf("gcore_network", "gcore_cloud_network"),
    what: "network",
    doc: "A network of a project and region, by id or by name (the vendor SDK's networks.list).",
    ...reads(Network),
    filters: [byId("network"), byName("network")],
    outputs: [
      str("id", "The network's id."),
      str("name", "The network's name."),
      int("mtu", "Its MTU."),
      str("type", "Its type, e.g. `vxlan`."),
      bool("external", "Whether it is an external network."),
      bool("shared", "Whether it is shared with other projects."),
      bool("default", "Whether it is the project's default network."),
      { wire: "subnets", type: "strings", doc: "The ids of its subnets." },
      str("created_at", "When the service created it (ISO 8601)."),
      ...SCOPED,
    ],
  },
  {
    name: "getSubnet",
    terraform: tf("gcore_subnet", "gcore_cloud_network_subnet"),
    what: "subnet",
    doc: "A subnet of a project and region, by id, by name, by network or by CIDR (the vendor SDK's networks.subnets.list).",
    ...reads(Subnet),
    filters: SUBNET_FILTERS,
    outputs: SUBNET_OUTPUTS,
  },
  {
    name: "getSubnets",
    terraform: tf(undefined, "gcore_cloud_network_subnets"),
    what: "subnet",
    doc: "Every subnet of a project and region that the filters match (a network's subnets: `networkId`); none is an empty list.",
    ...reads(Subnet),
    filters: SUBNET_FILTERS.slice(1),
    outputs: SUBNET_OUTPUTS,
    many: { field: "subnets", type: "GetSubnetsSubnet" },
  },
  {
    name: "getImage",
    terraform: tf("gcore_image", "gcore_cloud_instance_image"),
    what: "image",
    doc: "An image of a project and region, by id, by name, or by `isBaremetal`, `osDistro` and `osVersion` (the vendor SDK's instances.images.list).",
    ...reads(BaremetalImage, "listImages"),
    filters: [
      byId("image"),
      byName("image"),
      { name: "isBaremetal", wire: "is_baremetal", type: "boolean", doc: "Whether bare metal servers use the image." },
      { name: "osDistro", wire: "os_distro", type: "string", doc: "The operating system's distribution, e.g. `debian`." },
      { name: "osVersion", wire: "os_version", type: "string", doc: "The operating system's version, e.g. `12`." },
      { name: "visibility", wire: "visibility", type: "string", doc: "Who may use the image, e.g. `private`." },
    ],
    outputs: [
      str("id", "The image's id."),
      str("name", "The image's name."),
      str("status", "Its status, e.g. `active`."),
      bool("is_baremetal", "Whether bare metal servers use it."),
      str("os_distro", "The operating system's distribution."),
      str("os_version", "The operating system's version."),
      str("os_type", "`linux` or `windows`."),
      str("architecture", "`x86_64` or `aarch64`."),
      str("visibility", "Who may use it."),
      int("min_disk", "The smallest disk it needs, in GiB."),
      int("min_ram", "The least memory it needs, in MiB."),
      str("created_at", "When the service created it (ISO 8601)."),
      ...SCOPED,
    ],
  },
  {
    name: "getVolume",
    terraform: tf("gcore_volume", "gcore_cloud_volume"),
    what: "volume",
    doc: "A volume of a project and region, by id or by name (the vendor SDK's volumes.list).",
    ...reads(Volume),
    filters: [
      byId("volume"),
      byName("volume"),
      { name: "bootable", wire: "bootable", type: "boolean", doc: "Whether the volume can boot a server." },
    ],
    outputs: [
      str("id", "The volume's id."),
      str("name", "The volume's name."),
      int("size", "Its size, in GiB."),
      str("status", "Its status, e.g. `available`."),
      str("volume_type", "Its type, e.g. `standard`."),
      bool("bootable", "Whether it can boot a server."),
      bool("is_root_volume", "Whether it is a server's root volume."),
      str("created_at", "When the service created it (ISO 8601)."),
      ...SCOPED,
    ],
  },
  {
    name: "getPool",
    terraform: tf("gcore_lbpool", "gcore_cloud_load_balancer_pool"),
    what: "pool",
    doc: "A load balancer pool of a project and region, by id or by name (the vendor SDK's load_balancers.pools.list).",
    ...reads(LbPoolSettings),
    filters: [byId("pool"), byName("pool")],
    outputs: [
      str("id", "The pool's id."),
      str("name", "The pool's name."),
      str("lb_algorithm", "Its balancing algorithm."),
      str("protocol", "Its protocol."),
      bool("admin_state_up", "Whether it takes traffic."),
      str("operating_status", "Its operating status."),
      str("provisioning_status", "Its provisioning status."),
    ],
  },
  {
    name: "getPoolMembers",
    what: "pool",
    doc: "The members of a load balancer pool, every one the service holds, whichever stack added them (read from the pool's list: `poolId` or `name` names the pool).",
    ...reads(LbPoolSettings),
    filters: [
      { name: "poolId", wire: "id", type: "string", doc: "The pool's id." },
      { name: "poolName", wire: "name", type: "string", doc: "The pool's name, exactly." },
    ],
    outputs: MEMBER_OUTPUTS,
    many: { field: "members", type: "GetPoolMembersMember", parts: "members" },
  },
  {
    name: "getSnapshotPolicy",
    what: "snapshot policy",
    doc: "A volume snapshot policy of a project and region, by id or by name (the vendor SDK's snapshot_schedules.list).",
    ...reads(SnapshotPolicy),
    filters: [
      byId("snapshot policy", "integer"),
      byName("snapshot policy"),
      { name: "status", wire: "status", type: "string", doc: "`active` or `paused`." },
    ],
    outputs: [
      int("id", "The policy's id."),
      str("name", "The policy's name."),
      str("status", "`active` or `paused`."),
      str("action", "What it does, e.g. `volume_snapshot`."),
      int("user_id", "Who made it."),
      int("project_id", "The policy's project."),
      int("region_id", "The policy's region."),
    ],
  },
] as const satisfies readonly Lookup[];

export type LookupName = (typeof DEFINED)[number]["name"];

/** Every lookup, in the order the schema, the docs and the SDKs list them. */
export const LOOKUPS: readonly Lookup[] = DEFINED;

export const LOOKUP_NAMES: readonly LookupName[] = DEFINED.map((l) => l.name);

export const isLookupName = (name: string): name is LookupName => LOOKUP_NAMES.some((known) => known === name);

export function lookup(name: LookupName): Lookup {
  return LOOKUPS.find((l) => l.name === name)!;
}

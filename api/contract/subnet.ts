// Subnet: POST subnets (spec: the creation fields); PATCH subnets/{id} (reference) for the
// fields marked `update`.
import { arrayOf, boolean, cidr, count, dateTime, int64, ip, name, tags, text, uuid4 } from "./common";
import type { Contract, ObjectType } from "./types";

export const HostRoute = {
  kind: "object",
  name: "HostRoute",
  doc: "A static route advertised via DHCP: `destination` (CIDR) through `nexthop` (an IP address of the same version).",
  fields: {
    destination: { type: cidr, required: true, set: "update", doc: "The route's destination network, in CIDR form." },
    nexthop: { type: ip, required: true, set: "update", doc: "The gateway to it, an IP address of the destination's version." },
  },
  rules: ["route"],
} as const satisfies ObjectType;

export const Subnet = {
  name: "Subnet",
  doc: "A subnet of a CIMS network. Created asynchronously: `pulumi up` waits for the service's task and reads the new id from it; destroy deletes the subnet.",
  fields: {
    name: { type: name, required: true, set: "update", doc: "Subnet name, not empty." },
    cidr: { type: cidr, required: true, set: "create", doc: "Network in CIDR form, no host bits set (`10.0.0.0/24`)." },
    networkId: { type: uuid4, required: true, set: "create", doc: "Network the subnet belongs to (uuid4)." },
    connectToNetworkRouter: {
      type: boolean,
      set: "create",
      default: true,
      notInRecord: true,
      doc: "Give the network's router a gateway in this subnet; must be false when `gatewayIp` is null.",
    },
    dnsNameservers: {
      type: arrayOf(ip, { unique: "ip" }),
      nullable: true,
      set: "update",
      serviceDefault: true,
      doc: "DNS servers advertised via DHCP, no duplicates. Omitted: the service's default; null or []: none.",
    },
    enableDhcp: { type: boolean, set: "update", default: true, doc: "DHCP on or off (false is sent, never dropped)." },
    gatewayIp: {
      type: ip,
      nullable: true,
      nullWord: "disable",
      set: "update",
      serviceDefault: true,
      doc: "Gateway IP, inside `cidr` and of its IP version. Omitted: the service allocates one (see the `gatewayIp` output); null: no gateway.",
    },
    hostRoutes: {
      type: arrayOf(HostRoute, { unordered: true }),
      nullable: true,
      set: "update",
      serviceDefault: true,
      doc: "Static routes advertised via DHCP. Omitted: none managed; null or []: none.",
    },
    // Omitted: the service takes the CIDR's version (the rule across fields refuses another).
    ipVersion: {
      type: { kind: "integer", min: 4, max: 6, enum: [4, 6], name: "IpVersion" },
      set: "create",
      serviceDefault: true,
      inEveryRecord: true,
      doc: "4 or 6; default: the version of `cidr`, which it must match.",
    },
    routerIdToConnect: {
      type: uuid4,
      nullable: true,
      set: "create",
      serviceDefault: true,
      notInRecord: true,
      doc: "Router to connect to (uuid4); requires `connectToNetworkRouter` not false. Omitted: the network's router.",
    },
    tags: {
      type: tags,
      set: "update",
      default: {},
      doc: "Your key-value tags, keys and values up to 255 characters. The service's own read-only tags are not here but in the `readOnlyTags` output: they are never diffed or changed, and their keys cannot be used.",
    },
  },
  rules: ["subnet"],
  record: {
    id: { type: uuid4, doc: "The subnet's id." },
    available_ips: {
      type: int64,
      output: true,
      doc: "Addresses not yet used, a decimal string; it falls as ports are allocated, with no write of the stack's, so it is never a diff.",
    },
    total_ips: { type: int64, output: true, doc: "Usable addresses, a decimal string (it can exceed 2^53 for IPv6)." },
    has_router: {
      type: boolean,
      output: true,
      doc: "Whether a router is connected (the service's records always say false: the vendor deprecates it).",
    },
    creator_task_id: { type: uuid4, doc: "The task that created the subnet." },
    task_id: { type: uuid4, doc: "The subnet's last task." },
    created_at: { type: dateTime, output: true, inEveryRecord: true, doc: "When the service created the subnet (ISO 8601)." },
    updated_at: { type: dateTime, output: true, doc: "When the service last changed the subnet (ISO 8601); never a diff." },
    project_id: { type: count, doc: "The subnet's project." },
    region_id: { type: count, doc: "The subnet's region." },
    region: { type: text, output: true, doc: "The name of the subnet's region." },
  },
  paths: {
    /** POST (spec): create; GET (reference): list, `network_id` filter, `limit`/`offset` paging. */
    collection: "/cloud/v1/subnets/{project_id}/{region_id}",
    /** GET, PATCH, DELETE (reference). */
    item: "/cloud/v1/subnets/{project_id}/{region_id}/{subnet_id}",
  },
  operations: {
    create: {
      method: "POST",
      path: "collection",
      task: "create_subnet",
      created: "subnets",
      request: "gcore.types.cloud.networks.subnet_create_params.SubnetCreateParams",
    },
    list: { method: "GET", path: "collection", response: "gcore.types.cloud.subnet.Subnet" },
    get: { method: "GET", path: "item", response: "gcore.types.cloud.subnet.Subnet" },
    update: {
      method: "PATCH",
      path: "item",
      spelling: "record",
      request: "gcore.types.cloud.networks.subnet_update_params.SubnetUpdateParams",
    },
    delete: { method: "DELETE", path: "item", task: "delete_subnet" },
  },
  vendorLeftOut: {
    creator_task_id:
      "Read as the evidence that a create of the stack's made the subnet; a task id is bookkeeping, and `taskIds` shows the last operation's tasks.",
    task_id: "The service's last task on the subnet, bookkeeping that changes with others' calls; `taskIds` shows the stack's own.",
  },
  terraform: [
    { type: "gcore_subnet", generation: 1 },
    { type: "gcore_cloud_network_subnet", generation: 2 },
  ],
} as const satisfies Contract;

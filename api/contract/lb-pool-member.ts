// Load balancer pool member, one alone (the vendor SDK's members resource): POST .../members
// creates it, PATCH .../members/{member_id} changes the fields marked `update` in place,
// DELETE removes it; every changing call answers tasks. address, protocol_port and the
// subnet (or instance) cannot change after creation. A member with neither subnet nor
// instance is reached over the public network (the vendor SDK and Terraform examples make them).
import { boolean, integer, ip, text, uuid4 } from "./common";
import type { Contract } from "./types";

const port = integer(1, 65535);

export const LbPoolMember = {
  name: "LbPoolMember",
  doc: "One member of an existing load balancer pool, managed alone (a pool shared between stacks): create adds it, destroy removes only it. Don't also manage the pool's members with LbPoolSettings `members`: its whole-list update removes every member it does not list.",
  fields: {
    address: { type: ip, required: true, set: "create", doc: "The member's IP address." },
    protocolPort: { type: port, required: true, set: "create", doc: "The port the member serves on (1-65535)." },
    subnetId: {
      type: uuid4,
      set: "create",
      serviceDefault: true,
      doc: "The subnet the member's address is in (uuid4). Give it or `instanceId`, not both; neither: a member reached over the public network.",
    },
    instanceId: {
      type: uuid4,
      set: "create",
      serviceDefault: true,
      notInRecord: true,
      doc: "The instance the member runs on (uuid4), instead of `subnetId`.",
    },
    weight: { type: integer(1, 256), set: "update", default: 1, doc: "The member's share of traffic, 1-256." },
    adminStateUp: { type: boolean, set: "update", default: true, doc: "Whether the member takes traffic (false disables it)." },
    backup: {
      type: boolean,
      set: "update",
      default: false,
      doc: "A backup member takes traffic only when every other member is unreachable.",
    },
    monitorAddress: {
      type: ip,
      nullable: true,
      set: "update",
      default: null,
      doc: "Another IP address the health monitor checks instead of `address`; null: the member's address.",
    },
    monitorPort: {
      type: port,
      nullable: true,
      set: "update",
      default: null,
      doc: "Another port the health monitor checks instead of `protocolPort`; null: the member's port.",
    },
  },
  rules: ["memberTarget"],
  record: {
    id: { type: uuid4, doc: "The member's id." },
    operating_status: { type: text, output: true, inEveryRecord: true, doc: "The member's operating status (ONLINE, NO_MONITOR, ...)." },
    provisioning_status: { type: text, doc: "The member's provisioning status (ACTIVE, PENDING_CREATE, ...)." },
  },
  vendorLeftOut: {
    provisioning_status:
      "Bookkeeping of the service's tasks (PENDING_UPDATE while one runs): every write waits until it is ACTIVE again, and another stack's write to the pool changes it.",
  },
  paths: {
    /** POST (a task): create; GET: list, `limit`/`offset` paging. */
    collection: "/cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members",
    /** GET, PATCH (a task), DELETE (a task). */
    item: "/cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members/{member_id}",
  },
  operations: {
    create: {
      method: "POST",
      path: "collection",
      task: "create_lbmember",
      created: "members",
      request: "gcore.types.cloud.load_balancers.pools.member_create_params.MemberCreateParams",
    },
    list: { method: "GET", path: "collection", response: "gcore.types.cloud.member.Member" },
    get: { method: "GET", path: "item", response: "gcore.types.cloud.member.Member" },
    update: {
      method: "PATCH",
      path: "item",
      task: "update_lbmember",
      request: "gcore.types.cloud.load_balancers.pools.member_update_params.MemberUpdateParams",
    },
    delete: { method: "DELETE", path: "item", task: "delete_lbmember" },
  },
  identity: { poolId: { type: uuid4, doc: "The load balancer pool (uuid4)." } },
  terraform: [
    { type: "gcore_lbmember", generation: 1 },
    { type: "gcore_cloud_load_balancer_pool_member", generation: 2 },
  ],
} as const satisfies Contract;

// Load balancer pool: PATCH lbpools (spec: any of these fields, none required; the provider
// sends members one by one through the member endpoints instead, ./lb-pool-member.ts). Health
// monitor types and methods, and session persistence types, come from the public reference
// (the spec leaves them unshown).
import { arrayOf, boolean, integer, ip, name, oneOf, text, uuid4 } from "./common";
import type { Contract, ObjectType } from "./types";

const INT32_MAX = 2147483647;

export const PoolMember = {
  kind: "object",
  name: "PoolMember",
  doc: "A pool member: `address` and `protocolPort` are its identity; `weight`, `adminStateUp`, `backup`, `monitorAddress` and `monitorPort` its settings, changed in place; `subnetId` or `instanceId` fixed when it is made (a new one makes a new member); `id` and `operatingStatus` are set by the service.",
  fields: {
    address: { type: ip, required: true, set: "update", doc: "The member's IP address." },
    protocolPort: { type: integer(1, 65535), required: true, set: "update", doc: "The port the member serves on." },
    weight: { type: integer(1, 256), set: "update", doc: "The member's share of traffic (the service's default 1)." },
    subnetId: { type: uuid4, set: "update", doc: "The subnet the member's address is in (uuid4)." },
    instanceId: {
      type: uuid4,
      set: "update",
      doc: "The instance the member runs on (uuid4), instead of `subnetId`. The service's records do not show it: a change is seen against the state, and a refresh keeps the state's.",
    },
    adminStateUp: {
      type: boolean,
      set: "update",
      doc: "Whether the member takes traffic (false disables it; the service's default true).",
    },
    backup: {
      type: boolean,
      set: "update",
      doc: "A backup member takes traffic only when every other member is unreachable (the service's default false).",
    },
    monitorAddress: { type: ip, set: "update", doc: "Another IP address the health monitor checks instead of `address`." },
    monitorPort: { type: integer(1, 65535), set: "update", doc: "Another port the health monitor checks instead of `protocolPort`." },
    id: { type: uuid4, set: "update", doc: "The member's id, set by the service." },
    operatingStatus: { type: text, set: "update", doc: "The member's operating status, set by the service." },
  },
  rules: ["memberTarget"],
} as const satisfies ObjectType;

export const HealthMonitor = {
  kind: "object",
  name: "HealthMonitor",
  doc: "A pool's health monitor. What an HTTP check leaves out, the service fills (GET `/`, 200, HTTP/1.0, `maxRetriesDown` 3); those values are never a diff.",
  fields: {
    type: {
      type: oneOf("LbHealthMonitorType", ["HTTP", "HTTPS", "K8S", "PING", "TCP", "TLS-HELLO", "UDP-CONNECT"]),
      required: true,
      set: "update",
      doc: "How members are checked.",
    },
    delay: { type: integer(1, INT32_MAX, "seconds"), required: true, set: "update", doc: "Seconds between checks." },
    timeout: { type: integer(1, INT32_MAX, "seconds"), required: true, set: "update", doc: "Seconds a check may take." },
    maxRetries: { type: integer(1, 10), required: true, set: "update", doc: "Checks that must pass before a member is up." },
    maxRetriesDown: { type: integer(1, 10), set: "update", doc: "Checks that must fail before a member is down." },
    httpMethod: {
      type: oneOf("HttpMethod", ["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"]),
      set: "update",
      doc: "The HTTP method of an HTTP check.",
    },
    urlPath: { type: { kind: "string", format: "urlPath" }, set: "update", doc: "The path an HTTP check requests (starts with /)." },
    expectedCodes: {
      type: { kind: "string", format: "expectedCodes" },
      set: "update",
      doc: 'Status codes that pass an HTTP check: codes 100-599 or ranges ("200,202", "200-204").',
    },
    // The vendor's reference: HTTP version of the check, the Host it sends, and whether it runs.
    httpVersion: { type: oneOf("HttpVersion", ["1.0", "1.1"]), set: "update", doc: "The HTTP version of an HTTP check." },
    domainName: { type: text, set: "update", doc: "The Host an HTTP check sends." },
    adminStateUp: { type: boolean, set: "update", doc: "Whether the monitor runs." },
  },
} as const satisfies ObjectType;

export const SessionPersistence = {
  kind: "object",
  name: "SessionPersistence",
  doc: "How a pool keeps a client on one member.",
  fields: {
    type: {
      type: oneOf("LbSessionPersistenceType", ["APP_COOKIE", "HTTP_COOKIE", "SOURCE_IP"]),
      required: true,
      set: "update",
      doc: "What identifies a client.",
    },
    cookieName: { type: text, set: "update", doc: "The cookie of APP_COOKIE persistence." },
    persistenceGranularity: { type: text, set: "update", doc: "The netmask that groups clients of SOURCE_IP persistence." },
    persistenceTimeout: { type: integer(0, INT32_MAX, "seconds"), set: "update", doc: "Seconds a client stays on its member." },
  },
} as const satisfies ObjectType;

const ms = integer(0, 86400000, "milliseconds");

export const LbPoolSettings = {
  name: "LbPoolSettings",
  doc: "Settings of an existing load balancer pool: only the fields you give are managed, and an update writes only those whose inputs changed. Updates are asynchronous (`pulumi up` waits for the tasks). Members are the stack's by their ids and are added, changed (their settings in place; a new subnetId or instanceId makes a new member) and removed one by one: with `membersOwnership` \"declared\" (the default, for a pool several teams share beside their own LbPoolSettings or LbPoolMember) others' members are never touched; with \"exclusive\" (a pool one stack owns whole) the pool holds exactly `members`, and the preview warns of each member it removes. A member is the stack's only by evidence (its own member create) or by adoption on purpose (`adoptMembers`, which the preview names). The preview warns of each setting a create changes; destroy removes the members the stack made, by id, and leaves the pool, its settings, the members it adopted and everyone else's.",
  fields: {
    name: { type: name, set: "update", doc: "Pool name." },
    lbAlgorithm: {
      type: oneOf("LbAlgorithm", ["LEAST_CONNECTIONS", "ROUND_ROBIN", "SOURCE_IP"]),
      set: "update",
      doc: "How the pool spreads connections.",
    },
    protocol: {
      type: oneOf("LbPoolProtocol", ["HTTP", "HTTPS", "PROXY", "PROXYV2", "TCP", "UDP"]),
      set: "update",
      doc: "The protocol members speak.",
    },
    caSecretId: { type: uuid4, nullable: true, set: "update", doc: "CA certificate bundle secret (uuid4), or null for none." },
    crlSecretId: { type: uuid4, nullable: true, set: "update", doc: "CA revocation list secret (uuid4), or null for none." },
    secretId: {
      type: uuid4,
      nullable: true,
      set: "update",
      doc: "Secret for TLS client authentication to members (uuid4), or null for none.",
    },
    // The spec types it as an object; the reference removes it with DELETE .../healthmonitor.
    healthmonitor: {
      type: HealthMonitor,
      set: "update",
      removedByDelete: true,
      doc: "Health monitor settings (sent whole when changed); null removes the pool's health monitor.",
    },
    // The reference: `session_persistence: null` in the PATCH removes it.
    sessionPersistence: {
      type: SessionPersistence,
      nullable: true,
      set: "update",
      doc: "Session persistence settings (sent whole when changed); null removes them.",
    },
    members: {
      type: arrayOf(PoolMember, { unique: "member", unordered: true }),
      nullable: true,
      set: "update",
      doc: 'The stack\'s members of the pool, each added, changed or removed alone; null or [] removes them all (with `membersOwnership` "exclusive", every member of the pool). Order does not matter. A member the pool already holds at a listed address and port is refused at preview unless its id is in `adoptMembers`: holding the same address and port is no evidence the stack made it.',
    },
    adminStateUp: { type: boolean, set: "update", doc: "Whether the pool takes traffic (false disables it, its members kept)." },
    timeoutClientData: { type: ms, nullable: true, set: "update", doc: "Client inactivity timeout in milliseconds, or null." },
    timeoutMemberConnect: { type: ms, nullable: true, set: "update", doc: "Member connect timeout in milliseconds, or null." },
    timeoutMemberData: { type: ms, nullable: true, set: "update", doc: "Member inactivity timeout in milliseconds, or null." },
  },
  omitted: "unmanaged",
  record: {
    id: { type: uuid4, doc: "The pool's id." },
    provisioning_status: { type: text, doc: "The pool's provisioning status (ACTIVE, PENDING_UPDATE, ...)." },
    operating_status: {
      type: text,
      output: true,
      doc: "The pool's operating status (ONLINE, DEGRADED, ...), as its health checks find it; it changes with no write, so it is never a diff.",
    },
    listeners: { type: arrayOf(text), doc: "The listeners that use the pool." },
    loadbalancers: { type: arrayOf(text), doc: "The load balancers of the pool." },
    creator_task_id: { type: uuid4, doc: "The task that created the pool." },
    task_id: { type: uuid4, doc: "The pool's last task." },
  },
  paths: {
    /** GET (reference): list, `limit`/`offset` paging. */
    collection: "/cloud/v1/lbpools/{project_id}/{region_id}",
    /** PATCH (spec), GET (reference). */
    item: "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}",
    /** PATCH (the vendor SDK's pool update, beside the spec's v1 path). */
    itemV2: "/cloud/v2/lbpools/{project_id}/{region_id}/{pool_id}",
    /** POST (the vendor SDK: creates one, a task) and DELETE (reference): the pool's health monitor. */
    healthmonitor: "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}/healthmonitor",
  },
  operations: {
    list: { method: "GET", path: "collection", response: "gcore.types.cloud.load_balancer_pool.LoadBalancerPool" },
    get: { method: "GET", path: "item", response: "gcore.types.cloud.load_balancer_pool.LoadBalancerPool" },
    update: {
      method: "PATCH",
      path: "item",
      task: "update_lbpool",
      created: "members",
      request: "gcore.types.cloud.load_balancers.pool_update_params.PoolUpdateParams",
    },
    more: {
      /** The vendor SDK's pool update, beside the spec's v1 path. */
      updateV2: {
        method: "PATCH",
        path: "itemV2",
        task: "update_lbpool",
        created: "members",
        request: "gcore.types.cloud.load_balancers.pool_update_params.PoolUpdateParams",
      },
      /** The vendor SDK's: gives the pool a health monitor (409 when it has one; a PATCH changes it). */
      createHealthmonitor: { method: "POST", path: "healthmonitor", task: "create_healthmonitor", created: "healthmonitors" },
      /** Removes the pool's health monitor: 204, or 404 when it has none. */
      deleteHealthmonitor: { method: "DELETE", path: "healthmonitor" },
    },
  },
  vendorLeftOut: {
    provisioning_status:
      "Bookkeeping of the service's tasks (PENDING_UPDATE while one runs): every write waits until it is ACTIVE again, and another stack's write changes it.",
    listeners:
      "References (`{id}`) to the listeners that use the pool: the load balancer's wiring, which other stacks change, not a setting of the pool.",
    loadbalancers:
      "References (`{id}`) to the load balancers of the pool: fixed when the pool was made elsewhere, not a setting of the pool.",
    creator_task_id: "The task that created the pool, which no stack of this kind made: the pool exists anyway.",
    task_id: "The service's last task on the pool, bookkeeping that changes with others' calls; `taskIds` shows the stack's own.",
  },
  identity: { poolId: { type: uuid4, doc: "The load balancer pool (uuid4)." } },
  terraform: [
    { type: "gcore_lbpool", generation: 1 },
    { type: "gcore_cloud_load_balancer_pool", generation: 2 },
  ],
} as const satisfies Contract;

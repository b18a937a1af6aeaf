// Load balancer pool: PATCH lbpools (spec: any of these fields, none required). Health
// monitor types and methods, and session persistence types, come from the public reference
// (the spec leaves them unshown).
import { arrayOf, boolean, integer, ip, name, oneOf, text, uuid4 } from "./common";
import type { BodyContract, ObjectType } from "./types";

const INT32_MAX = 2147483647;

export const MEMBER = {
  kind: "object",
  fields: {
    address: { type: ip, required: true, set: "update" },
    protocolPort: { type: integer(1, 65535), required: true, set: "update" },
    weight: { type: integer(1, 256), set: "update" },
    subnetId: { type: uuid4, set: "update" },
    id: { type: uuid4, set: "update" },
    operatingStatus: { type: text, set: "update" },
  },
} as const satisfies ObjectType;

export const HEALTH_MONITOR = {
  kind: "object",
  fields: {
    type: { type: oneOf(["HTTP", "HTTPS", "K8S", "PING", "TCP", "TLS-HELLO", "UDP-CONNECT"]), required: true, set: "update" },
    delay: { type: integer(1, INT32_MAX, "seconds"), required: true, set: "update" },
    timeout: { type: integer(1, INT32_MAX, "seconds"), required: true, set: "update" },
    maxRetries: { type: integer(1, 10), required: true, set: "update" },
    maxRetriesDown: { type: integer(1, 10), set: "update" },
    httpMethod: { type: oneOf(["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"]), set: "update" },
    urlPath: { type: { kind: "string", format: "urlPath" }, set: "update" },
    expectedCodes: { type: { kind: "string", format: "expectedCodes" }, set: "update" },
    // The vendor's reference: HTTP version of the check, the Host it sends, and whether it runs.
    httpVersion: { type: oneOf(["1.0", "1.1"]), set: "update" },
    domainName: { type: text, set: "update" },
    adminStateUp: { type: boolean, set: "update" },
  },
} as const satisfies ObjectType;

export const SESSION_PERSISTENCE = {
  kind: "object",
  fields: {
    type: { type: oneOf(["APP_COOKIE", "HTTP_COOKIE", "SOURCE_IP"]), required: true, set: "update" },
    cookieName: { type: text, set: "update" },
    persistenceGranularity: { type: text, set: "update" },
    persistenceTimeout: { type: integer(0, INT32_MAX, "seconds"), set: "update" },
  },
} as const satisfies ObjectType;

const ms = integer(0, 86400000, "milliseconds");

export const POOL = {
  fields: {
    name: { type: name, set: "update" },
    lbAlgorithm: { type: oneOf(["LEAST_CONNECTIONS", "ROUND_ROBIN", "SOURCE_IP"]), set: "update" },
    protocol: { type: oneOf(["HTTP", "HTTPS", "PROXY", "PROXYV2", "TCP", "UDP"]), set: "update" },
    caSecretId: { type: uuid4, nullable: true, set: "update" },
    crlSecretId: { type: uuid4, nullable: true, set: "update" },
    secretId: { type: uuid4, nullable: true, set: "update" },
    // The spec types it as an object; the reference removes it with DELETE .../healthmonitor.
    healthmonitor: { type: HEALTH_MONITOR, set: "update", removedByDelete: true },
    // The reference: `session_persistence: null` in the PATCH removes it.
    sessionPersistence: { type: SESSION_PERSISTENCE, nullable: true, set: "update" },
    members: { type: arrayOf(MEMBER, { unique: "member", unordered: true }), nullable: true, set: "update" },
    timeoutClientData: { type: ms, nullable: true, set: "update" },
    timeoutMemberConnect: { type: ms, nullable: true, set: "update" },
    timeoutMemberData: { type: ms, nullable: true, set: "update" },
  },
  omitted: "unmanaged",
} as const satisfies BodyContract;

/** Fields only the service writes, in the records it returns. */
export const POOL_RECORD = [
  "id",
  "provisioning_status",
  "operating_status",
  "listeners",
  "loadbalancers",
  "admin_state_up",
  "creator_task_id",
  "task_id",
] as const;

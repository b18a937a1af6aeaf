// The Pulumi package schema of `pulumi-resource-cims`, generated from the contract
// (api/contract) and the kinds' descriptors: each kind's inputs (its contract's fields and the
// provider's own inputs) and outputs (the state create records), nested objects as named
// types, and the provider's configuration with `apiKey` secret. `pulumi package get-schema`
// prints it; YAML programs are type-checked against it; `pulumi import` writes code from it.
import {
  GLOBAL_QUOTAS,
  HEALTH_MONITOR,
  MEMBER,
  QUOTA_ENTRY,
  QUOTA_MESSAGE,
  REGIONAL_QUOTAS,
  ROUTE,
  SESSION_PERSISTENCE,
} from "../../api/contract";
import type { Field, FieldType, ObjectType } from "../../api/contract";
import { toCamel } from "../../api/names";
import type { Kind } from "../methods/descriptor";
import { KIND_NAMES, kind } from "../methods/kinds";

type Json = Record<string, unknown>;
type Property = Json;

/** Nested object types by name: a contract type nested in a field needs a name here. */
const NAMED: ReadonlyArray<[ObjectType, string, string]> = [
  [ROUTE, "HostRoute", "A static route advertised via DHCP: `destination` (CIDR) through `nexthop` (an IP address of the same version)."],
  [MEMBER, "PoolMember", "A pool member: `address` and `protocolPort` are its identity; `weight` and `subnetId` its settings."],
  [HEALTH_MONITOR, "HealthMonitor", "A pool's health monitor. What an HTTP check leaves out, the service fills (GET `/`, 200, HTTP/1.0)."],
  [SESSION_PERSISTENCE, "SessionPersistence", "How a pool keeps a client on one member."],
  [QUOTA_ENTRY, "QuotaEntry", "A quota's limit and usage, as decimal strings (they reach 9223372036854775807)."],
  [GLOBAL_QUOTAS, "GlobalQuotas", "Global quotas, each as `<base>Limit` and `<base>Usage`."],
  [REGIONAL_QUOTAS, "RegionalQuotas", "A region's quotas, each as `<base>Limit` and `<base>Usage`."],
  [QUOTA_MESSAGE, "QuotaMessage", "The quotas of the last notification message."],
];

const ANY = { $ref: "pulumi.json#/Any" };
const STRINGS = { type: "array", items: { type: "string" } };

/** The provider's own inputs beyond the contract, by name. */
const EXTRA: Readonly<Record<string, Property>> = {
  projectId: { type: "integer", description: "Project; default `cims:projectId`. Changing it replaces the resource." },
  regionId: { type: "integer", description: "Region; default `cims:regionId`. Changing it replaces the resource." },
  timeouts: { $ref: "#/types/cims:index:Timeouts", description: "Deadlines, in seconds, for waiting on this resource's tasks." },
  importId: { type: "string", description: "Adopt the existing record with this id (uuid4) instead of creating one." },
  poolId: { type: "string", description: "The load balancer pool (uuid4). Changing it replaces the resource." },
  policyId: { type: "integer", description: "The snapshot lifecycle policy. Changing it replaces the resource." },
  includeVolumes: { type: "boolean", description: "Also read the policy's volumes (default false)." },
  clientId: { type: "integer", description: "The client whose quota notification threshold this is. Changing it replaces the resource." },
};

/** Outputs every resource records besides its fields. */
const BOOKKEEPING: Readonly<Record<string, Property>> = {
  taskIds: { ...STRINGS, description: "Tasks of the last operation ([] for synchronous calls)." },
};

/** The schema type of a contract type (int64: decimal strings; nested objects: their named type). */
function typeOf(t: FieldType): Property {
  switch (t.kind) {
    case "string":
      return t.enum
        ? { type: "string", description: `One of: ${[...t.enum, ...Object.keys(t.aliases ?? {})].join(", ")}.` }
        : { type: "string" };
    case "integer":
      return t.int64 ? { type: "string", description: "A signed 64-bit integer, as its decimal digits." } : { type: "integer" };
    case "boolean":
      return { type: "boolean" };
    case "tags":
      return { type: "object", additionalProperties: { type: "string" } };
    case "array":
      return { type: "array", items: typeOf(t.items) };
    case "object": {
      const named = NAMED.find(([o]) => o === t);
      if (!named) throw new Error("a nested object type of the contract has no name in provider/plugin/schema.ts (NAMED)");
      return { $ref: `#/types/cims:index:${named[1]}` };
    }
  }
}

const propertyOf = (f: Field): Property => typeOf(f.type);

/** A named object type: its fields, and its members by their Pulumi names. */
function objectTypeOf(t: ObjectType, description: string): Json {
  const properties: Json = Object.fromEntries(Object.entries(t.fields).map(([name, f]) => [name, propertyOf(f)]));
  for (const member of t.members?.names ?? []) properties[toCamel(member)] = typeOf(t.members!.type);
  const required = Object.entries(t.fields)
    .filter(([, f]) => f.required)
    .map(([name]) => name);
  return { type: "object", description, properties, ...(required.length > 0 ? { required } : {}) };
}

function resourceOf(type: Kind): Json {
  const d = kind(type).descriptor;
  const inputProperties: Json = {};
  for (const [name, f] of Object.entries(d.contract.fields)) inputProperties[name] = propertyOf(f);
  for (const name of Object.keys(d.extra)) inputProperties[name] = EXTRA[name] ?? ANY;
  const requiredInputs = [
    ...Object.entries(d.contract.fields)
      .filter(([, f]) => f.required)
      .map(([name]) => name),
    ...Object.entries(d.extra)
      .filter(([, schema]) => !schema.safeParse(undefined).success)
      .map(([name]) => name),
  ];
  // The record's additions to the outputs, by the keys its descriptor maps (read off an empty record).
  const added = Object.keys(d.record?.({}) ?? {});
  const properties: Json = { ...inputProperties, ...Object.fromEntries(added.map((k) => [k, inputProperties[k] ?? ANY])), ...BOOKKEEPING };
  return {
    description: `${type}: see docs/using.md#${type.toLowerCase()} in pulumi-cims (same arguments as the dynamic resource \`cims.${type}\`).`,
    inputProperties,
    requiredInputs,
    properties,
    required: [...requiredInputs, "taskIds"],
  };
}

/** The provider's configuration (`cims:<key>`), as the dynamic face reads it. */
const CONFIG: Readonly<Record<string, Property>> = {
  apiUrl: { type: "string", description: "Base URL of the CIMS API (else CIMS_API_URL)." },
  apiKey: { type: "string", secret: true, description: "API key, sent as `Authorization: apikey <key>` (else CIMS_API_KEY)." },
  projectId: { type: "integer", description: "Default projectId of resources (else CIMS_PROJECT_ID)." },
  regionId: { type: "integer", description: "Default regionId of resources (else CIMS_REGION_ID)." },
  taskTimeoutSeconds: { type: "integer", description: "How long to wait for a resource's tasks (default 1800)." },
  taskPath: { type: "string", description: "Task status path (default /cloud/v1/tasks/{task_id})." },
  maxRetries: { type: "integer", description: "Retries per request (default 5)." },
  connectTimeoutSeconds: { type: "integer", description: "Connect timeout (default 5)." },
  requestTimeoutSeconds: { type: "integer", description: "Request timeout (default 120)." },
  coalesceReads: { type: "boolean", description: "Refresh reads subnets and images through one list request per scope (default true)." },
};

export function packageSchema(version: string): Json {
  const types: Json = {
    "cims:index:Timeouts": {
      type: "object",
      description: "Per-operation deadlines in seconds; default `cims:taskTimeoutSeconds`.",
      properties: { create: { type: "number" }, update: { type: "number" }, delete: { type: "number" } },
    },
  };
  for (const [t, name, description] of NAMED) types[`cims:index:${name}`] = objectTypeOf(t, description);
  return {
    name: "cims",
    displayName: "CIMS",
    version,
    description:
      "The Cloud Infrastructure Management Service (CIMS): subnets, bare-metal images, load balancer pool settings, snapshot policy state and quota thresholds.",
    keywords: ["pulumi", "cims", "category/cloud"],
    license: "Apache-2.0",
    config: { variables: CONFIG },
    provider: { description: "The CIMS provider: where the API is, and its key.", inputProperties: CONFIG },
    types,
    resources: Object.fromEntries(KIND_NAMES.map((type) => [`cims:index:${type}`, resourceOf(type)])),
  };
}

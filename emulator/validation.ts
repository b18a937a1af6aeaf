// Request-body rules: one validator per writable operation, each answering field path ->
// messages ({} when valid). The rules come from the interface spec, and from design §5
// where the spec is silent. Unknown fields are errors, never ignored, so that a client's
// camelCase leak (`networkId`) or typo surfaces here instead of being silently dropped.
//
// Bodies come from lossless-json: safe integers are numbers, larger ones bigints, so an
// integer is either; nothing is coerced ("true" is not a boolean, "80" not an integer).
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export type InvalidFields = Record<string, string[]>;

// ---------------------------------------------------------------------------------------
// Exported value checks (the router uses isUuid4 for path parameters too)
// ---------------------------------------------------------------------------------------

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isUuid4(value: unknown): boolean {
  return typeof value === "string" && UUID4.test(value);
}

/** The IP version of an address, 0 if not one. A zone suffix (`fe80::1%eth0`) is refused:
 * it only means something on one host, never in a subnet, route or member definition. */
export function isIpAddress(value: unknown): 4 | 6 | 0 {
  if (typeof value !== "string" || value.includes("%")) return 0;
  const version = isIP(value);
  return version === 4 || version === 6 ? version : 0;
}

/** A network written as `address/prefix` with all host bits zero (`10.0.0.0/24`, not
 * `10.0.0.1/24`): the service refuses an address posing as a network. */
export function parseCidr(value: unknown): { version: 4 | 6; prefix: number } | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^([^/]+)\/(0|[1-9]\d{0,2})$/.exec(value);
  if (!match) return undefined;
  const version = isIpAddress(match[1]);
  if (version === 0) return undefined;
  const bits = version === 4 ? 32 : 128;
  const prefix = Number(match[2]);
  if (prefix > bits) return undefined;
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  return (addressValue(match[1]) & hostMask) === 0n ? { version, prefix } : undefined;
}

function addressValue(address: string): bigint {
  return ipaddr.parse(address).toByteArray().reduce((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
}

/** One spelling per address, so `2001:DB8::1` and `2001:db8:0::1` count as the same. */
export function canonicalIp(address: string): string {
  return ipaddr.parse(address).toString();
}

// ---------------------------------------------------------------------------------------
// Rule machinery: a Rule checks one value at one path; a Shape describes an object.
// ---------------------------------------------------------------------------------------

const REQUIRED = "This field is required.";
const NOT_NULL = "This field may not be null.";
const UNKNOWN = "Unknown field.";
const FIXED = "This field cannot be updated.";
const NOT_INTEGER = "A valid integer is required.";
const NOT_STRING = "Must be a string.";

/** Messages collected by field path. A Map, because paths come from client keys and a key
 * such as "constructor" or "__proto__" must not meet Object.prototype. */
class Report {
  private readonly byPath = new Map<string, string[]>();

  add(path: string, message: string): void {
    const messages = this.byPath.get(path);
    if (messages) messages.push(message);
    else this.byPath.set(path, [message]);
  }

  /** Object.fromEntries defines own properties, so even "__proto__" stays a plain key. */
  get fields(): InvalidFields {
    return Object.fromEntries(this.byPath);
  }
}

type Rule = (value: unknown, path: string, report: Report) => void;
type Guard<T> = (value: unknown) => value is T;
type JsonObject = Record<string, unknown>;

interface Shape {
  required?: Record<string, Rule>;
  optional?: Record<string, Rule>;
  /** Fields the resource has but this operation does not accept. */
  fixed?: readonly string[];
}

const child = (path: string, key: string) => (path ? `${path}.${key}` : key);
const item = (path: string, index: number) => `${path}[${index}]`;
// Limits count characters (code points), as the service does, not UTF-16 units.
const charCount = (text: string) => [...text].length;

const isString: Guard<string> = (v): v is string => typeof v === "string";
const isBoolean: Guard<boolean> = (v): v is boolean => typeof v === "boolean";
const isArray: Guard<unknown[]> = (v): v is unknown[] => Array.isArray(v);
const isInteger: Guard<number | bigint> = (v): v is number | bigint =>
  typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v));

function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Reports null or a wrong type at `path`; true when the value has the expected type. */
function hasType<T>(value: unknown, guard: Guard<T>, typeMessage: string, path: string, report: Report): value is T {
  if (value === null) report.add(path, NOT_NULL);
  else if (!guard(value)) report.add(path, typeMessage);
  else return true;
  return false;
}

/** A rule for one typed value, with an optional further check returning a message. */
function typed<T>(guard: Guard<T>, typeMessage: string, problem?: (value: T) => string | undefined): Rule {
  return (value, path, report) => {
    if (!hasType(value, guard, typeMessage, path, report)) return;
    const message = problem?.(value);
    if (message) report.add(path, message);
  };
}

/** Lets a rule accept null as well (the spec's "... or null"). */
function nullable(rule: Rule): Rule {
  return (value, path, report) => {
    if (value !== null) rule(value, path, report);
  };
}

const string = typed(isString, NOT_STRING);
const boolean = typed(isBoolean, "Must be a boolean.");
const name = typed(isString, NOT_STRING, (s) => (s.trim() === "" ? "This field may not be blank." : undefined));
const uuid4 = typed(isString, NOT_STRING, (s) => (isUuid4(s) ? undefined : "Must be a valid UUID4."));
const ipAddress = typed(isString, NOT_STRING, (s) => (isIpAddress(s) ? undefined : "Must be a valid IP address."));
const cidr = typed(isString, NOT_STRING, (s) =>
  parseCidr(s) ? undefined : "Must be a valid IP network such as 10.0.0.0/24, with the host bits zero.",
);

function oneOf(...values: string[]): Rule {
  return typed(isString, NOT_STRING, (s) => (values.includes(s) ? undefined : `Must be one of: ${values.join(", ")}.`));
}

function integer(min?: number | bigint, max?: number | bigint): Rule {
  return typed(isInteger, NOT_INTEGER, (n) => {
    if (min !== undefined && max !== undefined) return n < min || n > max ? `Must be between ${min} and ${max}.` : undefined;
    if (min !== undefined && n < min) return `Must be at least ${min}.`;
    if (max !== undefined && n > max) return `Must be at most ${max}.`;
    return undefined;
  });
}

/** An array whose items each follow `each`; `whole` then checks relations between items. */
function arrayOf(each: Rule, whole?: (items: unknown[], path: string, report: Report) => void): Rule {
  return (value, path, report) => {
    if (!hasType(value, isArray, "Must be an array.", path, report)) return;
    value.forEach((entry, index) => each(entry, item(path, index), report));
    whole?.(value, path, report);
  };
}

function object(shape: Shape, whole?: (value: JsonObject, path: string, report: Report) => void): Rule {
  return (value, path, report) => {
    if (!hasType(value, isPlainObject, "Must be an object.", path, report)) return;
    checkObjectKeys(value, path, shape, report);
    whole?.(value, path, report);
  };
}

/** Every present field against its rule, unknown and fixed fields refused, required ones present. */
function checkObjectKeys(value: JsonObject, path: string, shape: Shape, report: Report): void {
  // Own-property lookups only: a field called "constructor" must not find Object's.
  const ruleFor = (key: string) =>
    (shape.required && Object.hasOwn(shape.required, key) ? shape.required[key] : undefined) ??
    (shape.optional && Object.hasOwn(shape.optional, key) ? shape.optional[key] : undefined);
  for (const [key, fieldValue] of Object.entries(value)) {
    const rule = ruleFor(key);
    if (rule) rule(fieldValue, child(path, key), report);
    else report.add(child(path, key), shape.fixed?.includes(key) ? FIXED : UNKNOWN);
  }
  for (const key of Object.keys(shape.required ?? {})) {
    if (!Object.hasOwn(value, key)) report.add(child(path, key), REQUIRED);
  }
}

/** Runs a top-level shape (plus cross-field rules) over a request body. */
function validateBody(body: unknown, shape: Shape, crossRules?: (body: JsonObject, report: Report) => void): InvalidFields {
  if (!isPlainObject(body)) return { non_field_errors: ["Expected a JSON object."] };
  const report = new Report();
  checkObjectKeys(body, "", shape, report);
  crossRules?.(body, report);
  return report.fields;
}

/** Reports each item equal (by `key`) to an earlier one; items without a key are skipped. */
function noDuplicates(key: (entry: unknown) => string | undefined, message: (earlier: string) => string) {
  return (items: unknown[], path: string, report: Report) => {
    const seen = new Map<string, number>();
    items.forEach((entry, index) => {
      const k = key(entry);
      if (k === undefined) return;
      const earlier = seen.get(k);
      if (earlier === undefined) seen.set(k, index);
      else report.add(item(path, index), message(item(path, earlier)));
    });
  };
}

// ---------------------------------------------------------------------------------------
// Tags: string keys to string values, each at most 255 characters. On update they are a
// merge patch, where a null value removes the key.
// ---------------------------------------------------------------------------------------

const TAG_LIMIT = 255;

function tags(merge: boolean): Rule {
  const valueMessage = merge ? "Must be a string, or null to remove the tag." : NOT_STRING;
  return (value, path, report) => {
    if (!hasType(value, isPlainObject, "Must be an object of string keys to string values.", path, report)) return;
    for (const [key, tagValue] of Object.entries(value)) {
      // Key problems go under `tags` itself: a bad key makes a poor path.
      if (key === "") report.add(path, "Tag keys may not be blank.");
      else if (charCount(key) > TAG_LIMIT) report.add(path, `Tag keys may have at most ${TAG_LIMIT} characters.`);
      else if (merge && tagValue === null) continue;
      else if (typeof tagValue !== "string") report.add(child(path, key), valueMessage);
      else if (charCount(tagValue) > TAG_LIMIT) report.add(child(path, key), `Tag values may have at most ${TAG_LIMIT} characters.`);
    }
  };
}

// ---------------------------------------------------------------------------------------
// Subnets
// ---------------------------------------------------------------------------------------

const dnsNameservers = nullable(
  arrayOf(
    ipAddress,
    noDuplicates(
      (entry) => (isIpAddress(entry) ? canonicalIp(entry as string) : undefined),
      (earlier) => `Duplicate address: same as ${earlier}.`,
    ),
  ),
);

const route = object(
  { required: { destination: cidr, nexthop: ipAddress } },
  // A route through a next hop of the other IP version cannot be installed.
  (value, path, report) => {
    const net = parseCidr(value.destination);
    const hop = isIpAddress(value.nexthop);
    if (net && hop && net.version !== hop) report.add(child(path, "nexthop"), `Must be an IPv${net.version} address, like the destination.`);
  },
);

const ipVersion = typed(isInteger, NOT_INTEGER, (n) => (n === 4 || n === 6 ? undefined : "Must be one of: 4, 6."));

const SUBNET_UPDATABLE: Record<string, Rule> = {
  name,
  enable_dhcp: boolean,
  dns_nameservers: dnsNameservers,
  gateway_ip: nullable(ipAddress),
  host_routes: nullable(arrayOf(route)),
};

const SUBNET_CREATE: Shape = {
  required: { cidr, name, network_id: uuid4 },
  optional: {
    ...SUBNET_UPDATABLE,
    connect_to_network_router: boolean,
    ip_version: ipVersion,
    router_id_to_connect: nullable(uuid4),
    tags: tags(false),
  },
};

const SUBNET_PATCH: Shape = {
  optional: { ...SUBNET_UPDATABLE, tags: tags(true) },
  fixed: [
    "cidr", "network_id", "connect_to_network_router", "ip_version", "router_id_to_connect",
    "id", "available_ips", "total_ips", "created_at", "updated_at", "project_id", "region_id",
  ],
};

/** Rules between subnet fields; each reports only when the fields involved are well-formed. */
function subnetCrossRules(body: JsonObject, report: Report): void {
  const net = parseCidr(body.cidr);
  const gateway = isIpAddress(body.gateway_ip);
  if (net && gateway && gateway !== net.version) report.add("gateway_ip", `Must be an IPv${net.version} address, like the cidr.`);
  if (net && (body.ip_version === 4 || body.ip_version === 6) && body.ip_version !== net.version) {
    report.add("ip_version", `Must match the IP version of the cidr (${net.version}).`);
  }
  if (body.gateway_ip === null && body.connect_to_network_router !== false) {
    report.add("connect_to_network_router", "Must be explicitly false when gateway_ip is null.");
  }
  const routerId = body.router_id_to_connect;
  if (routerId !== undefined && routerId !== null && body.connect_to_network_router === false) {
    report.add("router_id_to_connect", "Requires connect_to_network_router to be true.");
  }
}

export function validateSubnetCreate(body: unknown): InvalidFields {
  return validateBody(body, SUBNET_CREATE, subnetCrossRules);
}

export function validateSubnetPatch(body: unknown): InvalidFields {
  return validateBody(body, SUBNET_PATCH);
}

// ---------------------------------------------------------------------------------------
// Images
// ---------------------------------------------------------------------------------------

const IMAGE_UPDATABLE: Record<string, Rule> = {
  name,
  hw_firmware_type: nullable(oneOf("bios", "uefi")),
  hw_machine_type: nullable(oneOf("pc", "q35")),
  is_baremetal: boolean,
  os_type: oneOf("linux", "windows"),
  ssh_key: oneOf("allow", "deny", "required"),
};

const IMAGE_CREATE: Shape = {
  required: { name, volume_id: uuid4 },
  optional: {
    ...IMAGE_UPDATABLE,
    architecture: oneOf("aarch64", "x86_64"),
    source: oneOf("volume"),
    tags: tags(false),
  },
};

const IMAGE_PATCH: Shape = {
  optional: { ...IMAGE_UPDATABLE, tags: tags(true) },
  fixed: ["volume_id", "architecture", "source"],
};

export function validateImageCreate(body: unknown): InvalidFields {
  return validateBody(body, IMAGE_CREATE);
}

export function validateImagePatch(body: unknown): InvalidFields {
  return validateBody(body, IMAGE_PATCH);
}

// ---------------------------------------------------------------------------------------
// Load balancer pools
// ---------------------------------------------------------------------------------------

const member = object({
  required: { address: ipAddress, protocol_port: integer(1, 65535) },
  optional: { weight: integer(1, 256), subnet_id: uuid4, id: uuid4, operating_status: string },
});

// The service matches members by address and port (to keep them), so a pair must be unique.
const uniqueMembers = noDuplicates(
  (entry) => {
    if (!isPlainObject(entry) || !isIpAddress(entry.address) || !isInteger(entry.protocol_port)) return undefined;
    return `${canonicalIp(entry.address as string)} ${entry.protocol_port}`;
  },
  (earlier) => `Duplicate member: same address and protocol_port as ${earlier}.`,
);

/** "200", "200,202", "200-204", or a mix: HTTP status codes 100..599, ranges ascending. */
function expectedCodesProblem(text: string): string | undefined {
  const valid = text.split(",").every((part) => {
    const match = /^(\d{3})(?:-(\d{3}))?$/.exec(part);
    if (!match) return false;
    const low = Number(match[1]);
    const high = Number(match[2] ?? match[1]);
    return low >= 100 && high <= 599 && low <= high;
  });
  return valid ? undefined : 'Must be HTTP status codes (100-599) separated by commas, or ranges such as "200-204".';
}

const healthmonitor = object({
  required: {
    type: oneOf("HTTP", "HTTPS", "K8S", "PING", "TCP", "TLS-HELLO", "UDP-CONNECT"),
    delay: integer(1),
    timeout: integer(1),
    max_retries: integer(1, 10),
  },
  optional: {
    max_retries_down: integer(1, 10),
    http_method: oneOf("CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"),
    url_path: typed(isString, NOT_STRING, (s) => (s.startsWith("/") ? undefined : 'Must start with "/".')),
    expected_codes: typed(isString, NOT_STRING, expectedCodesProblem),
  },
});

const sessionPersistence = object({
  required: { type: oneOf("APP_COOKIE", "HTTP_COOKIE", "SOURCE_IP") },
  optional: { cookie_name: string, persistence_granularity: string, persistence_timeout: integer(0) },
});

const poolTimeout = nullable(integer(0, 86_400_000));

const POOL_PATCH: Shape = {
  optional: {
    name,
    lb_algorithm: oneOf("LEAST_CONNECTIONS", "ROUND_ROBIN", "SOURCE_IP"),
    protocol: oneOf("HTTP", "HTTPS", "PROXY", "PROXYV2", "TCP", "UDP"),
    ca_secret_id: nullable(uuid4),
    crl_secret_id: nullable(uuid4),
    secret_id: nullable(uuid4),
    timeout_client_data: poolTimeout,
    timeout_member_connect: poolTimeout,
    timeout_member_data: poolTimeout,
    members: nullable(arrayOf(member, uniqueMembers)),
    // Not nullable: the spec types both as plain objects.
    healthmonitor,
    session_persistence: sessionPersistence,
  },
  fixed: ["id", "provisioning_status", "operating_status", "listeners", "loadbalancers"],
};

export function validatePoolPatch(body: unknown): InvalidFields {
  return validateBody(body, POOL_PATCH);
}

// ---------------------------------------------------------------------------------------
// Snapshot lifecycle policies
// ---------------------------------------------------------------------------------------

const POLICY_PATCH: Shape = {
  optional: { name, status: oneOf("active", "paused") },
  fixed: ["id", "action", "project_id", "region_id", "user_id", "schedules", "volumes"],
};

export function validatePolicyPatch(body: unknown): InvalidFields {
  return validateBody(body, POLICY_PATCH);
}

// ---------------------------------------------------------------------------------------
// Quota notification threshold
// ---------------------------------------------------------------------------------------

// Bases copied from the spec; every quota travels as <base>_limit and <base>_usage.
export const GLOBAL_QUOTA_BASES = [
  "inference_cpu_millicore_count", "inference_gpu_a100_count", "inference_gpu_h100_count",
  "inference_gpu_l40s_count", "inference_instance_count", "keypair_count", "project_count",
];

export const REGIONAL_QUOTA_BASES = [
  "baremetal_basic_count", "baremetal_gpu_a100_count", "baremetal_gpu_h100_count", "baremetal_gpu_h200_count",
  "baremetal_gpu_l40s_count", "baremetal_hf_count", "baremetal_infrastructure_count", "baremetal_network_count",
  "baremetal_storage_count", "caas_container_count", "caas_cpu_count", "caas_gpu_count", "caas_ram_size",
  "cluster_count", "cpu_count", "dbaas_postgres_cluster_count", "external_ip_count", "faas_cpu_count",
  "faas_function_count", "faas_namespace_count", "faas_ram_size", "firewall_count", "floating_count", "gpu_count",
  "gpu_virtual_a100_count", "gpu_virtual_h100_count", "gpu_virtual_h200_count", "gpu_virtual_l40s_count",
  "image_count", "image_size", "ipu_count", "laas_topic_count", "loadbalancer_count", "network_count", "ram",
  "registry_count", "registry_storage", "router_count", "secret_count", "servergroup_count", "sfs_count",
  "sfs_size", "shared_vm_count", "snapshot_schedule_count", "subnet_count", "vm_count", "volume_count",
  "volume_size", "volume_snapshots_count", "volume_snapshots_size",
];

const INT64_MIN = -9223372036854775808n;
const INT64_MAX = 9223372036854775807n;
const int64 = integer(INT64_MIN, INT64_MAX);

const quotaEntry = object({ required: { limit: int64, usage: int64 } });

function quotaMembers(bases: readonly string[]): Record<string, Rule> {
  return Object.fromEntries(bases.flatMap((base) => [[`${base}_limit`, quotaEntry], [`${base}_usage`, quotaEntry]]));
}

const regionalQuotas = object({
  required: { region_id: integer(), region_name: string },
  optional: quotaMembers(REGIONAL_QUOTA_BASES),
});

const lastMessage = object({
  optional: {
    global_quotas: object({ optional: quotaMembers(GLOBAL_QUOTA_BASES) }),
    regional_quotas: arrayOf(regionalQuotas),
  },
});

// ISO 8601 date and time; seconds, fraction and zone optional (the service itself writes
// "2026-05-23T05:07:31", without zone).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2})(?::?(\d{2}))?)?$/;

function dateTimeProblem(text: string): string | undefined {
  const match = DATE_TIME.exec(text);
  return match && isRealDateTime(match) ? undefined : 'Must be an ISO 8601 date-time such as "2026-05-23T05:07:31" or "2026-05-23T05:07:31Z".';
}

/** The pattern admits 2026-02-30 or 25:00; the calendar and the clock do not. */
function isRealDateTime(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second, zoneHour, zoneMinute] = match.slice(1).map((part) => Number(part ?? 0));
  // setUTCFullYear, unlike Date.UTC, leaves years below 100 alone; an impossible day rolls over.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const realDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return realDay && hour <= 23 && minute <= 59 && second <= 59 && zoneHour <= 23 && zoneMinute <= 59;
}

const QUOTA_PUT: Shape = {
  required: { threshold: integer(60, 100) },
  optional: { last_message: lastMessage, last_sending: nullable(typed(isString, NOT_STRING, dateTimeProblem)) },
  fixed: ["client_id"],
};

export function validateQuotaPut(body: unknown): InvalidFields {
  return validateBody(body, QUOTA_PUT);
}

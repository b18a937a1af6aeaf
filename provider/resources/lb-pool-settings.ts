// LbPoolSettings: manages chosen settings of an existing load balancer pool with PATCH
// lbpools (asynchronous). Only the fields given are managed; members are matched by
// address+port (the service keeps those as they are, without re-creation). Destroy leaves
// the pool as it is: the stack stops managing it.
import * as pulumi from "@pulumi/pulumi";
import * as ipaddr from "ipaddr.js";
import { z } from "zod";
import { ApiError } from "../client/errors";
import { apiPath } from "../client/path";
import { changedFields, diffResult, type FieldRule, sameValue } from "./diff";
import { callAndWait, camelKeys, outputKeys, PartialCreateError, plain, scopeFailures, snakeKeys, readOrGone, withContext, withoutProvider } from "./ops";
import { apiClient, log } from "./runtime";
import { type Inputs, intRange, ipAddress, isUnknown, nonBlank, oneOf, scope, timeouts, type Timeouts, userInputs, uuid4, validate } from "./schema";
import { lbPoolSettingsShim } from "./shim";

export interface PoolMember {
  /** Member IP address. With `protocolPort`, the member's identity. */
  address: string;
  /** Port, 1..65535. */
  protocolPort: number;
  /** 1..256; the service's default is 1. */
  weight?: number;
  /** Subnet of the member (uuid4). */
  subnetId?: string;
  /** Set by the service. */
  id?: string;
  /** Set by the service (e.g. NO_MONITOR). */
  operatingStatus?: string;
}

export interface HealthMonitor {
  /** HTTP, HTTPS, K8S, PING, TCP, TLS-HELLO or UDP-CONNECT. */
  type: string;
  /** Seconds between checks. */
  delay: number;
  /** Seconds a check may take. */
  timeout: number;
  /** 1..10 successes to mark a member up. */
  maxRetries: number;
  /** 1..10 failures to mark a member down. */
  maxRetriesDown?: number;
  httpMethod?: string;
  urlPath?: string;
  /** Comma-separated status codes or ranges, e.g. "200,202" or "200-204". */
  expectedCodes?: string;
}

export interface SessionPersistence {
  /** APP_COOKIE, HTTP_COOKIE or SOURCE_IP. */
  type: string;
  cookieName?: string;
  persistenceGranularity?: string;
  persistenceTimeout?: number;
}

/** Each field may be a Pulumi input (e.g. a subnet id from another resource). */
export type InputFields<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export interface LbPoolSettingsArgs {
  /** The pool (uuid4). Changing it replaces (manages another pool). */
  readonly poolId: pulumi.Input<string>;
  /** Pool name. */
  readonly name?: pulumi.Input<string>;
  /** LEAST_CONNECTIONS, ROUND_ROBIN or SOURCE_IP. */
  readonly lbAlgorithm?: pulumi.Input<"LEAST_CONNECTIONS" | "ROUND_ROBIN" | "SOURCE_IP">;
  /** HTTP, HTTPS, PROXY, PROXYV2, TCP or UDP. */
  readonly protocol?: pulumi.Input<"HTTP" | "HTTPS" | "PROXY" | "PROXYV2" | "TCP" | "UDP">;
  /** CA certificate bundle secret (uuid4), or null for none. */
  readonly caSecretId?: pulumi.Input<string | null>;
  /** CA revocation list secret (uuid4), or null for none. */
  readonly crlSecretId?: pulumi.Input<string | null>;
  /** Secret for TLS client authentication to members (uuid4), or null for none. */
  readonly secretId?: pulumi.Input<string | null>;
  /** Health monitor settings (sent whole when changed). */
  readonly healthmonitor?: pulumi.Input<InputFields<HealthMonitor>>;
  /** Session persistence settings (sent whole when changed). */
  readonly sessionPersistence?: pulumi.Input<InputFields<SessionPersistence>>;
  /** The pool's members, sent whole when changed; null or [] removes them all. Order does not matter. */
  readonly members?: pulumi.Input<pulumi.Input<InputFields<PoolMember>>[] | null>;
  /** Client inactivity timeout, ms, 0..86400000, or null. */
  readonly timeoutClientData?: pulumi.Input<number | null>;
  /** Member connect timeout, ms, 0..86400000, or null. */
  readonly timeoutMemberConnect?: pulumi.Input<number | null>;
  /** Member inactivity timeout, ms, 0..86400000, or null. */
  readonly timeoutMemberData?: pulumi.Input<number | null>;
  /** Project; default `cims:projectId`. Replaces. */
  readonly projectId?: pulumi.Input<number>;
  /** Region; default `cims:regionId`. Replaces. */
  readonly regionId?: pulumi.Input<number>;
  /** Deadlines for waiting on the pool's tasks. */
  readonly timeouts?: pulumi.Input<Timeouts>;
}

const ms = intRange(0, 86400000, "milliseconds").nullable();
const member = z.strictObject({
  address: ipAddress,
  protocolPort: intRange(1, 65535),
  weight: intRange(1, 256).optional(),
  subnetId: uuid4.optional(),
  id: uuid4.optional(),
  operatingStatus: z.string().optional(),
});

const schema = z
  .strictObject({
    poolId: uuid4,
    name: nonBlank.optional(),
    lbAlgorithm: oneOf(["LEAST_CONNECTIONS", "ROUND_ROBIN", "SOURCE_IP"]).optional(),
    protocol: oneOf(["HTTP", "HTTPS", "PROXY", "PROXYV2", "TCP", "UDP"]).optional(),
    caSecretId: uuid4.nullable().optional(),
    crlSecretId: uuid4.nullable().optional(),
    secretId: uuid4.nullable().optional(),
    healthmonitor: z
      .strictObject({
        type: oneOf(["HTTP", "HTTPS", "K8S", "PING", "TCP", "TLS-HELLO", "UDP-CONNECT"]),
        delay: intRange(1, 2147483647, "seconds"),
        timeout: intRange(1, 2147483647, "seconds"),
        maxRetries: intRange(1, 10),
        maxRetriesDown: intRange(1, 10).optional(),
        httpMethod: oneOf(["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"]).optional(),
        urlPath: z.string().startsWith("/", "must start with /").optional(),
        expectedCodes: z.string().regex(/^\d{3}(-\d{3})?(,\d{3}(-\d{3})?)*$/, 'must be status codes or ranges like "200,202" or "200-204"').optional(),
      })
      .nullable() // accepted by the type check only to be refused below with a reason
      .optional(),
    sessionPersistence: z
      .strictObject({
        type: oneOf(["APP_COOKIE", "HTTP_COOKIE", "SOURCE_IP"]),
        cookieName: z.string().optional(),
        persistenceGranularity: z.string().optional(),
        persistenceTimeout: intRange(0, 2147483647, "seconds").optional(),
      })
      .nullable()
      .optional(),
    members: z.array(member).nullable().optional(),
    timeoutClientData: ms.optional(),
    timeoutMemberConnect: ms.optional(),
    timeoutMemberData: ms.optional(),
    projectId: scope.projectId.optional(),
    regionId: scope.regionId.optional(),
    timeouts: timeouts.optional(),
  })
  .superRefine((v, ctx) => {
    for (const field of ["healthmonitor", "sessionPersistence"] as const) {
      if (v[field] === null) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message:
            "cannot be null: the pool update (PATCH lbpools) takes an object only, so the API offers no way to remove it; " +
            `omit ${field} to stop managing it, or give the settings it should have`,
        });
      }
    }
    const seen = new Map<string, number>();
    (v.members ?? []).forEach((m, i) => {
      // During preview an address or port may be unknown: two such members are not duplicates.
      if (isUnknown(m.address) || isUnknown(m.protocolPort)) return;
      const key = memberKey(m);
      const first = seen.get(key);
      if (first !== undefined) ctx.addIssue({ code: "custom", path: ["members", i], message: `duplicates members[${first}] (same address and protocolPort)` });
      else seen.set(key, i);
    });
  });

type Member = Record<string, unknown>;
/** address+port, the address in one spelling (the service treats 2001:DB8::a and 2001:db8::a as one). */
function memberKey(m: Member): string {
  const address = String(m.address);
  return `${ipaddr.isValid(address) ? ipaddr.parse(address).toString() : address}:${String(m.protocolPort)}`;
}

/** Every field the user gave for a member matches; members are matched by address+port, in any order. */
export function sameMembers(olds: unknown, news: unknown): boolean {
  const a = (olds ?? []) as Member[];
  const b = (news ?? []) as Member[];
  if (a.length !== b.length) return false;
  const byKey = new Map(a.map((m) => [memberKey(m), m]));
  return b.every((m) => {
    const old = byKey.get(memberKey(m));
    return old !== undefined && ["weight", "subnetId"].every((f) => m[f] === undefined || sameValue(old[f], m[f]));
  });
}

/** The fields the user gave match (the service adds ids and defaults of its own). */
function sameGiven(olds: unknown, news: unknown): boolean {
  if (news === undefined || news === null || olds === undefined || olds === null) return sameValue(olds ?? null, news ?? null);
  return Object.entries(news as Inputs).every(([k, v]) => v === undefined || sameValue((olds as Inputs)[k], v));
}

/** camelCase field -> wire name of the settings PATCH lbpools accepts. */
const WIRE: Record<string, string> = {
  name: "name",
  lbAlgorithm: "lb_algorithm",
  protocol: "protocol",
  caSecretId: "ca_secret_id",
  crlSecretId: "crl_secret_id",
  secretId: "secret_id",
  healthmonitor: "healthmonitor",
  sessionPersistence: "session_persistence",
  members: "members",
  timeoutClientData: "timeout_client_data",
  timeoutMemberConnect: "timeout_member_connect",
  timeoutMemberData: "timeout_member_data",
};

const FIELDS: FieldRule[] = [
  { name: "poolId", replaces: true },
  ...Object.keys(WIRE).map((name) => ({
    name,
    autoWhenOmitted: true,
    equal: name === "members" ? sameMembers : name === "healthmonitor" || name === "sessionPersistence" ? sameGiven : undefined,
  })),
  { name: "projectId", replaces: true },
  { name: "regionId", replaces: true },
  { name: "timeouts" },
];

async function check(_olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const scoped = scopeFailures(userInputs(news));
  const failures = [...validate(schema, scoped.inputs), ...scoped.failures];
  return { inputs: plain({ ...news, ...scoped.inputs }) as Inputs, failures };
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.DiffResult> {
  return diffResult(changedFields(olds, news, FIELDS));
}

/** PATCH body for these fields; nested objects and members are sent whole, snake_cased. */
export function toPatchBody(inputs: Inputs, fields: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    if (!(f in WIRE) || inputs[f] === undefined) continue;
    body[WIRE[f]] = f === "members" && inputs[f] === null ? null : snakeKeys(inputs[f]);
  }
  return body;
}

/** The managed fields (those the user gave) as the service has them. */
export function fromRecord(record: Record<string, unknown>, managed: Inputs): Inputs {
  const out: Inputs = {};
  for (const [field, wire] of Object.entries(WIRE)) {
    if (managed[field] !== undefined) out[field] = field === "members" ? camelKeys(record[wire] ?? []) : camelKeys(record[wire] ?? null);
  }
  return plain(out) as Inputs;
}

const label = (i: Inputs) => `LbPoolSettings of pool ${String(i.poolId)}`;

const path = (i: Inputs) =>
  apiPath("/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}", {
    project_id: i.projectId as number,
    region_id: i.regionId as number,
    pool_id: i.poolId as string,
  });

/**
 * Members the service would keep unchanged although the user changed their weight or subnet:
 * it keeps a member with the same address and port "as it is", so such a change never lands
 * and the diff would never clear.
 */
export function membersToRecreate(current: Member[], wanted: Member[]): Member[] {
  const byKey = new Map(current.map((m) => [memberKey(m), m]));
  return wanted.filter((m) => {
    const old = byKey.get(memberKey(m));
    return old !== undefined && ["weight", "subnetId"].some((f) => m[f] !== undefined && !sameValue(old[f], m[f]));
  });
}

async function apply(inputs: Inputs, fields: string[], op: "create" | "update"): Promise<Inputs> {
  const what = label(inputs);
  const body = toPatchBody(inputs, fields);
  const taskIds: string[] = [];
  if (Array.isArray(body.members)) {
    // Two steps for changed members: PATCH without them (the service drops them), then with
    // them (created anew with the wanted settings). Only those members see a gap.
    const current = camelKeys((await apiClient().request<Record<string, unknown>>("GET", path(inputs))).members ?? []) as Member[];
    const stale = membersToRecreate(current, inputs.members as Member[]);
    if (stale.length > 0) {
      const keys = new Set(stale.map(memberKey));
      log(`${what}: ${[...keys].join(", ")} changed weight or subnetId; the service keeps same-address members as they are, so they are removed and added back`);
      const without = (inputs.members as Member[]).filter((m) => !keys.has(memberKey(m)));
      taskIds.push(...(await callAndWait("PATCH", path(inputs), what, op, inputs, { body: { members: snakeKeys(without) } })).taskIds);
    }
  }
  if (Object.keys(body).length > 0) taskIds.push(...(await callAndWait("PATCH", path(inputs), what, op, inputs, { body })).taskIds);
  const record = await apiClient().request<Record<string, unknown>>("GET", path(inputs));
  return { ...withoutProvider(inputs), ...fromRecord(record, inputs), taskIds };
}

async function create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult> {
  try {
    return await withContext(label(inputs), async () => ({ id: String(inputs.poolId), outs: await apply(inputs, Object.keys(WIRE), "create") }));
  } catch (err) {
    // The service refused the request itself (bad input, no such pool, no access): nothing
    // was applied, so fail plainly. Otherwise the pool may be half-set: record it with its
    // identity only (and the provider, which refresh and destroy load), so the next `up`
    // sees every given field as changed and applies them all again.
    if (err instanceof ApiError && [400, 401, 403, 404].includes(err.status)) throw err;
    throw new PartialCreateError((err as Error).message, String(inputs.poolId), identityOnly(inputs));
  }
}

/** What a half-applied create records: no managed field, so none can look already applied. */
export function identityOnly(inputs: Inputs): Inputs {
  const { __provider, poolId, projectId, regionId, timeouts } = inputs;
  return plain({ __provider, poolId, projectId, regionId, timeouts }) as Inputs;
}

async function update(_id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult> {
  const changed = changedFields(olds, news, FIELDS).map((r) => r.name);
  return withContext(label(news), async () => ({ outs: await apply(news, changed, "update") }));
}

async function remove(_id: string, props: Inputs): Promise<void> {
  log(`${label(props)}: left as it is (the stack no longer manages it)`);
}

async function read(id: string, props: Inputs): Promise<pulumi.dynamic.ReadResult> {
  return readOrGone(id, props, path(props), (record) => fromRecord(record, props), FIELDS, { includeAuto: true });
}

export const lbPoolSettingsMethods = { check, diff, create, update, read, delete: remove };

const OUTPUTS = ["poolId", ...Object.keys(WIRE), "projectId", "regionId", "taskIds"];

/**
 * Settings of an existing load balancer pool: only the fields you give are managed.
 * Updates are asynchronous (`pulumi up` waits for the pool's tasks). Destroy leaves the
 * pool as it is.
 */
export class LbPoolSettings extends pulumi.dynamic.Resource {
  public readonly poolId!: pulumi.Output<string>;
  public readonly name!: pulumi.Output<string | undefined>;
  public readonly lbAlgorithm!: pulumi.Output<string | undefined>;
  public readonly protocol!: pulumi.Output<string | undefined>;
  public readonly caSecretId!: pulumi.Output<string | null | undefined>;
  public readonly crlSecretId!: pulumi.Output<string | null | undefined>;
  public readonly secretId!: pulumi.Output<string | null | undefined>;
  public readonly healthmonitor!: pulumi.Output<HealthMonitor | null | undefined>;
  public readonly sessionPersistence!: pulumi.Output<SessionPersistence | null | undefined>;
  /** Members as the service has them, with their ids. */
  public readonly members!: pulumi.Output<PoolMember[] | undefined>;
  public readonly timeoutClientData!: pulumi.Output<number | null | undefined>;
  public readonly timeoutMemberConnect!: pulumi.Output<number | null | undefined>;
  public readonly timeoutMemberData!: pulumi.Output<number | null | undefined>;
  public readonly projectId!: pulumi.Output<number>;
  public readonly regionId!: pulumi.Output<number>;
  /** Tasks of the last PATCH. */
  public readonly taskIds!: pulumi.Output<string[]>;

  constructor(name: string, args: LbPoolSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(lbPoolSettingsShim, name, { ...outputKeys(OUTPUTS), ...args }, opts, "cims", "LbPoolSettings");
  }
}

// LbPoolSettings as a program sees it: its arguments and the resource class. The provider
// methods are in ../kinds/lb-pool-settings.ts, loaded only by the provider process.
import type * as pulumi from "@pulumi/pulumi";
import {
  HealthMonitor as HealthMonitorContract,
  PoolMember as PoolMemberContract,
  LbPoolSettings as LbPoolSettingsContract,
  SessionPersistence as SessionPersistenceContract,
} from "../../api/contract";
import type { ObjectOf } from "../../api/contract";
import { outputKeys, withOutputs } from "./outputs";
import { lbPoolSettingsShim } from "./shim";
import type { Timeouts } from "./timeouts";

/**
 * A pool member: `address` (IP) and `protocolPort` (1..65535) are its identity; `weight`
 * (1..256, the service's default 1) and `subnetId` (uuid4) are settings; `id` and
 * `operatingStatus` are set by the service.
 */
export type PoolMember = ObjectOf<typeof PoolMemberContract.fields>;

/**
 * Health monitor: `type` (HTTP, HTTPS, K8S, PING, TCP, TLS-HELLO, UDP-CONNECT), `delay` and
 * `timeout` in seconds, `maxRetries`/`maxRetriesDown` (1..10), `httpMethod`, `urlPath`
 * (starts with /), `expectedCodes` (status codes 100-599 or ranges: "200,202", "200-204"),
 * `httpVersion` ("1.0" or "1.1"), `domainName` (the Host of an HTTP check), `adminStateUp`.
 * What you leave out the service fills (for HTTP checks: GET `/` expecting 200 over HTTP/1.0,
 * `maxRetriesDown` 3); those values are never a diff.
 */
export type HealthMonitor = ObjectOf<typeof HealthMonitorContract.fields>;

/** Session persistence: `type` (APP_COOKIE, HTTP_COOKIE, SOURCE_IP), `cookieName`, `persistenceGranularity`, `persistenceTimeout` (seconds). */
export type SessionPersistence = ObjectOf<typeof SessionPersistenceContract.fields>;

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
  /** Health monitor settings (sent whole when changed); null removes the pool's health monitor. */
  readonly healthmonitor?: pulumi.Input<InputFields<HealthMonitor> | null>;
  /** Session persistence settings (sent whole when changed); null removes them. */
  readonly sessionPersistence?: pulumi.Input<InputFields<SessionPersistence> | null>;
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

/**
 * The state of LbPoolSettings: the fields you gave, as the service has them (members with
 * their ids; fields you did not give are undefined), and `taskIds` (tasks of the last PATCH).
 */
export type LbPoolSettingsState = ObjectOf<typeof LbPoolSettingsContract.fields> & {
  poolId: string;
  projectId: number;
  regionId: number;
  taskIds: string[];
};

export const OUTPUTS = ["poolId", ...Object.keys(LbPoolSettingsContract.fields), "projectId", "regionId", "taskIds"];

/**
 * Settings of an existing load balancer pool: only the fields you give are managed.
 * Updates are asynchronous (`pulumi up` waits for the pool's tasks). The pool may be shared:
 * a create removes every member you do not list, and the preview warns of each member and
 * setting a create removes or changes, and of each member an update removes and re-adds.
 * Destroy removes the members you listed and leaves the pool, its settings and other members.
 */
export class LbPoolSettings extends withOutputs<LbPoolSettingsState>() {
  constructor(name: string, args: LbPoolSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(lbPoolSettingsShim, name, { ...outputKeys(OUTPUTS), ...args }, opts, "cims", "LbPoolSettings");
  }
}

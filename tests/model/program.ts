// The lifecycle model's program: what the stack's program declares, as plain data, and the
// one JavaScript file generated from it. Slots give resources stable Pulumi names (s0, img1),
// so an edit is the same resource and a replacement is Pulumi's, not a rename.
import { SEED } from "../support/cims";
import { initialKitResources, type KitResources, kitLines } from "./kits";

export type Gateway = undefined | null | 1 | 5; // omitted, none, or the host number in the cidr
export type Dns = undefined | null | string[];
export interface Route {
  destination: string;
  /** Host number of the next hop inside the subnet's cidr. */
  hop: number;
}

export interface SubnetModel {
  name: string;
  /** Third octet of the cidr: changing it replaces the subnet. */
  gen: number;
  enableDhcp?: boolean;
  tags: Record<string, string>;
  dns: Dns;
  routes: undefined | null | Route[];
  gateway: Gateway;
  /** connectToNetworkRouter: false (needed for a null gateway; a replacement either way). */
  noRouter: boolean;
  /** `ignoreChanges: ["tags"]`: the program's tag edits are not applied while set. */
  ignoreTags?: boolean;
  /** The resource option `deleteBeforeReplace: true` (set for an `up --replace` of it only). */
  deleteFirst?: boolean;
}

export interface ImageModel {
  name: string;
  osType: "linux" | "windows";
  sshKey: "allow" | "deny" | "required";
  architecture: "x86_64" | "aarch64";
  tags: Record<string, string>;
}

export interface MemberModel {
  /** Last octet of 10.0.0.x (never 10, the seed's member, which no stack made); port 8080 always. */
  host: number;
  weight: number;
  /** The program subnet (slot) it is on, as `subnetId: s<slot>.id`; none: no subnetId. */
  subnet?: number;
}

/** Whether a member of the program's pool is on the subnet of this slot (the service keeps a subnet in use). */
export const memberOn = (p: ProgramModel, slot: number): boolean => (p.pool?.members ?? []).some((m) => m.subnet === slot);

export interface PoolModel {
  name?: string;
  lbAlgorithm: "ROUND_ROBIN" | "LEAST_CONNECTIONS" | "SOURCE_IP";
  members: MemberModel[];
}

export interface ProgramModel {
  subnets: Array<SubnetModel | undefined>; // 3 slots
  images: Array<ImageModel | undefined>; // 2 slots
  pool?: PoolModel;
  /** The program's own volume (POLICY_VOLUME) attached to the policy, as SnapshotPolicyVolume `pvol`. */
  policyVolume?: boolean;
  /** The resources of the kinds whose test kits give their lifecycle rows (./kits.ts): the policy's state, the quota threshold... */
  kits: KitResources;
}

export const SUBNET_SLOTS = 3;
export const IMAGE_SLOTS = 2;
/** Seconds each asynchronous resource waits for its tasks: short, so a task that never ends fails the command soon. */
export const TASK_TIMEOUT_S = 8;
export const POOL_ID = SEED.poolId;
export const POLICY_ID = Number(SEED.policyId);
/** The volume the program attaches to the policy; the policy holds the seed's `SEED.volumeId`, which no stack attached. */
export const POLICY_VOLUME = SEED.appVolumeId;
export const SEED_POLICY_VOLUME = SEED.volumeId;
/** A volume per image slot: two images made from one volume at once would meet its lock. */
export const VOLUMES = [SEED.volumeId, "2b3c4d5e-6f70-4a81-9b92-a3b4c5d6e7f8"];

/** The tag someone adds to a subnet outside Pulumi: a key no program declares. */
export const OUTSIDE_TAG = { key: "cost-center", value: "cc-1" };
/**
 * The tag another system adds beside it, under the stack's `cims:ignoreTags` (IGNORE_TAGS): it
 * never shows as drift, and no command of the stack writes or removes it.
 */
export const IGNORED_TAG = { key: "ops/backup", value: "daily" };
export const IGNORE_TAGS = { keys: [], keyPrefixes: ["ops/"] };
export const isIgnoredTag = (key: string): boolean => IGNORE_TAGS.keyPrefixes.some((p) => key.startsWith(p));

export const cidrOf = (slot: number, gen: number) => `10.${100 + slot}.${gen}.0/24`;
export const hostOf = (slot: number, gen: number, host: number) => `10.${100 + slot}.${gen}.${host}`;
export const memberAddress = (host: number) => `10.0.0.${host}`;

export function initialProgram(): ProgramModel {
  return {
    subnets: [{ name: "net-0", gen: 0, tags: { slot: "s0" }, dns: undefined, routes: undefined, gateway: undefined, noRouter: false }],
    images: [undefined, undefined],
    pool: { lbAlgorithm: "ROUND_ROBIN", members: [{ host: 14, weight: 1 }] },
    kits: initialKitResources(),
  };
}

export function subnetArgs(slot: number, s: SubnetModel): Record<string, unknown> {
  const args: Record<string, unknown> = {
    name: s.name,
    cidr: cidrOf(slot, s.gen),
    networkId: SEED.networkId,
    tags: s.tags,
    timeouts: { create: TASK_TIMEOUT_S, update: TASK_TIMEOUT_S, delete: TASK_TIMEOUT_S },
  };
  if (s.noRouter) args.connectToNetworkRouter = false;
  if (s.enableDhcp !== undefined) args.enableDhcp = s.enableDhcp;
  if (s.dns !== undefined) args.dnsNameservers = s.dns;
  if (s.routes !== undefined) args.hostRoutes = s.routes?.map((r) => ({ destination: r.destination, nexthop: hostOf(slot, s.gen, r.hop) }));
  if (s.gateway !== undefined) args.gatewayIp = s.gateway === null ? null : hostOf(slot, s.gen, s.gateway);
  return args;
}

export function imageArgs(slot: number, i: ImageModel): Record<string, unknown> {
  return {
    name: i.name,
    volumeId: VOLUMES[slot],
    osType: i.osType,
    sshKey: i.sshKey,
    architecture: i.architecture,
    tags: i.tags,
    timeouts: { create: TASK_TIMEOUT_S, update: TASK_TIMEOUT_S, delete: TASK_TIMEOUT_S },
  };
}

export function poolArgs(p: PoolModel): Record<string, unknown> {
  return {
    poolId: POOL_ID,
    lbAlgorithm: p.lbAlgorithm,
    members: p.members.map((m) => ({
      address: memberAddress(m.host),
      protocolPort: 8080,
      weight: m.weight,
      ...(m.subnet !== undefined ? { subnetId: { [REF]: `s${m.subnet}` } } : {}),
    })),
    ...(p.name !== undefined ? { name: p.name } : {}),
    timeouts: { create: TASK_TIMEOUT_S, update: TASK_TIMEOUT_S, delete: TASK_TIMEOUT_S },
  };
}

/** A value's stand-in for a reference to another resource's id in the program (`s0.id`). */
const REF = "__programRef";

/** The program as one plain-JS file: starts faster than TypeScript through ts-node. */
export function renderProgram(p: ProgramModel): string {
  const lines = ['"use strict";', 'const cims = require("pulumi-cims");'];
  const json = (value: unknown) => JSON.stringify(value).replace(new RegExp(`\\{"${REF}":"(s\\d)"\\}`, "g"), "$1.id");
  const add = (type: string, name: string, args: unknown, opts?: unknown) =>
    lines.push(`new cims.${type}(${JSON.stringify(name)}, ${json(args)}${opts ? `, ${JSON.stringify(opts)}` : ""});`);
  p.subnets.forEach((s, slot) => {
    if (!s) return;
    const opts = { ...(s.ignoreTags ? { ignoreChanges: ["tags"] } : {}), ...(s.deleteFirst ? { deleteBeforeReplace: true } : {}) };
    add("Subnet", `s${slot}`, subnetArgs(slot, s), Object.keys(opts).length > 0 ? opts : undefined);
    lines[lines.length - 1] = `const s${slot} = ${lines[lines.length - 1]}`;
  });
  p.images.forEach((i, slot) => i && add("BaremetalImage", `img${slot}`, imageArgs(slot, i)));
  if (p.pool) add("LbPoolSettings", "pool", poolArgs(p.pool));
  if (p.policyVolume) add("SnapshotPolicyVolume", "pvol", { policyId: POLICY_ID, volumeId: POLICY_VOLUME });
  lines.push(...kitLines(p.kits));
  return `${lines.join("\n")}\n`;
}

/** A copy through JSON: structuredClone would make objects of another realm under jest, which isDeepStrictEqual tells apart. */
export const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

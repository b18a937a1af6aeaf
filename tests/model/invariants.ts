// What must hold after each command, read from the emulator's own records (store, tasks,
// metrics) and the exported state, never from printed output alone. Each check throws an
// InvariantError saying what differs.
import { isDeepStrictEqual } from "node:util";
import {
  cidrOf,
  hostOf,
  IMAGE_SLOTS,
  memberAddress,
  POLICY_ID,
  POLICY_VOLUME,
  POOL_ID,
  type ProgramModel,
  SEED_POLICY_VOLUME,
  type SubnetModel,
  SUBNET_SLOTS,
  type ImageModel,
  VOLUMES,
  OUTSIDE_TAG,
  IGNORED_TAG,
  isIgnoredTag,
} from "./program";
import { overlaps } from "../../api/net";
import { type CommandRecord, nameOf, recordText, type StateResource, type System } from "./system";
import { CREATE_MARK_TAG } from "../../provider/methods/mark";
import { toCamel } from "../../api/names";
import { kitHoldsAfterDestroy, kitHoldsAfterRefresh, kitHoldsAfterUp, kitSlots } from "./kits";

type ApiRecord = Record<string, unknown>;

export class InvariantError extends Error {
  override name = "InvariantError";
}

/** Plain JSON values of this realm (records may hold bigints; jest runs tests in a realm of their own). */
const plain = (v: unknown): unknown =>
  v === undefined ? v : JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)));

function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(plain(actual), plain(expected))) {
    throw new InvariantError(`${what}: expected ${JSON.stringify(expected)}, the service/state has ${JSON.stringify(actual)}`);
  }
}

const text = (v: unknown) => (typeof v === "bigint" ? v.toString() : JSON.stringify(v));
const userTags = (tags: unknown) =>
  Object.fromEntries(
    ((tags ?? []) as Array<{ key: string; value: string; read_only: boolean }>).filter((t) => !t.read_only).map((t) => [t.key, t.value]),
  );
/** The users' tags of a service record: an image carries them as `tags_v2` (the vendor's field), a subnet as `tags`. */
const userTagsOf = (kind: "subnets" | "images", record: ApiRecord) => userTags(kind === "images" ? record.tags_v2 : record.tags);
/**
 * The same without the provider's create mark: a record recorded before its create landed
 * (its task still ran) keeps the mark until that resource's next update (a refresh in
 * between clears the engine's "initialization failed", so a converging `up` may not update
 * it), and no state, output or diff shows it.
 */
const programTagsOf = (kind: "subnets" | "images", record: ApiRecord) => {
  const { [CREATE_MARK_TAG]: _mark, ...tags } = userTagsOf(kind, record);
  return Object.fromEntries(Object.entries(tags).filter(([key]) => !isIgnoredTag(key)));
};
const sorted = (items: string[]) => [...items].sort();

/** Which drift outside Pulumi the stack has not refreshed yet, by resource name. */
export type Drift = Map<string, "renamed" | "deleted" | "members">;

/**
 * Subnets given OUTSIDE_TAG outside Pulumi, by resource name: the record it was added to, and
 * whether a refresh has read it into the state since (then the next up removes it, unless the
 * subnet's tags are under ignoreChanges; before, no up writes it).
 */
export type OutsideTags = Map<string, { id: string; refreshed: boolean }>;

/**
 * Subnets given IGNORED_TAG outside Pulumi, by resource name: the record it was added to. It
 * stays on that record whatever the stack does (refresh, up, a change of its tags).
 */
export type IgnoredTags = Map<string, string>;

/** What was seen of each subnet at the last check: an omitted field keeps its value on the same record. */
export type Observed = Map<string, { id: string; gateway: unknown; dns: unknown; routes: unknown }>;

export function checkKeyNotPrinted(sys: System, record: CommandRecord): void {
  const output = record.result.stdout + record.result.stderr;
  if (output.includes(sys.env.apiKey)) throw new InvariantError(`the API key appears in the output of \`pulumi ${record.command}\``);
}

/** Requests by method that write (POST, PATCH, PUT, DELETE), from the emulator's metrics. */
export function writeCount(sys: System): number {
  return Object.entries(sys.env.emulator.metrics.snapshot().requests)
    .filter(([key]) => /^(POST|PATCH|PUT|DELETE) /.test(key))
    .reduce((n, [, count]) => n + count, 0);
}

/**
 * Subnets and images the service made for a create of ours (the tasks' created_resources)
 * that still exist but are in no state resource. Those the failed command's output named are
 * returned (the user was told); any other is an orphan nobody knows about.
 */
export function checkNoOrphans(sys: System, resources: StateResource[], failed?: CommandRecord): string[] {
  const inState = new Set(resources.map((r) => String(r.id)));
  const store = sys.env.emulator.store;
  const named: string[] = [];
  for (const task of Object.values(store.tasks)) {
    const kind = task.task_type === "create_subnet" ? "subnets" : task.task_type === "create_image" ? "images" : undefined;
    if (!kind) continue;
    for (const id of task._emulator.createdResources[kind] ?? []) {
      if (!store.get(kind, id) || inState.has(id) || sys.foreign.has(id)) continue;
      const output = failed ? failed.result.stdout + failed.result.stderr : "";
      if (failed && output.includes(id)) named.push(`${kind}/${id}`);
      else
        throw new InvariantError(
          `${kind} ${id} (task ${task.id}) exists in the service but in no state resource${failed ? ", and the failed command's output does not name it" : ""}`,
        );
    }
  }
  return named;
}

/** At most one record per slot tag: no resource got two subnets or images. */
export function checkOnePerResource(sys: System): void {
  for (const kind of ["subnets", "images"] as const) {
    const slots = ours(sys, kind).map((r) => String(userTagsOf(kind, r).slot));
    const twice = slots.filter((s, i) => slots.indexOf(s) !== i);
    if (twice.length) throw new InvariantError(`two ${kind} for resource ${twice[0]}: ${slots.join(", ")}`);
  }
}

function stateIdsByName(resources: StateResource[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const r of resources) {
    if ((r as { delete?: boolean }).delete)
      throw new InvariantError(`state still holds ${nameOf(r)} pending deletion after a successful up`);
    if (ids.has(nameOf(r))) throw new InvariantError(`state holds ${nameOf(r)} twice`);
    ids.set(nameOf(r), String(r.id));
  }
  return ids;
}

function checkSubnet(
  sys: System,
  slot: number,
  s: SubnetModel,
  id: string,
  observed: Observed,
  outside: OutsideTags,
  ignored: IgnoredTags,
): void {
  const name = `s${slot}`;
  const r = sys.env.emulator.store.get("subnets", id);
  if (!r) throw new InvariantError(`${name}: state id ${id} is not in the service`);
  if (ignored.get(name) === id)
    expectEqual(
      `${name}.tags["${IGNORED_TAG.key}"] (under cims:ignoreTags, added outside Pulumi: kept)`,
      userTagsOf("subnets", r)[IGNORED_TAG.key],
      IGNORED_TAG.value,
    );
  expectEqual(`${name}.name`, r.name, s.name);
  expectEqual(`${name}.cidr`, r.cidr, cidrOf(slot, s.gen));
  expectEqual(`${name}.enable_dhcp`, r.enable_dhcp, s.enableDhcp ?? true);
  // Tags under ignoreChanges are left as they are (checkWritesShown: no up writes them).
  const kept = outside.has(name) ? { [OUTSIDE_TAG.key]: OUTSIDE_TAG.value } : {};
  if (!s.ignoreTags)
    expectEqual(`${name}.tags${outside.has(name) ? " (a tag added outside Pulumi kept)" : ""}`, programTagsOf("subnets", r), {
      ...s.tags,
      ...kept,
    });
  const before = observed.get(name)?.id === id ? observed.get(name) : undefined;
  const gateway =
    s.gateway === undefined ? (before ? before.gateway : hostOf(slot, s.gen, 1)) : s.gateway && hostOf(slot, s.gen, s.gateway);
  expectEqual(`${name}.gateway_ip${s.gateway === undefined ? " (omitted: kept)" : ""}`, r.gateway_ip, gateway);
  expectEqual(
    `${name}.dns_nameservers${s.dns === undefined ? " (omitted: kept)" : ""}`,
    r.dns_nameservers,
    s.dns === undefined ? (before?.dns ?? []) : (s.dns ?? []),
  );
  const routes = (list: unknown) =>
    sorted(((list ?? []) as Array<{ destination: string; nexthop: string }>).map((x) => `${x.destination}>${x.nexthop}`));
  const wanted =
    s.routes === undefined ? routes(before?.routes) : sorted((s.routes ?? []).map((x) => `${x.destination}>${hostOf(slot, s.gen, x.hop)}`));
  expectEqual(`${name}.host_routes${s.routes === undefined ? " (omitted: kept)" : ""}`, routes(r.host_routes), wanted);
  observed.set(name, { id, gateway: r.gateway_ip, dns: r.dns_nameservers, routes: r.host_routes });
}

function checkImage(sys: System, slot: number, i: ImageModel, id: string): void {
  const name = `img${slot}`;
  const r = sys.env.emulator.store.get("images", id);
  if (!r) throw new InvariantError(`${name}: state id ${id} is not in the service`);
  const fields = { name: r.name, os_type: r.os_type, ssh_key: r.ssh_key, architecture: r.architecture, volume_id: r.volume_id };
  expectEqual(name, fields, { name: i.name, os_type: i.osType, ssh_key: i.sshKey, architecture: i.architecture, volume_id: VOLUMES[slot] });
  expectEqual(`${name}.tags`, programTagsOf("images", r), i.tags);
}

const memberKeys = (members: unknown) =>
  sorted(((members ?? []) as ApiRecord[]).map((m) => `${String(m.address)}:${text(m.protocol_port ?? m.protocolPort)}:${text(m.weight)}`));

/** The members at these address:port keys. */
const withKeys = (members: unknown, keys: Set<string>) =>
  ((members ?? []) as ApiRecord[]).filter((m) => keys.has(`${String(m.address)}:${text(m.protocol_port)}`));

/**
 * After a successful `up`: the service holds exactly the program's values, the state one
 * resource per declared one and nothing else (resources with unrefreshed drift are skipped:
 * `up` compares the program with the state, not the service).
 */
export function checkAfterUp(
  sys: System,
  program: ProgramModel,
  resources: StateResource[],
  drift: Drift,
  observed: Observed,
  outside: OutsideTags = new Map(),
  ignored: IgnoredTags = new Map(),
): void {
  const ids = stateIdsByName(resources);
  const declared = [
    ...program.subnets.flatMap((s, slot) => (s ? [`s${slot}`] : [])),
    ...program.images.flatMap((i, slot) => (i ? [`img${slot}`] : [])),
    ...(program.pool ? ["pool"] : []),
    ...(program.policyVolume ? ["pvol"] : []),
    ...kitSlots(program.kits).flatMap((r) => (r.values ? [r.name] : [])),
  ];
  expectEqual("resources in the state", sorted([...ids.keys()]), sorted(declared));
  const store = sys.env.emulator.store;
  const undeleted = (prefix: string) => declared.filter((n) => new RegExp(`^${prefix}\\d+$`).test(n) && drift.get(n) !== "deleted").length;
  expectEqual("subnets in the service (other teams' aside)", ours(sys, "subnets").length, undeleted("s"));
  expectEqual("images in the service (other teams' aside)", ours(sys, "images").length, undeleted("img"));
  for (let slot = 0; slot < SUBNET_SLOTS; slot++) {
    const s = program.subnets[slot];
    if (s && !drift.has(`s${slot}`)) checkSubnet(sys, slot, s, ids.get(`s${slot}`)!, observed, outside, ignored);
  }
  for (let slot = 0; slot < IMAGE_SLOTS; slot++) {
    const i = program.images[slot];
    if (i) checkImage(sys, slot, i, ids.get(`img${slot}`)!);
  }
  if (program.pool && !drift.has("pool")) {
    const pool = store.get("lbpools", program.pool && ids.get("pool"))!;
    expectEqual("pool.lb_algorithm", pool.lb_algorithm, program.pool.lbAlgorithm);
    if (program.pool.name !== undefined) expectEqual("pool.name", pool.name, program.pool.name);
    // The stack's members only: others' (another stack's, or added outside) share the pool.
    const declared = new Set(program.pool.members.map((m) => `${memberAddress(m.host)}:8080`));
    expectEqual(
      "pool.members (the stack's)",
      memberKeys(withKeys(pool.members, declared)),
      sorted(program.pool.members.map((m) => `${memberAddress(m.host)}:8080:${m.weight}`)),
    );
    // A member on a program subnet is on that subnet's current record (moved with a replacement).
    for (const m of program.pool.members.filter((x) => x.subnet !== undefined)) {
      const held = ((pool.members ?? []) as ApiRecord[]).find((x) => x.address === memberAddress(m.host));
      expectEqual(`pool member ${memberAddress(m.host)}: subnet_id`, held?.subnet_id, ids.get(`s${m.subnet}`));
    }
  }
  expectEqual("policy holds the program's volume", policyVolumes(sys).includes(POLICY_VOLUME), program.policyVolume === true);
  for (const [what, actual, expected] of kitHoldsAfterUp(sys.env, program.kits, resources)) expectEqual(what, actual, expected);
}

/** After a successful refresh: every state resource exists in the service with the state's values. */
export function checkAfterRefresh(sys: System, resources: StateResource[]): void {
  const store = sys.env.emulator.store;
  for (const res of resources) {
    const name = nameOf(res);
    const o = res.outputs ?? {};
    const type = res.type.split(":").pop();
    const where = `${name} after refresh`;
    if (type === "Subnet" || type === "BaremetalImage") {
      const r = store.get(type === "Subnet" ? "subnets" : "images", res.id);
      if (!r) throw new InvariantError(`${where}: state id ${String(res.id)} is not in the service`);
      expectEqual(`${where}: name`, o.name, r.name);
      const held = Object.keys((o.tags ?? {}) as object).filter(isIgnoredTag);
      if (held.length > 0)
        throw new InvariantError(`${where}: the state holds tag(s) ${held.join(", ")}, which cims:ignoreTags leaves to others`);
      expectEqual(`${where}: tags`, o.tags, programTagsOf(type === "Subnet" ? "subnets" : "images", r));
      if (type === "Subnet")
        expectEqual(`${where}: cidr, enableDhcp, gatewayIp`, [o.cidr, o.enableDhcp, o.gatewayIp], [r.cidr, r.enable_dhcp, r.gateway_ip]);
      else expectEqual(`${where}: osType, sshKey`, [o.osType, o.sshKey], [r.os_type, r.ssh_key]);
    } else if (type === "LbPoolSettings") {
      const pool = store.get("lbpools", res.id)!;
      const recorded = new Set(((o.members ?? []) as ApiRecord[]).map((m) => `${String(m.address)}:${text(m.protocolPort)}`));
      expectEqual(`${where}: members`, memberKeys(o.members), memberKeys(withKeys(pool.members, recorded)));
      expectEqual(`${where}: lbAlgorithm`, o.lbAlgorithm, pool.lb_algorithm);
    } else if (type === "SnapshotPolicyVolume") {
      expectEqual(`${where}: the policy holds its volume`, policyVolumes(sys).includes(String(o.volumeId)), true);
    }
  }
  for (const [what, actual, expected] of kitHoldsAfterRefresh(sys.env, resources)) expectEqual(what, actual, expected);
}

/** After a successful destroy: no resource in the state, no subnet or image in the service, what the kits' models say is left (the quota at its default). */
export function checkAfterDestroy(sys: System, resources: StateResource[]): void {
  expectEqual("state resources after destroy", resources.map(nameOf), []);
  expectEqual(
    "subnets and images after destroy (other teams' aside)",
    [...ours(sys, "subnets"), ...ours(sys, "images")].map((r) => r.id),
    [],
  );
  expectEqual("policy holds the program's volume after destroy", policyVolumes(sys).includes(POLICY_VOLUME), false);
  for (const [what, actual, expected] of kitHoldsAfterDestroy(sys.env)) expectEqual(what, actual, expected);
}

/** The volumes the shared policy holds, by id. */
function policyVolumes(sys: System): string[] {
  const policy = sys.env.emulator.store.get("lifecycle_policies", POLICY_ID);
  return ((policy?.volumes ?? []) as ApiRecord[]).map((v) => String(v.volume_id));
}

/** The policy's volumes no stack's program attached (the seed's, another stack's) are all still in it. */
function checkOthersPolicyVolumes(sys: System): void {
  const held = policyVolumes(sys);
  for (const id of [SEED_POLICY_VOLUME, ...sys.otherPolicyVolumes])
    if (!held.includes(id)) throw new InvariantError(`volume ${id}, attached to policy ${POLICY_ID} by another team, was detached`);
}

/** The service's records of this kind that no other team made. */
function ours(sys: System, kind: "subnets" | "images"): ApiRecord[] {
  return sys.env.emulator.store.list(kind).filter((r) => !sys.foreign.has(String(r.id)));
}

/**
 * A record another team made is never changed or deleted by the stack, and never enters its
 * state (there is no importId in the model's program).
 */
export function checkForeignUntouched(sys: System, resources: StateResource[]): void {
  checkOtherStackMembers(sys);
  checkOthersPolicyVolumes(sys);
  const inState = new Set(resources.map((r) => String(r.id)));
  for (const [id, f] of sys.foreign) {
    if (inState.has(id)) throw new InvariantError(`the state holds ${f.kind} ${id}, which another team made (no importId)`);
    const now = sys.env.emulator.store.get(f.kind, id);
    if (!now) throw new InvariantError(`${f.kind} ${id}, which another team made, was deleted`);
    if (recordText(now) !== f.text)
      throw new InvariantError(`${f.kind} ${id}, which another team made, was changed: ${f.text} -> ${recordText(now)}`);
  }
}

/** Other teams' subnets in the way of a subnet the program declares: same network, overlapping CIDR. */
export function foreignInTheWay(sys: System, program: ProgramModel): string[] {
  const declared = program.subnets.flatMap((s, slot) => (s ? [cidrOf(slot, s.gen)] : []));
  return [...sys.foreign].filter(([, f]) => f.cidr !== undefined && declared.some((c) => overlaps(c, f.cidr!))).map(([id]) => id);
}

/** A step of `pulumi preview --json`: the resource, the operation, and its old and new inputs. */
export interface PreviewStep {
  op: string;
  urn: string;
  oldState?: { id?: string; inputs?: Record<string, unknown> };
  newState?: { inputs?: Record<string, unknown> };
}

/** A write the provider sent, from the emulator's request log. */
export interface LoggedWrite {
  method: string;
  path: string;
  body: unknown;
}

/**
 * What `preview --diff` shows of an update: the inputs that differ between the state and the
 * program (Pulumi shows the dynamic face's diff as old inputs against new), and of tags the
 * keys whose values differ.
 */
function shownChanges(step: PreviewStep | undefined): { fields: Set<string>; tagKeys: Set<string> } {
  const olds = step?.op === "update" ? (step.oldState?.inputs ?? {}) : {};
  const news = step?.op === "update" ? (step.newState?.inputs ?? {}) : {};
  const fields = new Set([...Object.keys(olds), ...Object.keys(news)].filter((k) => !isDeepStrictEqual(olds[k], news[k])));
  const oldTags = (olds.tags ?? {}) as Record<string, unknown>;
  const newTags = (news.tags ?? {}) as Record<string, unknown>;
  const tagKeys = new Set([...Object.keys(oldTags), ...Object.keys(newTags)].filter((k) => oldTags[k] !== newTags[k]));
  return { fields, tagKeys };
}

/**
 * An up never writes what its preview did not show: each PATCH or PUT to a resource the state
 * held before the up names only fields the preview showed changed, and of tags only the keys
 * it showed (the create's mark aside: a create's own). A PUT of the quota setting must carry
 * a threshold: when the preview did not show one, the service's own (`quotaBefore`). The
 * pool's writes are not judged: LbPoolSettings still sets drift back at each update.
 */
export function checkWritesShown(steps: PreviewStep[], before: StateResource[], writes: LoggedWrite[], quotaBefore: unknown): void {
  for (const write of writes) {
    const tags = ((write.body ?? {}) as Record<string, unknown>).tags;
    const ignoredKeys = Object.keys((tags ?? {}) as object).filter(isIgnoredTag);
    if (ignoredKeys.length > 0)
      throw new InvariantError(
        `up wrote tag(s) ${ignoredKeys.join(", ")} (${write.method} ${write.path}), which cims:ignoreTags leaves to others`,
      );
    const id = /^\/cloud\/v1\/(?:subnets|images)\/1\/1\/([^/]+)$/.exec(write.path)?.[1];
    const name = id
      ? before.find((r) => String(r.id) === id)
      : before.find(
          (r) =>
            nameOf(r) ===
            (/_volumes_(to|from)_policy$/.test(write.path)
              ? "pvol"
              : write.path.startsWith("/cloud/v1/lifecycle_policy/")
                ? "policy"
                : write.path.includes("/client_quotas/")
                  ? "quota"
                  : ""),
        );
    if (!name) continue; // made by this up (a create's own writes), or the pool's
    const step = steps.find((s) => s.urn === name.urn);
    if (step && step.op !== "update" && step.op !== "same") continue; // a replacement's writes are its create's
    const shown = shownChanges(step);
    const body = (write.body ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(body)) {
      const field = toCamel(key);
      if (field === "threshold" && !shown.fields.has(field) && text(value) === text(quotaBefore)) continue;
      if (field === "tags") {
        const keys = Object.keys((value ?? {}) as object).filter((k) => k !== CREATE_MARK_TAG && !shown.tagKeys.has(k));
        if (keys.length === 0) continue;
        throw new InvariantError(
          `up wrote tag(s) ${keys.join(", ")} of ${nameOf(name)} (${write.method} ${write.path}), which its preview did not show`,
        );
      }
      if (!shown.fields.has(field))
        throw new InvariantError(
          `up wrote ${field} of ${nameOf(name)} (${write.method} ${write.path}: ${text(body)}), which its preview did not show`,
        );
    }
  }
}

/** Another stack's members of the shared pool are all there, as that team last left them (same id, weight). */
export function checkOtherStackMembers(sys: System): void {
  const pool = sys.env.emulator.store.get("lbpools", POOL_ID);
  const held = new Map(((pool?.members ?? []) as ApiRecord[]).map((m) => [String(m.id), m]));
  for (const [id, expected] of sys.otherMembers) {
    const now = held.get(id);
    if (!now) throw new InvariantError(`pool member ${id} (${expected.address}:8080), another stack's, was removed`);
    expectEqual(`pool member ${id} (another stack's): address, weight`, [now.address, now.weight], [expected.address, expected.weight]);
  }
}

// LbPoolSettings's provider methods: chosen settings of an existing load balancer pool with
// PATCH lbpools (asynchronous). Only the fields given are managed; members are matched by
// address+port (the service keeps those as they are, without re-creation). The pool is
// shared: a preview names what a create or update will take from it, and destroy removes
// only the members the stack declared (the service will not delete a subnet a member still
// uses), leaving the pool, its settings and everyone else's members.
import type * as pulumi from "@pulumi/pulumi";
import { LbPoolSettings as contract } from "../../api/contract/lb-pool-settings";
import { memberKey } from "../../api/members";
import { canonical } from "../../api/net";
import { PATHS } from "../../api/paths";
import { CimsError, NotFoundError } from "../client/errors";
import { listAll } from "../client/list";
import { apiPath } from "../client/path";
import { callAndWait, readOrGone, withContext } from "../methods/calls";
import { apiClient, log, scopeDefaults, warn } from "../methods/context";
import { mayHaveActed } from "../methods/create";
import type { Descriptor, Scoped } from "../methods/descriptor";
import type { KindEntry } from "../methods/kind-entry";
import { changedFields, type KindDiff, sameValue } from "../methods/diff";
import { differences } from "../methods/drift";
import { PartialCreateError } from "../methods/errors";
import { containsUnknown, type Inputs, isUnknown, positiveInteger, timeouts, uuid4 } from "../methods/schema";
import { resourceTable } from "../methods/table";
import { camelKeys, plainRecord, snakeKeys } from "../methods/wire";
import { messageOf, recordsIn, stringsIn } from "../methods/values";

/** A pool's chosen settings: its inputs once checked. */
type PoolInputs = Scoped<{ poolId: string; members?: Member[] | null }>;

export const poolDescriptor: Descriptor = {
  contract,
  extra: { poolId: uuid4, projectId: positiveInteger.optional(), regionId: positiveInteger.optional(), timeouts: timeouts.optional() },
  replaces: ["poolId", "projectId", "regionId"],
  scoped: true,
  outputsOnlyGiven: true,
  label: (i) => `LbPoolSettings of pool ${String(i.poolId)}`,
  recordPath: (s, id) => apiPath(contract.paths.item, { project_id: s.projectId, region_id: s.regionId, pool_id: id }),
  // Every setting the pool holds (members by their settings only), so all are managed.
  import: {
    nouns: ["pool", "pools"],
    prefix: "pool",
    named: {
      flag: "pool",
      value: "<uuid>",
      repeatable: true,
      what: "load balancer pools",
      help: "a load balancer pool, as LbPoolSettings (repeatable)",
      missing: (id, where) => `pool ${id}: not found in ${where}`,
    },
    id: (r) => String(r.id).toLowerCase(),
    name: (r) => r.name,
    args: (r, fields, scope) => ({ poolId: String(r.id), ...scope, ...fields }),
  },
};
export const poolTable = resourceTable(poolDescriptor);

type Member = Record<string, unknown>;
const keyOf = (m: Member) => memberKey(m.address, m.protocolPort);

const label = poolDescriptor.label;
const pathParams = (i: PoolInputs) => ({ project_id: i.projectId, region_id: i.regionId, pool_id: i.poolId });
const path = (i: PoolInputs) => apiPath(contract.paths.item, pathParams(i));

/**
 * Members the service would keep unchanged although the user changed their weight or subnet:
 * it keeps a member with the same address and port "as it is", so such a change never lands
 * and the diff would never clear.
 */
export function membersToRecreate(current: Member[], wanted: Member[]): Member[] {
  const byKey = new Map(current.map((m) => [keyOf(m), m]));
  return wanted.filter((m) => {
    const old = byKey.get(keyOf(m));
    return (
      old !== undefined &&
      ["weight", "subnetId"].some((f) => m[f] !== undefined && !sameValue(canonical("uuid4", old[f]), canonical("uuid4", m[f])))
    );
  });
}

/** `10.0.0.21:8080 (id <id>; weight 1 -> 3)`: a member the service holds, and what changes of it. */
function describeMember(held: Member, wanted?: Member): string {
  const changes = wanted
    ? ["weight", "subnetId"]
        .filter((f) => wanted[f] !== undefined && !sameValue(canonical("uuid4", held[f]), canonical("uuid4", wanted[f])))
        .map((f) => `${f} ${shown(held[f])} -> ${shown(wanted[f])}`)
    : [];
  return `${keyOf(held)} (id ${String(held.id)}${changes.map((c) => `; ${c}`).join("")})`;
}

/** A value as a warning shows it; one known only at apply says so. */
function shown(value: unknown): string {
  if (containsUnknown(value)) return "(known after apply)";
  return value === undefined ? "none" : JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

/**
 * The re-add a changed weight or subnetId costs (see membersToRecreate), in a sentence: the
 * members, and that they take no traffic in between. Undefined when there is none.
 */
function readdNote(held: Member[], wanted: Member[]): string | undefined {
  const stale = membersToRecreate(held, wanted);
  if (stale.length === 0) return undefined;
  const byKey = new Map(held.map((m) => [keyOf(m), m]));
  return (
    `removes and re-adds member(s) ${stale.map((m) => describeMember(byKey.get(keyOf(m))!, m)).join(", ")} ` +
    "(the service keeps a same-address member as it is, so a new weight or subnetId lands only on a new member; it takes no traffic in between)"
  );
}

/**
 * What a create (adopting the pool as the program says) takes from the pool as it is now:
 * the members it removes (every member the program does not list, whoever added it), those
 * it removes and re-adds, and each setting it changes (old -> new). Empty when it takes nothing.
 */
export function createTakes(pool: Record<string, unknown>, inputs: Inputs): string[] {
  const takes: string[] = [];
  const held = recordsIn(camelKeys(pool.members ?? []));
  // Members unmanaged (omitted), or a list known only at apply: nothing to say of them yet.
  if (inputs.members !== undefined && !isUnknown(inputs.members)) {
    const wanted = recordsIn(inputs.members);
    const keysKnown = wanted.every((m) => !containsUnknown(m.address) && !containsUnknown(m.protocolPort));
    const listed = new Set(wanted.map(keyOf));
    const removed = keysKnown ? held.filter((m) => !listed.has(keyOf(m))) : [];
    if (removed.length > 0) takes.push(`removes member(s) ${removed.map((m) => describeMember(m)).join(", ")}`);
    if (!keysKnown) takes.push("may remove members: the program's member addresses or ports are known only at apply");
    const readd = readdNote(held, wanted);
    if (readd) takes.push(readd);
  }
  const service = poolTable.fromRecord(pool, inputs);
  for (const field of differences(poolTable, pool, inputs).updates) {
    if (field !== "members") takes.push(`changes ${field}: ${shown(service[field])} -> ${shown(inputs[field])}`);
  }
  return takes;
}

/** The PATCH body for these fields: nested objects and members whole, snake_case. */
export function patchBody(inputs: Inputs, fields: readonly string[]): Record<string, unknown> {
  return poolTable.patch({}, inputs, fields);
}

/**
 * PATCHes these fields (and DELETEs a health monitor set to null), waits, and reads the pool.
 * `current`: the pool as just read, if it was. `done.sent` counts the writes sent and
 * `done.writes` those the service accepted, so a failed create knows whether it may have
 * changed anything.
 */
async function apply(
  inputs: PoolInputs,
  fields: readonly string[],
  op: "create" | "update",
  done = { sent: 0, writes: 0 },
  current?: Record<string, unknown>,
): Promise<Inputs> {
  const what = label(inputs);
  const body = patchBody(inputs, fields);
  const taskIds: string[] = [];
  // healthmonitor: null is a DELETE of its own (the PATCH takes an object only); gone already is fine.
  for (const field of poolTable.removals(inputs, fields)) {
    done.sent++;
    await apiClient()
      .request("DELETE", apiPath(contract.paths.healthmonitor, pathParams(inputs)))
      .catch((err: unknown) => {
        if (!(err instanceof NotFoundError)) throw err;
      });
    done.writes++;
    log(`${what}: ${field} removed`);
  }
  if (Array.isArray(body.members)) {
    // Two steps for changed members: PATCH without them (the service drops them), then with
    // them (created anew with the wanted settings). Only those members see a gap.
    const pool = current ?? (await apiClient().record("GET", path(inputs)));
    const wanted = inputs.members ?? [];
    const stale = membersToRecreate(recordsIn(camelKeys(pool.members ?? [])), wanted);
    if (stale.length > 0) {
      const keys = new Set(stale.map(keyOf));
      log(
        `${what}: ${[...keys].join(", ")} changed weight or subnetId; the service keeps same-address members as they are, so they are removed and added back`,
      );
      const without = wanted.filter((m) => !keys.has(keyOf(m)));
      done.sent++;
      taskIds.push(...(await callAndWait("PATCH", path(inputs), what, op, inputs, { body: { members: snakeKeys(without) } })).taskIds);
      done.writes++;
    }
  }
  if (Object.keys(body).length > 0) {
    done.sent++;
    taskIds.push(...(await callAndWait("PATCH", path(inputs), what, op, inputs, { body })).taskIds);
    done.writes++;
  }
  const record = done.writes === 0 && current ? current : await apiClient().record("GET", path(inputs));
  return { ...poolTable.outputs(inputs, record, taskIds), [DECLARED]: declaredMembers(inputs) };
}

/**
 * The state key listing the members (address:port) the program gave at the last create or
 * update: what destroy removes. A refresh keeps it, so members others added since are never
 * taken for the stack's.
 */
const DECLARED = "declaredMembers";

function declaredMembers(inputs: Inputs): string[] {
  return inputs.members === undefined ? [] : recordsIn(inputs.members).map(keyOf);
}

const IDENTITY = ["poolId", "projectId", "regionId"] as const;

/**
 * check() runs in the preview and before the create, where no other call can tell the user
 * what a create will take from a shared pool: so, when these inputs will be created (a new
 * resource, or a replacement on another pool), it reads the pool and warns of it.
 */
async function check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const result = poolTable.check(olds, news, scopeDefaults);
  const inputs = result.inputs as PoolInputs;
  const known = IDENTITY.every((f) => inputs[f] !== undefined && !containsUnknown(inputs[f]));
  const creates = olds.poolId === undefined || IDENTITY.some((f) => String(olds[f]).toLowerCase() !== String(inputs[f]).toLowerCase());
  const declares = inputs.members !== undefined && !containsUnknown(inputs.members);
  const checksMembers = declares && (creates || !sameValue(olds.members, inputs.members));
  if ((result.failures ?? []).length > 0 || !known || (!creates && !checksMembers)) return result;
  // One read of the pool serves both: what a create takes, and whose members it holds.
  let pool: Record<string, unknown>;
  try {
    pool = await apiClient().record("GET", path(inputs));
  } catch (err) {
    // The create reads it again and fails there with this reason, in the resource's context.
    const what = creates ? "to say what the create changes" : "to check whose members it holds";
    log(`${label(inputs)}: could not read the pool ${what}: ${messageOf(err)}`);
    return result;
  }
  if (creates) {
    const takes = createTakes(pool, inputs);
    if (takes.length > 0) await warn(`${label(inputs)}: the create ${takes.join("; ")}`);
  }
  if (checksMembers) {
    const failures = await membersManagedAlone(inputs, pool);
    if (failures.length > 0) return { ...result, failures };
  }
  return result;
}

/**
 * A pool's members are managed whole (`members`) or one by one (LbPoolMember), not both: the
 * whole list would remove a member made alone, whose resource would then make it again. A
 * member made alone is known by evidence, the member create task (`create_lbmember`) that
 * made it; the tasks or pool not readable: nothing is refused here.
 */
async function membersManagedAlone(
  inputs: PoolInputs,
  pool: Record<string, unknown>,
): Promise<Array<{ property: string; reason: string }>> {
  if (recordsIn(pool.members).length === 0) return [];
  try {
    const tasks = await listAll(apiClient(), PATHS.tasks, {
      task_type: "create_lbmember",
      project_id: String(inputs.projectId),
      region_id: String(inputs.regionId),
    });
    const made = new Map<string, string>();
    for (const t of tasks)
      for (const id of stringsIn(recordsIn([t.created_resources])[0]?.members)) made.set(id.toLowerCase(), String(t.id));
    return recordsIn(pool.members)
      .filter((m) => made.has(String(m.id).toLowerCase()))
      .map((m) => ({
        property: "members",
        reason:
          `members: pool ${String(inputs.poolId)} holds member ${String(m.id)} (${memberKey(m.address, m.protocol_port)}), made alone by ` +
          `task ${made.get(String(m.id).toLowerCase())} (an LbPoolMember's create), and LbPoolSettings \`members\` sends the whole list. ` +
          "Manage the pool's members one way: remove `members` from this LbPoolSettings, or delete that LbPoolMember first",
      }));
  } catch (err) {
    log(`${label(inputs)}: could not read the member tasks of the pool: ${messageOf(err)}`);
    return [];
  }
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<KindDiff> {
  const note = poolTable.unmanagedNote(olds, news);
  if (note) log(note);
  // A replacement removes the old resource's members first: on the same pool (`up --replace`)
  // the create after it puts them back, where the other order would leave the pool without them.
  const result = poolTable.diff(olds, news, true);
  // An update in place (a replacement is a create, which check() spoke of): the members it
  // removes and adds back, which the diff itself shows as a mere change of a field.
  if (result.changes && (result.replaces ?? []).length === 0 && news.members !== undefined && !isUnknown(news.members)) {
    const readd = readdNote(recordsIn(olds.members), recordsIn(news.members));
    if (readd) await warn(`${label(news)}: the update ${readd}`);
  }
  return result;
}

async function create(inputs: PoolInputs): Promise<pulumi.dynamic.CreateResult> {
  const done = { sent: 0, writes: 0 };
  try {
    return await withContext(label(inputs), async () => {
      // Adopting the pool: read it, and write only the given fields it does not hold already
      // (none: no request but this GET, no task).
      const current = await apiClient().record("GET", path(inputs));
      const { updates } = differences(poolTable, current, inputs);
      return { id: String(inputs.poolId), outs: await apply(inputs, updates, "create", done, current) };
    });
  } catch (err) {
    // Nothing reached the pool (no write was sent: a read failed; or the service refused the
    // first write: bad input, no such pool, no access): fail plainly. Otherwise the pool may
    // be half-set (a write accepted, or one whose answer was lost or whose task failed):
    // record it with its identity only (and the provider, which refresh and destroy load), so
    // the next `up` sees every given field as changed and applies them all again.
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err; // as withContext saw it
    const started = cause instanceof CimsError && (cause.taskIds?.length ?? 0) > 0; // a write's task ran
    if (done.sent === 0 || (done.writes === 0 && !started && !mayHaveActed(cause))) throw err;
    throw new PartialCreateError(messageOf(err), String(inputs.poolId), identityOnly(inputs));
  }
}

/** What a half-applied create records: no managed field, so none can look already applied. */
export function identityOnly(inputs: Inputs): Inputs {
  const { __provider, poolId, projectId, regionId, timeouts } = inputs;
  // The members it may have added are the stack's: destroy removes them.
  return plainRecord({ __provider, poolId, projectId, regionId, timeouts, [DECLARED]: declaredMembers(inputs) });
}

/**
 * PATCHes the fields that changed, and those the pool no longer holds as the program says
 * (changed outside Pulumi since the last refresh): after `up` the pool holds the program's
 * values and the next preview is clean. The pool is read first; that read also serves the
 * member comparison.
 */
async function update(_id: string, olds: PoolInputs, news: PoolInputs): Promise<pulumi.dynamic.UpdateResult> {
  const changed = changedFields(olds, news, poolTable.rules).map((r) => r.name);
  return withContext(label(news), async () => {
    const current = await apiClient().record("GET", path(news));
    const drifted = differences(poolTable, current, news).updates.filter((f) => !changed.includes(f));
    if (drifted.length > 0) log(`${label(news)}: ${drifted.join(", ")} changed outside Pulumi: set back to the program's value`);
    return { outs: await apply(news, [...changed, ...drifted], "update", undefined, current) };
  });
}

/**
 * Destroy: removes the members the stack declared (by address+port) with one PATCH that lists
 * the pool's others, and waits for its tasks; the pool, its settings and the others' members
 * stay. Without this the stack's subnets could not be deleted after it: the service refuses
 * to delete a subnet a pool member still uses. A pool or member already gone is fine.
 */
async function remove(_id: string, props: PoolInputs): Promise<void> {
  const what = label(props);
  // A state written before the stack recorded its members: the members it holds.
  const recorded = (props as Inputs)[DECLARED];
  const declared = new Set(Array.isArray(recorded) ? stringsIn(recorded) : recordsIn(props.members).map(keyOf));
  if (declared.size === 0) {
    log(`${what}: the stack declared no member; the pool and its settings stay as they are`);
    return;
  }
  await withContext(what, async () => {
    const pool = await apiClient()
      .record("GET", path(props))
      .catch((err: unknown) => {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      });
    const held = recordsIn(pool?.members);
    const ours = held.filter((m) => declared.has(memberKey(m.address, m.protocol_port)));
    if (ours.length === 0) {
      log(`${what}: none of the stack's members is left in the pool; the pool and its settings stay as they are`);
      return;
    }
    const others = held.filter((m) => !ours.includes(m)).map((m) => ({ address: m.address, protocol_port: m.protocol_port }));
    log(
      `${what}: removing the stack's member(s) ${ours.map((m) => memberKey(m.address, m.protocol_port)).join(", ")}; the pool, its settings and its ${others.length} other member(s) stay`,
    );
    try {
      await callAndWait("PATCH", path(props), what, "delete", props, { body: { members: others } });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  });
}

async function read(id: string, props: PoolInputs): Promise<pulumi.dynamic.ReadResult> {
  return readOrGone(id, props, path(props), (record) => poolTable.fromRecord(record, props), poolTable.rules, { includeAuto: true });
}

export const lbPoolSettingsMethods = { check, diff, create, update, read, delete: remove };

/** LbPoolSettings: its descriptor, field table and methods, as the registry (./index.ts) lists it. */
export const LbPoolSettings: KindEntry = { descriptor: poolDescriptor, table: poolTable, methods: lbPoolSettingsMethods };

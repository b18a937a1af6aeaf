// LbPoolSettings's provider methods: chosen settings of an existing load balancer pool. Only
// the fields given are managed. The pool is shared: settings other than members go through
// the pool's PATCH (lbpools, asynchronous), only those whose inputs changed; the stack's own
// members are added, changed and removed one by one through the member endpoints (./lb-pool-
// settings-members.ts), known by their ids, so another stack's members are never written
// (unless the program chooses `membersOwnership: "exclusive"`, whose preview names every member
// it removes). Destroy removes the stack's members by id and leaves the pool, its settings and
// everyone else's members (the service will not delete a subnet a member still uses).
import type * as pulumi from "@pulumi/pulumi";
import { LbPoolSettings as contract } from "../../api/contract/lb-pool-settings";
import { Subnet as subnetContract } from "../../api/contract/subnet";
import { memberKey } from "../../api/members";
import { canonical } from "../../api/net";
import { CimsError, NotFoundError } from "../client/errors";
import { apiPath } from "../client/path";
import { callAndWait, readOrGone, withContext } from "../methods/calls";
import { apiClient, log, scopeDefaults, warn } from "../methods/context";
import { mayHaveActed } from "../methods/create";
import type { Descriptor, Scoped } from "../methods/descriptor";
import type { KindEntry } from "../methods/kind-entry";
import { membersMadeAlone, withoutMembersMadeAlone } from "./members-alone";
import { changedFields, type KindDiff, sameValue } from "../methods/diff";
import { differences } from "../methods/drift";
import { PartialCreateError } from "../methods/resource-errors";
import { arrayOf, oneOf, uuid4 } from "../../api/contract/common";
import type { OwnField } from "../methods/inputs";
import { describeSettings } from "../methods/describe";
import { containsUnknown, type Inputs, isUnknown } from "../methods/schema";
import { resourceTable } from "../methods/table";
import { camelKeys, plainRecord } from "../../api/wire";
import {
  adoptedIds,
  adoptedIn,
  claimedByReplacement,
  DECLARED,
  DECLARED_IDS,
  declaredKeys,
  declaredState,
  deleteMember,
  type MemberWrites,
  type OwnedIds,
  ownedIds,
  ownershipOf,
  ownView,
  recordKey,
  strangerReason,
  strangers,
  syncMembers,
} from "./lb-pool-settings-members";
import { recordsIn, stringsIn } from "../../api/guards";
import { messageOf } from "../../api/messages";
import { lbPoolSettingsExample } from "./lb-pool-settings.example";
import type { WithExample } from "./program-model";

/** A pool's chosen settings: its inputs once checked. */
type PoolInputs = Scoped<{ poolId: string; members?: Member[] | null; membersOwnership?: string; adoptMembers?: string[] }>;

/** The inputs only a pool's settings take: which of its members the stack manages. */
const POOL_INPUTS = {
  membersOwnership: {
    type: oneOf("MembersOwnership", ["declared", "exclusive"]),
    set: "update",
    doc:
      'Which of the pool\'s members the stack manages. "declared" (the default): only those `members` lists, each added, ' +
      "changed and removed one by one by its id; members others added (another stack's LbPoolSettings or LbPoolMember) are never " +
      'touched: for a pool several teams share. "exclusive": the pool holds exactly `members`, and a change of them removes every ' +
      "other member (the preview names each): for a pool one stack owns whole.",
  },
  adoptMembers: {
    type: arrayOf(uuid4),
    set: "update",
    doc:
      "Ids (uuid4) of members the pool already holds that this resource takes over on purpose, each listed in `members` at its " +
      "address and port: the preview says `adopts member ...`, and the stack then changes them as its own. Destroy, or leaving " +
      "one out of `members`, leaves an adopted member in the pool; drop its id from here (keeping it in `members`) to make it the " +
      "stack's like a member it made. A member the pool holds that the program lists without its id here is refused at preview: " +
      "nothing shows this stack made it. `pulumi import` and cims-import write this list.",
  },
} as const satisfies Readonly<Record<string, OwnField>>;

export const poolDescriptor: Descriptor = describeSettings({
  contract,
  inputs: POOL_INPUTS,
  outputsOnlyGiven: true,
  label: (i) => `LbPoolSettings of pool ${String(i.poolId)}`,
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
    // The members written are adopted on purpose (by id): the preview says so, and destroy leaves them.
    args: (r, fields, scope) => ({ poolId: String(r.id), ...scope, ...fields, ...(fields.members ? adoptionOf(r.members) : {}) }),
    // Members another stack's (or anyone's) member create made are no import's to take.
    prepare: withoutMembersMadeAlone,
  },
  // An imported pool's members are those its program adopts by id, and no other.
  importState: (inputs, record) => declaredState(inputs, adoptedIn(inputs, record)),
});
export const poolTable = resourceTable(poolDescriptor);

type Member = Record<string, unknown>;
const keyOf = (m: Member) => memberKey(m.address, m.protocolPort);

const label = poolDescriptor.label;

/** `adoptMembers` naming every member of an import's program (none: nothing). */
function adoptionOf(members: unknown): { adoptMembers?: string[] } {
  const ids = recordsIn(members).flatMap((m) => (typeof m.id === "string" ? [m.id.toLowerCase()] : []));
  return ids.length > 0 ? { adoptMembers: ids } : {};
}
const pathParams = (i: PoolInputs) => ({ project_id: i.projectId, region_id: i.regionId, pool_id: i.poolId });
const path = (i: PoolInputs) => poolDescriptor.recordPath(i, i.poolId);

/** Inputs with their ownership explicit: a state written before the input was `declared`. */
const owning = (i: Inputs): Inputs => ({ ...i, membersOwnership: ownershipOf(i) });

/**
 * Members whose subnet the program changes: a member's subnet is fixed at its creation, so a
 * new one is a new member (the old one removed first). A weight changes in place.
 */
export function membersToRecreate(current: Member[], wanted: Member[]): Member[] {
  const byKey = new Map(current.map((m) => [keyOf(m), m]));
  return wanted.filter((m) => {
    const old = byKey.get(keyOf(m));
    return old !== undefined && m.subnetId !== undefined && !sameValue(canonical("uuid4", old.subnetId), canonical("uuid4", m.subnetId));
  });
}

/** `10.0.0.21:8080 (id <id>; subnetId a -> b)`: a member the service holds, and what changes of it. */
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

/** The re-add a changed subnetId costs (see membersToRecreate), in a sentence; undefined when there is none. */
function readdNote(held: Member[], wanted: Member[]): string | undefined {
  const stale = membersToRecreate(held, wanted);
  if (stale.length === 0) return undefined;
  const byKey = new Map(held.map((m) => [keyOf(m), m]));
  return (
    `removes and re-adds member(s) ${stale.map((m) => describeMember(byKey.get(keyOf(m))!, m)).join(", ")} ` +
    "(a member's subnet is fixed when it is made, so a new subnetId lands only on a new member; it takes no traffic in between)"
  );
}

/**
 * The members exclusive ownership removes from the pool as it is now (every member the program
 * does not list, whoever added it), in a sentence; what a list known only at apply may remove.
 */
function removalNote(pool: Record<string, unknown>, inputs: Inputs): string[] {
  if (ownershipOf(inputs) !== "exclusive" || inputs.members === undefined || isUnknown(inputs.members)) return [];
  const held = recordsIn(camelKeys(pool.members ?? []));
  const wanted = recordsIn(inputs.members);
  if (!wanted.every((m) => !containsUnknown(m.address) && !containsUnknown(m.protocolPort)))
    return ["may remove members: the program's member addresses or ports are known only at apply"];
  const listed = new Set(wanted.map(keyOf));
  const removed = held.filter((m) => !listed.has(keyOf(m)));
  return removed.length > 0 ? [`removes member(s) ${removed.map((m) => describeMember(m)).join(", ")}`] : [];
}

/**
 * What a create (adopting the pool as the program says) takes from the pool as it is now: with
 * exclusive ownership the members it removes, those it removes and re-adds, and each setting
 * it changes (old -> new). Empty when it takes nothing.
 */
export function createTakes(pool: Record<string, unknown>, inputs: Inputs): string[] {
  const takes = removalNote(pool, inputs);
  if (inputs.members !== undefined && !isUnknown(inputs.members)) {
    const readd = readdNote(recordsIn(camelKeys(pool.members ?? [])), recordsIn(inputs.members));
    if (readd) takes.push(readd);
  }
  const service = poolTable.fromRecord(pool, inputs);
  for (const field of differences(poolTable, pool, inputs).updates) {
    if (field !== "members") takes.push(`changes ${field}: ${shown(service[field])} -> ${shown(inputs[field])}`);
  }
  return takes;
}

/** The pool PATCH body for these fields: nested objects whole, snake_case; never members. */
export function patchBody(inputs: Inputs, fields: readonly string[]): Record<string, unknown> {
  return poolTable.patch(
    {},
    inputs,
    fields.filter((f) => f !== "members"),
  );
}

/** PATCHes these settings (and DELETEs a health monitor set to null), and waits. */
async function applySettings(inputs: PoolInputs, fields: readonly string[], op: "create" | "update", done: MemberWrites): Promise<void> {
  const what = label(inputs);
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
  const body = patchBody(inputs, fields);
  if (Object.keys(body).length === 0) return;
  done.sent++;
  done.taskIds.push(...(await callAndWait("PATCH", path(inputs), what, op, inputs, { body })).taskIds);
  done.writes++;
}

/**
 * Writes the members and the settings, reads the pool, and says what the state records: the
 * outputs of the stack's members only (exclusive: all), and its members' ids.
 */
async function apply(
  inputs: PoolInputs,
  settings: readonly string[],
  members: { before?: Inputs[]; owned: OwnedIds; sync: boolean; adopted: Set<string> },
  op: "create" | "update",
  done: MemberWrites,
  current: Record<string, unknown>,
): Promise<Inputs> {
  if (members.sync) {
    const what = label(inputs);
    const { before, owned, adopted } = members;
    await syncMembers({ inputs, before, adopted, pool: current, owned, op, what, done, removed: new Set() });
  }
  await applySettings(inputs, settings, op, done);
  const record = done.writes === 0 ? current : await apiClient().record("GET", path(inputs));
  return stateOf(inputs, record, members.owned, done.taskIds);
}

function stateOf(inputs: Inputs, record: Record<string, unknown>, owned: OwnedIds, taskIds: string[]): Inputs {
  return { ...poolTable.outputs(inputs, ownView(record, owned, ownershipOf(inputs)), taskIds), ...declaredState(inputs, owned) };
}

const IDENTITY = ["poolId", "projectId", "regionId"] as const;

/**
 * check() runs in the preview and before the create, where no other call can tell the user
 * what a create, or an exclusive update of the members, will take from a shared pool: so it
 * reads the pool and warns of it. It sees the program only, not the state: which members the
 * stack made is for diff() to weigh (refuseMembersMadeAlone).
 */
async function check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const result = poolTable.check(olds, news, scopeDefaults);
  const inputs = result.inputs as PoolInputs;
  const known = IDENTITY.every((f) => inputs[f] !== undefined && !containsUnknown(inputs[f]));
  const named = poolNamed(olds, inputs);
  const creates = named !== "same";
  const declares = inputs.members !== undefined && !containsUnknown(inputs.members);
  const exclusive = ownershipOf(inputs) === "exclusive";
  const membersChange = !sameValue(olds.members, inputs.members) || ownershipOf(olds) !== ownershipOf(inputs);
  const checksMembers = exclusive && declares && (creates || membersChange);
  // A create has no member of its own yet: any member a member create made is another's.
  const refusesMadeAlone = checksMembers && creates;
  // Members are looked at when their addresses and ports are known (a subnet id may not be yet).
  const keysKnown =
    inputs.members !== undefined &&
    !isUnknown(inputs.members) &&
    recordsIn(inputs.members).every((m) => !containsUnknown(m.address) && !containsUnknown(m.protocolPort));
  const fresh = keysKnown
    ? freshMembers(olds, inputs, named === "other")
    : { keys: new Set<string>(), adopts: [], subnets: new Set<string>() };
  const adoptsChange = !sameValue(olds.adoptMembers, inputs.adoptMembers);
  const looks = (creates || membersChange || adoptsChange) && (fresh.keys.size > 0 || fresh.adopts.length > 0 || fresh.subnets.size > 0);
  if ((result.failures ?? []).length > 0 || !known || (!creates && !checksMembers && !looks)) return result;
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
  const takes = creates ? createTakes(pool, inputs) : removalNote(pool, inputs);
  if (takes.length > 0) await warn(`${label(inputs)}: the ${creates ? "create" : "update"} ${takes.join("; ")}`);
  const failures = [
    ...(refusesMadeAlone ? await membersManagedAlone(inputs, pool) : []),
    ...(looks ? await membersNotOurs(inputs, pool, fresh, creates) : []),
    ...(looks ? await missingSubnets(inputs, fresh.subnets) : []),
  ];
  return failures.length > 0 ? { ...result, failures } : result;
}

type Failure = { property: string; reason: string };

/**
 * Which pool the last inputs named: this one (`"same"`: an update); `"other"` (none: a new
 * resource; or another pool or scope: a replacement), whose listed members are news to this one;
 * or `"unscoped"`, this pool named by a state written before pools had a scope (no projectId or
 * regionId). The last is still a create: the scope is a new value, which the diff replaces,
 * deleting the old resource first; but what those inputs listed is no news, as the old
 * resource's delete takes its members out of the pool before the create adds them back.
 */
function poolNamed(olds: Inputs, inputs: Inputs): "same" | "unscoped" | "other" {
  if (olds.poolId === undefined) return "other";
  const differ = IDENTITY.filter((f) => String(olds[f]).toLowerCase() !== String(inputs[f]).toLowerCase());
  if (differ.length === 0) return "same";
  return differ.every((f) => f !== "poolId" && olds[f] === undefined) ? "unscoped" : "other";
}

/**
 * The members (address:port) the program lists that its last inputs did not, the ids it newly
 * adopts, and the members whose subnet is new to it (a new member's, or a changed subnetId).
 */
function freshMembers(olds: Inputs, inputs: Inputs, creates: boolean): { keys: Set<string>; adopts: string[]; subnets: Set<string> } {
  const before = new Map(creates ? [] : recordsIn(olds.members).map((m) => [keyOf(m), m]));
  const had = creates ? new Set<string>() : adoptedIds(olds);
  const listed = recordsIn(inputs.members);
  const subnetOf = (m: Member | undefined) => canonical("uuid4", m?.subnetId);
  return {
    keys: new Set(listed.map(keyOf).filter((k) => !before.has(k))),
    adopts: stringsIn(inputs.adoptMembers).filter((id) => !had.has(id.toLowerCase())),
    subnets: new Set(listed.filter((m) => m.subnetId !== undefined && !sameValue(subnetOf(m), subnetOf(before.get(keyOf(m))))).map(keyOf)),
  };
}

/**
 * What the program newly lists or adopts, against the pool as it is. A member the pool holds at
 * a new address:port that the stack cannot show is its own is refused, naming who made it where
 * a member create's task says; an adoption naming no member at a listed address:port is refused;
 * the members adopted on purpose are said (`adopts member ...`).
 */
async function membersNotOurs(
  inputs: PoolInputs,
  pool: Record<string, unknown>,
  fresh: { keys: Set<string>; adopts: string[] },
  creates: boolean,
): Promise<Failure[]> {
  const keys = declaredKeys(inputs);
  const found = strangers(inputs, pool, {}).filter((m) => fresh.keys.has(recordKey(m)));
  const made = found.length > 0 ? await membersMadeAlone(apiClient(), inputs, found).catch(() => new Map<string, string>()) : new Map();
  const failures = found.map((m): Failure => {
    const i = keys.indexOf(recordKey(m));
    return { property: `members[${i}]`, reason: strangerReason(inputs.poolId, m, i, made.get(String(m.id).toLowerCase())) };
  });
  const held = new Map(recordsIn(pool.members).map((m) => [String(m.id).toLowerCase(), m]));
  const adopts: string[] = [];
  stringsIn(inputs.adoptMembers).forEach((id, i) => {
    if (!fresh.adopts.includes(id)) return;
    const m = held.get(id.toLowerCase());
    const at = m && recordKey(m);
    if (at && keys.includes(at)) adopts.push(`${at} (id ${id})`);
    else
      failures.push({
        property: `adoptMembers[${i}]`,
        reason: at
          ? `adoptMembers[${i}]: member ${id} of pool ${String(inputs.poolId)} is at ${at}, which members does not list: list it there (with the settings the stack is to keep), or drop the id`
          : `adoptMembers[${i}]: pool ${String(inputs.poolId)} holds no member ${id}: check the id (the pool's members are listed by \`GET\` of the pool), or drop it`,
      });
  });
  if (failures.length === 0 && adopts.length > 0)
    await warn(
      `${label(inputs)}: the ${creates ? "create" : "update"} adopts member(s) ${adopts.join(", ")} as they are: ` +
        "the stack manages them from now on, and destroy leaves them in the pool",
    );
  return failures;
}

/**
 * Members whose subnet does not exist, each named by its `members[i].subnetId`: the service would
 * refuse that member half-way through an `up`. Only members new to the program, or whose subnet
 * it changes, are looked at; a subnet known only at apply, or a read that fails otherwise, is no
 * failure here.
 */
async function missingSubnets(inputs: PoolInputs, fresh: Set<string>): Promise<Failure[]> {
  const failures: Failure[] = [];
  for (const [i, m] of recordsIn(inputs.members).entries()) {
    if (typeof m.subnetId !== "string" || isUnknown(m.subnetId) || !fresh.has(keyOf(m))) continue;
    const where = { project_id: inputs.projectId, region_id: inputs.regionId, subnet_id: m.subnetId };
    try {
      await apiClient().record("GET", apiPath(subnetContract.paths.item, where));
    } catch (err) {
      if (!(err instanceof NotFoundError)) continue;
      failures.push({
        property: `members[${i}].subnetId`,
        reason:
          `members[${i}].subnetId: no subnet ${m.subnetId} in project ${inputs.projectId}, region ${inputs.regionId}, so the service ` +
          "would refuse member " +
          keyOf(m) +
          ": check the id, or the pool's projectId and regionId",
      });
    }
  }
  return failures;
}

/**
 * With exclusive ownership a pool's members are managed whole (`members`), so a member another
 * resource made alone (an LbPoolMember, another stack's LbPoolSettings) would be removed, and
 * its resource would make it again. A member made alone is known by evidence, the member create
 * task (`create_lbmember`) that made it; the stack's own member adds are such tasks too, so the
 * members `ours` names (by id, from the state) are left out. The tasks or pool not readable:
 * nothing is refused here.
 */
async function membersManagedAlone(
  inputs: PoolInputs,
  pool: Record<string, unknown>,
  ours: ReadonlySet<string> = new Set(),
): Promise<Array<{ property: string; reason: string }>> {
  try {
    const made = await membersMadeAlone(apiClient(), inputs, pool.members);
    return recordsIn(pool.members)
      .filter((m) => made.has(String(m.id).toLowerCase()) && !ours.has(String(m.id).toLowerCase()))
      .map((m) => ({
        property: "members",
        reason:
          `members: pool ${String(inputs.poolId)} holds member ${String(m.id)} (${recordKey(m)}), made alone by ` +
          `task ${made.get(String(m.id).toLowerCase())} (a member create of another resource: an LbPoolMember's, or another stack's ` +
          `LbPoolSettings'), and membersOwnership "exclusive" manages the pool's members whole. Manage the pool's members one way: ` +
          'set membersOwnership: "declared" (the default), or remove that member through the resource that made it first',
      }));
  } catch (err) {
    log(`${label(inputs)}: could not read the member tasks of the pool: ${messageOf(err)}`);
    return [];
  }
}

/** The fields whose change makes an update bring the pool's members to the program's (syncMembers). */
const MEMBER_FIELDS = ["members", "membersOwnership", "adoptMembers"];

/**
 * The members the state says the stack made, by id: those its own member creates reported (a
 * state of an earlier version: found by address:port in `pool`). Adopted ones were made by
 * someone else, so they are not.
 */
function madeByStack(state: Inputs, pool: Record<string, unknown>): Set<string> {
  const adopted = adoptedIds(state);
  return new Set(
    Object.values(ownedIds(state, pool))
      .map((id) => id.toLowerCase())
      .filter((id) => !adopted.has(id)),
  );
}

/**
 * An exclusive update that syncs the members would remove any member another resource made
 * alone: refused before any write, at preview and at up (the engine diffs before it updates).
 * Here, not in check(), because only the state tells the stack's own member creates from others'.
 */
async function refuseMembersMadeAlone(olds: Inputs, news: PoolInputs): Promise<void> {
  let pool: Record<string, unknown>;
  try {
    pool = await apiClient().record("GET", path(news));
  } catch (err) {
    // The update reads it again and fails there with this reason, in the resource's context.
    log(`${label(news)}: could not read the pool to check whose members it holds: ${messageOf(err)}`);
    return;
  }
  const failures = await membersManagedAlone(news, pool, madeByStack(olds, pool));
  if (failures.length > 0) throw new CimsError(failures.map((f) => f.reason).join("; "));
}

/** Inputs that name their pool and scope (at preview one may be known only at apply). */
const namesPool = (i: Inputs): i is PoolInputs =>
  typeof i.poolId === "string" && !isUnknown(i.poolId) && typeof i.projectId === "number" && typeof i.regionId === "number";

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<KindDiff> {
  const note = poolTable.unmanagedNote(olds, news);
  if (note) log(note);
  // A replacement removes the old resource's members first: on the same pool (`up --replace`)
  // the create after it puts them back, where the other order would leave the pool without them.
  const result = poolTable.diff(owning(olds), owning(news), true);
  const inPlace = result.changes && (result.replaces ?? []).length === 0;
  const syncs = MEMBER_FIELDS.some((f) => result.diffs.includes(f));
  const exclusive = ownershipOf(news) === "exclusive" && news.members !== undefined && !containsUnknown(news.members);
  if (inPlace && syncs && exclusive && namesPool(news)) await refuseMembersMadeAlone(olds, news);
  // An update in place (a replacement is a create, which check() spoke of): the members it
  // removes and adds back, which the diff itself shows as a mere change of a field.
  if (result.changes && (result.replaces ?? []).length === 0 && news.members !== undefined && !isUnknown(news.members)) {
    const readd = readdNote(recordsIn(olds.members), recordsIn(news.members));
    if (readd) await warn(`${label(news)}: the update ${readd}`);
  }
  return result;
}

const noWrites = (): MemberWrites => ({ sent: 0, writes: 0, taskIds: [] });

async function create(inputs: PoolInputs): Promise<pulumi.dynamic.CreateResult> {
  const done = noWrites();
  const owned: OwnedIds = {};
  try {
    return await withContext(label(inputs), async () => {
      // Adopting the pool: read it, and write only the given fields it does not hold already
      // (none: no request but this GET, no task). The members the program lists that the pool
      // holds are adopted as they are.
      const current = await apiClient().record("GET", path(inputs));
      const { updates } = differences(poolTable, current, inputs);
      const members = { owned, sync: inputs.members !== undefined, adopted: adoptedIds(inputs) };
      return { id: String(inputs.poolId), outs: await apply(inputs, updates, members, "create", done, current) };
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
    throw new PartialCreateError(messageOf(err), String(inputs.poolId), identityOnly(inputs, owned));
  }
}

/**
 * What a half-applied create records: no managed field, so none can look already applied, and
 * the members it made or adopted so far, by id: destroy removes those.
 */
export function identityOnly(inputs: Inputs, owned: OwnedIds = {}): Inputs {
  const { __provider, poolId, projectId, regionId, timeouts, membersOwnership, adoptMembers } = inputs;
  return plainRecord({
    __provider,
    poolId,
    projectId,
    regionId,
    timeouts,
    membersOwnership,
    adoptMembers,
    ...declaredState(inputs, owned),
  });
}

/**
 * Writes the fields whose inputs changed between the state and the program (what the preview
 * showed), and nothing else: a field changed outside Pulumi shows after `pulumi refresh`, and
 * the `up` after it sets it back in the open. Members: only the stack's own, one by one.
 */
async function update(_id: string, olds: PoolInputs, news: PoolInputs): Promise<pulumi.dynamic.UpdateResult> {
  const changed = changedFields(owning(olds), owning(news), poolTable.rules).map((r) => r.name);
  return withContext(label(news), async () => {
    const current = await apiClient().record("GET", path(news));
    const members = {
      before: recordsIn(olds.members),
      owned: ownedIds(olds, current),
      sync: MEMBER_FIELDS.some((f) => changed.includes(f)),
      // Adopted by the state or the program: either way not made by the stack, so never deleted.
      adopted: adoptedIds(olds, news),
    };
    const outs = await apply(news, changed, members, "update", noWrites(), current);
    // What the update did not write stays as the state had it: drift since the last refresh
    // (a name changed by hand) would otherwise enter the state and show as a change next time.
    return { outs: poolTable.updated(outs, olds, news, members.sync ? [...changed, "members"] : changed) };
  });
}

/**
 * Destroy: removes the stack's members by id (DELETE of each, waiting for its task; one gone
 * already is fine), and nothing else: the pool, its settings and the others' members stay.
 * Without this the stack's subnets could not be deleted after it: the service refuses to
 * delete a subnet a pool member still uses. Each DELETE names one member, so one retried
 * after a lock (another stack's member create) removes only that member.
 */
async function remove(_id: string, props: PoolInputs): Promise<void> {
  const what = label(props);
  await withContext(what, async () => {
    const owned = ownedIds(props, DECLARED_IDS in props ? undefined : await readPool(props));
    const ours = Object.entries(owned);
    if (ours.length === 0) {
      log(`${what}: the stack has no member in the pool; the pool and its settings stay as they are`);
      return;
    }
    const adopted = adoptedIds(props);
    const made = ours.filter(([, id]) => !adopted.has(id.toLowerCase()));
    const kept = ours.filter(([, id]) => adopted.has(id.toLowerCase()));
    if (kept.length > 0) log(`${what}: leaving the adopted member(s) ${kept.map(([k, id]) => `${k} (id ${id})`).join(", ")} in the pool`);
    if (made.length === 0) return;
    log(`${what}: removing the stack's member(s) ${made.map(([k]) => k).join(", ")}; the pool, its settings and its other members stay`);
    const s = { inputs: props, op: "delete" as const, what, done: noWrites(), removed: new Set<string>() };
    for (const [key, id] of made) if (!claimedByReplacement(what, id, key)) await deleteMember(s, id, key);
  });
}

/** The pool, or undefined when it is gone. */
function readPool(props: PoolInputs): Promise<Record<string, unknown> | undefined> {
  return apiClient()
    .record("GET", path(props))
    .catch((err: unknown) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
}

/**
 * Refresh: the pool's settings the program gives, and of its members the stack's own (all of
 * them with exclusive ownership, so others' show as a change the next `up` makes).
 */
async function read(id: string, props: PoolInputs): Promise<pulumi.dynamic.ReadResult> {
  const toState = (record: Record<string, unknown>) => {
    const owned = ownedIds(props, record);
    const declared = DECLARED in props ? stringsIn(props[DECLARED]) : Object.keys(owned);
    return { ...poolTable.fromRecord(ownView(record, owned, ownershipOf(props)), props), [DECLARED]: declared, [DECLARED_IDS]: owned };
  };
  return readOrGone(id, props, path(props), toState, poolTable.rules, { includeAuto: true });
}

export const lbPoolSettingsMethods = { check, diff, create, update, read, delete: remove };

/** LbPoolSettings: its descriptor, field table and methods, as the registry (./index.ts) lists it. */
export const LbPoolSettings: KindEntry & WithExample = {
  example: lbPoolSettingsExample,
  descriptor: poolDescriptor,
  table: poolTable,
  methods: lbPoolSettingsMethods,
};

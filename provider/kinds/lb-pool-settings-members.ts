// LbPoolSettings's members, one by one through the member endpoints (the ones LbPoolMember
// uses): POST adds one, PATCH changes one in place, DELETE removes one, each a task. Another
// stack's members share the pool, so nothing here is computed from the pool's whole list:
// the stack's own members are known by their ids (the state's `declaredMemberIds`), and only
// those are written. A member is the stack's by evidence only: the id its own member create's
// task reported, or an id the program adopts on purpose (`adoptMembers`), which destroy leaves.
// A member the pool holds at an address:port the program lists is no evidence: it is refused
// (at preview by check(), and again here before any write, should it appear in between).
// `membersOwnership: "exclusive"` also removes, by id, every member the program does not list.
import { LbPoolMember as memberContract } from "../../api/contract/lb-pool-member";
import { MEMBER_FIXED, MEMBER_IN_PLACE, MEMBER_NOT_IN_RECORD, MEMBER_SETTINGS, memberKey, memberSetting } from "../../api/members";
import { toSnake } from "../../api/names";
import { CimsError, NotFoundError } from "../client/errors";
import { apiPath } from "../client/path";
import { callAndWait } from "../methods/calls";
import type { Operation } from "../methods/context";
import { log } from "../methods/context";
import { createdIdIn } from "../methods/create";
import { sameValue } from "../methods/diff";
import type { Scoped } from "../methods/descriptor";
import type { Inputs } from "../methods/schema";
import { type ApiRecord, isRecord, recordsIn, stringsIn } from "../../api/guards";
import { runMemory } from "../methods/run-memory";

/** The state key listing the members (address:port) the program declared: what destroy removes. */
export const DECLARED = "declaredMembers";
/** The state key of the declared members' ids, by address:port: the members the stack writes. */
export const DECLARED_IDS = "declaredMemberIds";

/** Who owns the pool's members: the stack only those it declares, or the whole list. */
export type Ownership = "declared" | "exclusive";
export const ownershipOf = (i: Inputs): Ownership => (i.membersOwnership === "exclusive" ? "exclusive" : "declared");

/** Address:port -> member id. */
export type OwnedIds = Record<string, string>;

/** The pool's identity and scope, as a pool's inputs or state hold them. */
export type PoolRef = Scoped<Inputs & { poolId: string }>;

const params = (i: PoolRef) => ({ project_id: i.projectId, region_id: i.regionId, pool_id: i.poolId });
const collectionPath = (i: PoolRef) => apiPath(memberContract.paths.collection, params(i));
const itemPath = (i: PoolRef, id: string) => apiPath(memberContract.paths.item, { ...params(i), member_id: id });

/** A program's member (camelCase) or a record's (snake_case): its key. */
export const programKey = (m: Inputs) => memberKey(m.address, m.protocolPort);
export const recordKey = (m: ApiRecord) => memberKey(m.address, m.protocol_port);

/** The members (address:port) a program declares; none when it leaves `members` unmanaged. */
export function declaredKeys(inputs: Inputs): string[] {
  return inputs.members === undefined ? [] : recordsIn(inputs.members).map(programKey);
}

/** The member ids a program (or a state) adopts on purpose, lowercase; `adoptMembers` of each. */
export function adoptedIds(...inputs: ReadonlyArray<Inputs | undefined>): Set<string> {
  return new Set(inputs.flatMap((i) => stringsIn(i?.adoptMembers).map((id) => id.toLowerCase())));
}

/**
 * The stack's members by id, as a state records them. A state written before the ids were
 * recorded names its declared members by address:port only, and one older still lists them as
 * its `members` (a version that took what the program listed): what such a state names is
 * found in `pool` by address:port, so that a stack deployed then keeps what it holds. Every
 * state written now records ids; an import's records only the members it adopts by id.
 */
export function ownedIds(state: Inputs, pool?: ApiRecord): OwnedIds {
  const recorded = state[DECLARED_IDS];
  if (isRecord(recorded))
    return Object.fromEntries(Object.entries(recorded).filter((e): e is [string, string] => typeof e[1] === "string"));
  const owned: OwnedIds = {};
  const held = new Map(recordsIn(pool?.members).map((m) => [recordKey(m), m]));
  const keys = Array.isArray(state[DECLARED]) ? stringsIn(state[DECLARED]) : recordsIn(state.members).map(programKey);
  for (const key of keys) {
    const found = held.get(key)?.id;
    if (owned[key] === undefined && typeof found === "string") owned[key] = found.toLowerCase();
  }
  return owned;
}

/** The members of `pool` that `inputs` list and adopt by id (`adoptMembers`): address:port -> id. */
export function adoptedIn(inputs: Inputs, pool?: ApiRecord): OwnedIds {
  const adopted = adoptedIds(inputs);
  const listed = new Set(declaredKeys(inputs));
  const owned: OwnedIds = {};
  for (const m of recordsIn(pool?.members)) {
    const id = String(m.id).toLowerCase();
    if (adopted.has(id) && listed.has(recordKey(m))) owned[recordKey(m)] = id;
  }
  return owned;
}

/**
 * The members `pool` holds at an address:port the program lists that are not the stack's: not
 * recorded as its own, not adopted on purpose (exclusive ownership takes every member, so none).
 * Each is refused: holding the same address and port is no evidence that this stack made it.
 */
export function strangers(inputs: Inputs, pool: ApiRecord, owned: OwnedIds): ApiRecord[] {
  if (ownershipOf(inputs) === "exclusive" || inputs.members === undefined) return [];
  const listed = new Set(declaredKeys(inputs));
  const ours = new Set([...Object.values(owned).map((id) => id.toLowerCase()), ...adoptedIds(inputs)]);
  return recordsIn(pool.members).filter((m) => listed.has(recordKey(m)) && !ours.has(String(m.id).toLowerCase()));
}

/** Why a member the pool holds is not the stack's, and what to do: check's failure and sync's error. */
export function strangerReason(poolId: unknown, m: ApiRecord, index: number, madeBy?: string): string {
  const key = recordKey(m);
  const id = String(m.id);
  const who = madeBy
    ? `made by task ${madeBy} (create_lbmember: another stack's LbPoolMember or LbPoolSettings, or a script)`
    : "made outside this stack";
  return (
    `members[${index}]: pool ${String(poolId)} already holds member ${key} (id ${id}, ${who}), and nothing shows this stack made it, ` +
    `so it is not taken over. To manage that member from this resource on purpose, add "${id}" to adoptMembers (the preview then ` +
    `says it adopts it, and destroy leaves it in the pool); otherwise leave ${key} out of members, or use another address or port. ` +
    "If it is this very resource's member (`pulumi up --replace`, for which the engine asks the provider nothing of the resource " +
    "it replaces), give that run the resource option `deleteBeforeReplace: true`: the old resource's delete removes its members, " +
    "and the create adds them back"
  );
}

/** The pool record with only the members the stack owns (exclusive: all of them). */
export function ownView(pool: ApiRecord, owned: OwnedIds, ownership: Ownership): ApiRecord {
  if (ownership === "exclusive") return pool;
  const ids = new Set(Object.values(owned).map((id) => id.toLowerCase()));
  return { ...pool, members: recordsIn(pool.members).filter((m) => ids.has(String(m.id).toLowerCase())) };
}

/** What the state records of the members: the declared list and their ids. */
export function declaredState(inputs: Inputs, owned: OwnedIds): Inputs {
  const keys = declaredKeys(inputs);
  return { [DECLARED]: keys, [DECLARED_IDS]: Object.fromEntries(keys.filter((k) => owned[k]).map((k) => [k, owned[k]])) };
}

/** A member setting's value, canonical (an id's, an address's spelling). */
const setting = (m: Inputs | undefined, field: string): unknown => memberSetting(field, m?.[field]);
const recordSetting = (m: ApiRecord | undefined, field: string): unknown => memberSetting(field, m?.[toSnake(field)]);

/** A member record's settings, as a program spells them (those the record shows). */
const settingsOf = (record: ApiRecord): Inputs =>
  Object.fromEntries(MEMBER_SETTINGS.filter((f) => !MEMBER_NOT_IN_RECORD.has(f)).map((f) => [f, record[toSnake(f)]]));

/** Whether the program gives this member a setting other than `base`'s. */
function differs(wanted: Inputs, base: Inputs | undefined, field: string): boolean {
  return wanted[field] !== undefined && !sameValue(setting(wanted, field), setting(base, field));
}

export interface MemberWrites {
  /** Writes sent, and those the service accepted (a failed create knows whether it changed anything). */
  sent: number;
  writes: number;
  taskIds: string[];
}

interface Sync {
  inputs: PoolRef;
  /** Member ids adopted on purpose, by the state or the program: leaving them out of `members` leaves them in the pool. */
  adopted: Set<string>;
  /** The state's members (what the diff compared with); undefined at create: the pool's. */
  before?: Inputs[];
  pool: ApiRecord;
  owned: OwnedIds;
  op: Operation;
  what: string;
  done: MemberWrites;
  /** Ids removed so far (an exclusive sync does not remove them twice). */
  removed: Set<string>;
}

async function call(s: Sync, method: string, path: string, body?: ApiRecord) {
  s.done.sent++;
  const outcome = await callAndWait(method, path, s.what, s.op, s.inputs, body ? { body } : {});
  s.done.writes++;
  s.done.taskIds.push(...outcome.taskIds);
  return outcome;
}

/** DELETE one member by id; one already gone is fine. */
export async function deleteMember(s: Pick<Sync, "inputs" | "op" | "what" | "done" | "removed">, id: string, key: string): Promise<void> {
  s.removed.add(id);
  try {
    await call({ ...s, pool: {}, owned: {}, adopted: new Set() }, "DELETE", itemPath(s.inputs, id));
    log(`${s.what}: member ${key} (id ${id}) removed`);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

async function addMember(s: Sync, wanted: Inputs): Promise<string> {
  const body = Object.fromEntries(
    ["address", "protocolPort", ...MEMBER_SETTINGS]
      .filter((f) => wanted[f] !== undefined && wanted[f] !== null)
      .map((f) => [toSnake(f), wanted[f]]),
  );
  const outcome = await call(s, "POST", collectionPath(s.inputs), body);
  const id = createdIdIn(outcome.tasks, "members");
  if (id === undefined)
    throw new CimsError(
      `members: the create of member ${programKey(wanted)} finished without naming the member it made: run \`pulumi refresh\`, then \`pulumi up\``,
    );
  log(`${s.what}: member ${programKey(wanted)} added (id ${id})`);
  return id.toLowerCase();
}

/** One wanted member: added, adopted (the program lists one the pool holds), changed in place, or left. */
async function syncOne(s: Sync, wanted: Inputs, held: Map<string, ApiRecord>, heldByKey: Map<string, ApiRecord>): Promise<void> {
  const key = programKey(wanted);
  let id: string | undefined = s.owned[key];
  let record = id === undefined ? undefined : held.get(id);
  if (id === undefined && heldByKey.has(key)) {
    // strangers() refused every other: this one is adopted on purpose, or exclusive ownership takes it.
    record = heldByKey.get(key);
    id = String(record?.id).toLowerCase();
    s.owned[key] = id;
    log(`${s.what}: adopts member ${key} (id ${id}): the stack manages it from now on`);
  }
  const stated = s.before?.find((m) => programKey(m) === key);
  const base = stated ?? (record ? settingsOf(record) : undefined);
  if (id !== undefined && record && MEMBER_FIXED.some((f) => fixedChanged(wanted, base, record!, f, stated !== undefined))) {
    // The subnet or instance is fixed at a member's creation: a new one is a new member.
    await deleteMember(s, id, key);
    record = undefined;
  }
  if (id === undefined || !record) {
    s.owned[key] = await addMember(s, wanted);
    return;
  }
  const changed = MEMBER_IN_PLACE.filter((f) => differs(wanted, base, f) && !sameValue(setting(wanted, f), recordSetting(record, f)));
  if (changed.length === 0) return;
  await call(s, "PATCH", itemPath(s.inputs, id), Object.fromEntries(changed.map((f) => [toSnake(f), wanted[f]])));
  const said = changed.map((f) => `${f} ${String(record![toSnake(f)])} -> ${String(wanted[f])}`).join(", ");
  log(`${s.what}: member ${key} (id ${id}) ${said}, in place`);
}

/**
 * A fixed setting the program changes: against the record, or against the state where the
 * record does not show it (with no state, as at an adoption, nothing shows it changed).
 */
function fixedChanged(wanted: Inputs, base: Inputs | undefined, record: ApiRecord, field: string, stated: boolean): boolean {
  if (!differs(wanted, base, field)) return false;
  return MEMBER_NOT_IN_RECORD.has(field) ? stated : !sameValue(setting(wanted, field), recordSetting(record, field));
}

/**
 * Members a create of this run made the stack's (added, or adopted by id in `adoptMembers`): a
 * resource deleted after it in the same run (one it replaces, or its old name's) must leave
 * them, or the new resource's members would be gone.
 */
const claimedThisRun = runMemory(new Set<string>());

/**
 * Whether a create of this run claimed the member; the one delete it stands in for (the replaced
 * resource's) then leaves it, saying so, and the claim is spent.
 */
export function claimedByReplacement(what: string, id: string, key: string): boolean {
  if (!claimedThisRun.delete(id.toLowerCase())) return false;
  log(`${what}: member ${key} (id ${id}) left as it is: a create in this run manages it now (its replacement)`);
  return true;
}

/**
 * Brings the stack's members to the program's: removes those it no longer lists, then adds,
 * adopts or changes each listed one; exclusive ownership then removes every other member.
 * `s.owned` ends as the stack's members by id.
 */
export async function syncMembers(s: Sync): Promise<void> {
  const wanted = s.inputs.members === undefined ? undefined : recordsIn(s.inputs.members);
  refuseStrangers(s);
  const listed = new Set((wanted ?? []).map(programKey));
  for (const [key, id] of Object.entries(s.owned)) {
    if (listed.has(key)) continue;
    delete s.owned[key];
    // Members no longer managed (omitted from the program) stay as they are; so do adopted ones.
    if (wanted === undefined) continue;
    if (s.adopted.has(id.toLowerCase()))
      log(`${s.what}: member ${key} (id ${id}) left in the pool: it was adopted, not made, by the stack`);
    else await deleteMember(s, id, key);
  }
  if (wanted === undefined) return;
  const members = recordsIn(s.pool.members);
  const held = new Map(members.map((m) => [String(m.id).toLowerCase(), m]));
  const heldByKey = new Map(members.map((m) => [recordKey(m), m]));
  for (const m of wanted) await syncOne(s, m, held, heldByKey);
  if (s.op === "create") for (const id of Object.values(s.owned)) claimedThisRun.add(id.toLowerCase());
  if (ownershipOf(s.inputs) !== "exclusive") return;
  const ours = new Set(Object.values(s.owned));
  for (const m of members) {
    const id = String(m.id).toLowerCase();
    if (!ours.has(id) && !s.removed.has(id)) await deleteMember(s, id, recordKey(m));
  }
}

/**
 * Before any write: a member the program lists that the pool holds and the stack cannot show is
 * its own (one another stack added since the preview) stops the sync, naming it.
 */
function refuseStrangers(s: Sync): void {
  const found = strangers(s.inputs, s.pool, s.owned);
  if (found.length === 0) return;
  const keys = declaredKeys(s.inputs);
  throw new CimsError(
    found.map((m) => strangerReason(s.inputs.poolId, m, keys.indexOf(recordKey(m)))).join("; ") + "; nothing was written",
  );
}

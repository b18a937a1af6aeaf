// LbPoolSettings's members, one by one through the member endpoints (the ones LbPoolMember
// uses): POST adds one, PATCH changes one in place, DELETE removes one, each a task. Another
// stack's members share the pool, so nothing here is computed from the pool's whole list:
// the stack's own members are known by their ids (the state's `declaredMemberIds`, from the
// member create task's created_resources.members, or the member a create adopted because the
// program lists it), and only those are written. `membersOwnership: "exclusive"` also
// removes, by id, every member the program does not list.
import { LbPoolMember as memberContract } from "../../api/contract/lb-pool-member";
import { memberKey } from "../../api/members";
import { canonical } from "../../api/net";
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

/**
 * The stack's members by id, as a state records them. A state written before the ids were
 * recorded names its declared members by address:port only: those (and no other) are found
 * in `pool` by address:port. A state older still (no declared list) declared what it held;
 * so does the state an `import` option starts from (the program's inputs).
 */
export function ownedIds(state: Inputs, pool?: ApiRecord): OwnedIds {
  const recorded = state[DECLARED_IDS];
  if (isRecord(recorded))
    return Object.fromEntries(Object.entries(recorded).filter((e): e is [string, string] => typeof e[1] === "string"));
  const owned: OwnedIds = {};
  const keys = Array.isArray(state[DECLARED]) ? stringsIn(state[DECLARED]) : recordsIn(state.members).map(programKey);
  const held = new Map(recordsIn(pool?.members).map((m) => [recordKey(m), m]));
  for (const key of keys) {
    const found = held.get(key)?.id;
    if (owned[key] === undefined && typeof found === "string") owned[key] = found.toLowerCase();
  }
  return owned;
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

/** A member setting's value, canonical (a subnet id's spelling). */
const setting = (m: Inputs | undefined, field: string): unknown => canonical("uuid4", m?.[field]);
const recordSetting = (m: ApiRecord | undefined, field: string): unknown =>
  canonical("uuid4", m?.[field === "subnetId" ? "subnet_id" : field]);

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
    await call({ ...s, pool: {}, owned: {} }, "DELETE", itemPath(s.inputs, id));
    log(`${s.what}: member ${key} (id ${id}) removed`);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

async function addMember(s: Sync, wanted: Inputs): Promise<string> {
  const body = Object.fromEntries(
    Object.entries({
      address: wanted.address,
      protocol_port: wanted.protocolPort,
      weight: wanted.weight,
      subnet_id: wanted.subnetId,
    }).filter(([, v]) => v !== undefined),
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
    record = heldByKey.get(key);
    id = String(record?.id).toLowerCase();
    s.owned[key] = id;
    log(`${s.what}: member ${key} (id ${id}) is in the pool already and the program lists it: the stack manages it from now on`);
  }
  const base = s.before?.find((m) => programKey(m) === key) ?? (record ? { weight: record.weight, subnetId: record.subnet_id } : undefined);
  if (
    id !== undefined &&
    record &&
    differs(wanted, base, "subnetId") &&
    !sameValue(setting(wanted, "subnetId"), recordSetting(record, "subnetId"))
  ) {
    // The subnet is fixed at a member's creation: a new one is a new member.
    await deleteMember(s, id, key);
    record = undefined;
  }
  if (id === undefined || !record) {
    s.owned[key] = await addMember(s, wanted);
    return;
  }
  if (differs(wanted, base, "weight") && !sameValue(wanted.weight, record.weight)) {
    await call(s, "PATCH", itemPath(s.inputs, id), { weight: wanted.weight });
    log(`${s.what}: member ${key} (id ${id}) weight ${String(record.weight)} -> ${String(wanted.weight)}, in place`);
  }
}

/**
 * Members a create of this run made the stack's (added, or adopted as listed): a resource it
 * replaces, deleted after it (`up --replace` creates first, as does a renamed resource), must
 * leave them, or the replacement's members would be gone.
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
  const listed = new Set((wanted ?? []).map(programKey));
  for (const [key, id] of Object.entries(s.owned)) {
    if (listed.has(key)) continue;
    delete s.owned[key];
    // Members no longer managed (omitted from the program) stay as they are.
    if (wanted !== undefined) await deleteMember(s, id, key);
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

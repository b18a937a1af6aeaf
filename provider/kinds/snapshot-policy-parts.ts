// A SnapshotPolicy's schedules and volumes, each added and removed on its own through the
// policy's part calls (add_schedules, remove_schedules, add_volumes_to_policy,
// remove_volumes_from_policy), never as a whole list computed from a read another stack may
// race. The stack's own parts are known by evidence only: a schedule by the id its own create's
// or add_schedules' answer gave it (or, when it adopted the policy by its id, a schedule the
// policy held that the program declares), a volume by its own create or add_volumes call. A
// volume the program lists that the policy holds and the stack did not add is refused: another
// stack's SnapshotPolicyVolume, the console or a tool put it there, and may take it out.
import { SnapshotPolicy as contract } from "../../api/contract/snapshot-policy";
import { type ApiRecord, isRecord, recordsIn, stringsIn } from "../../api/guards";
import { fromWire, toWire } from "../../api/wire";
import { apiPath } from "../client/path";
import { apiClient } from "../methods/context";
import { sameValue } from "../methods/diff";
import type { Inputs } from "../methods/schema";

/** The state's ids of the stack's schedules, by the schedule as the program declares it (scheduleKey). */
export const SCHEDULE_IDS = "__scheduleIds";
/** The state's volumes the stack put in the policy. */
export const VOLUMES_ADDED = "__addedVolumeIds";
/**
 * Of the stack's schedules, those it took when it adopted the policy (the policy's own, which the
 * program declares) rather than added: destroy leaves these with the adopted policy, and removes
 * the rest, which the stack's own add_schedules made.
 */
export const ADOPTED_SCHEDULES = "__adoptedScheduleIds";

export type ScheduleIds = Record<string, string>;
/** A policy's inputs or state: its scope is where its calls go. */
export type PolicyRef = Inputs;

const SCHEDULE = contract.fields.schedules.type.items;

/** The path of the policy, or of one of its parts' calls. */
export const policyPath = (i: PolicyRef, id: string, part: keyof typeof contract.paths = "item"): string =>
  apiPath(contract.paths[part], { project_id: Number(i.projectId), region_id: Number(i.regionId), policy_id: id });

/** One call on the policy or a part of it, always answered with the policy's volumes. */
export function policyCall(method: string, i: PolicyRef, id: string, part?: keyof typeof contract.paths, body?: ApiRecord) {
  return apiClient().record(method, policyPath(i, id, part), { body, query: { need_volumes: true } });
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => [k, sorted(value[k])]),
  );
}

/** A declared schedule's identity: its fields, in a fixed order. A changed schedule is another schedule. */
export const scheduleKey = (s: unknown): string => JSON.stringify(sorted(s));

/** A record's schedule as a program would declare it (the service's id, owner and user left out). */
function declaredShape(held: ApiRecord): Inputs {
  const shown = fromWire(held, SCHEDULE);
  if (!isRecord(shown)) return {};
  return Object.fromEntries(Object.keys(SCHEDULE.fields).flatMap((k) => (shown[k] === undefined ? [] : [[k, shown[k]]])));
}

/** Whether a held schedule is the declared one: every field the program gives, the same (the service may fill others). */
function agrees(declared: Inputs, held: ApiRecord): boolean {
  const shape = declaredShape(held);
  return Object.entries(declared).every(([k, v]) => v === undefined || sameValue(sorted(v), sorted(shape[k])));
}

/** `held` schedules (not in `taken`) that are the `declared` ones, each matched once: key -> id. */
export function matchSchedules(
  declared: readonly Inputs[],
  held: readonly ApiRecord[],
  taken: ReadonlySet<string> = new Set(),
): ScheduleIds {
  const used = new Set(taken);
  const ids: ScheduleIds = {};
  for (const s of declared) {
    const found = held.find((h) => !used.has(String(h.id)) && agrees(s, h));
    if (!found) continue;
    used.add(String(found.id));
    ids[scheduleKey(s)] = String(found.id);
  }
  return ids;
}

export const ownedSchedules = (state: Inputs): ScheduleIds =>
  isRecord(state[SCHEDULE_IDS]) ? Object.fromEntries(Object.entries(state[SCHEDULE_IDS]).map(([k, v]) => [k, String(v)])) : {};
export const ownedVolumes = (state: Inputs): string[] => stringsIn(state[VOLUMES_ADDED]).map((v) => v.toLowerCase());
export const adoptedSchedules = (state: Inputs): string[] => stringsIn(state[ADOPTED_SCHEDULES]);

const heldVolumes = (record: ApiRecord) => new Set(recordsIn(record.volumes).map((v) => String(v.volume_id).toLowerCase()));
const declaredVolumes = (i: Inputs) => stringsIn(i.volumeIds).map((v) => v.toLowerCase());

/**
 * What the state records of the stack's parts, from the policy as read: its schedules still
 * held, shown as the program declared them (in its order), and its volumes still in the policy;
 * the bookkeeping keeps only ids the policy holds, so a part removed outside Pulumi is added again.
 */
export function ownView(record: ApiRecord, schedules: ScheduleIds, volumes: readonly string[], adopted: readonly string[] = []): Inputs {
  const held = new Map(recordsIn(record.schedules).map((s) => [String(s.id), s]));
  const kept = Object.entries(schedules).filter(([, id]) => held.has(id));
  const shown = kept.map(([key, id]) => {
    const declared: unknown = JSON.parse(key);
    const shape = declaredShape(held.get(id)!);
    return Object.fromEntries((isRecord(declared) ? Object.keys(declared) : []).map((k) => [k, shape[k]]));
  });
  const inPolicy = heldVolumes(record);
  const mine = volumes.filter((v) => inPolicy.has(v));
  const taken = adopted.filter((id) => kept.some(([, own]) => own === id));
  return {
    schedules: shown,
    volumeIds: mine,
    [SCHEDULE_IDS]: Object.fromEntries(kept),
    [VOLUMES_ADDED]: mine,
    ...(taken.length > 0 ? { [ADOPTED_SCHEDULES]: taken } : {}),
  };
}

/** The listed volumes the policy holds that the stack cannot show it added, with the reason for each. */
export function volumesNotOurs(policyId: string, inputs: Inputs, record: ApiRecord, owned: readonly string[]): string[] {
  const held = heldVolumes(record);
  return declaredVolumes(inputs)
    .filter((v) => held.has(v) && !owned.includes(v))
    .map(
      (v) =>
        `volumeIds: volume ${v} is already in policy ${policyId}, and this stack did not put it there (another stack's SnapshotPolicyVolume, ` +
        `the console or another tool did): remove it from volumeIds (it stays in the policy), or manage it where it was added`,
    );
}

/** What the preview says an update does to the parts: each schedule and volume removed, each added (a changed schedule is both). */
export function partsNote(what: string, olds: Inputs, news: Inputs): string | undefined {
  const owned = ownedSchedules(olds);
  const wanted = new Set(recordsIn(news.schedules).map(scheduleKey));
  const mine = ownedVolumes(olds);
  const listed = declaredVolumes(news);
  const parts = [
    ...Object.entries(owned)
      .filter(([key]) => !wanted.has(key))
      .map(([key, id]) => `removes schedule ${id} ${key}`),
    ...[...wanted].filter((key) => owned[key] === undefined).map((key) => `adds schedule ${key}`),
    ...mine.filter((v) => !listed.includes(v)).map((v) => `removes volume ${v} from the policy`),
    ...listed.filter((v) => !mine.includes(v)).map((v) => `adds volume ${v}`),
  ];
  if (parts.length === 0) return undefined;
  return `${what}: up ${parts.join("; ")} (a changed schedule is removed and added again: the service cannot change one in place)`;
}

/**
 * Removes the stack's schedules the program no longer declares, then adds those it declares that
 * the state does not hold: the change between the state and the program, never one because the
 * policy drifted (a schedule of the stack's removed outside Pulumi is dropped from the state by a
 * refresh, and the next preview shows it added back).
 */
async function syncSchedules(
  i: PolicyRef,
  id: string,
  record: ApiRecord,
  owned: ScheduleIds,
): Promise<{ record: ApiRecord; owned: ScheduleIds }> {
  const wanted = recordsIn(i.schedules);
  const keys = new Set(wanted.map(scheduleKey));
  const held = new Set(recordsIn(record.schedules).map((s) => String(s.id)));
  const kept: ScheduleIds = Object.fromEntries(Object.entries(owned).filter(([key]) => keys.has(key)));
  const gone = Object.entries(owned).filter(([key, sid]) => !keys.has(key) && held.has(sid));
  if (gone.length > 0) record = await policyCall("POST", i, id, "removeSchedules", { schedule_ids: gone.map(([, sid]) => sid) });
  const adding = wanted.filter((s) => kept[scheduleKey(s)] === undefined);
  if (adding.length === 0) return { record, owned: kept };
  const before = new Set(recordsIn(record.schedules).map((s) => String(s.id)));
  record = await policyCall("POST", i, id, "addSchedules", { schedules: adding.map((s) => toWire(s, SCHEDULE, "spec")) });
  const fresh = recordsIn(record.schedules).filter((s) => !before.has(String(s.id)));
  return { record, owned: { ...kept, ...matchSchedules(adding, fresh) } };
}

/** Removes the stack's volumes the program no longer lists, then adds those it lists that the state does not hold. */
async function syncVolumes(i: PolicyRef, id: string, record: ApiRecord, owned: readonly string[]): Promise<ApiRecord> {
  const refused = volumesNotOurs(id, i, record, owned);
  if (refused.length > 0) throw new Error(refused.join("; "));
  const wanted = declaredVolumes(i);
  const held = heldVolumes(record);
  const gone = owned.filter((v) => !wanted.includes(v) && held.has(v));
  if (gone.length > 0) record = await policyCall("PUT", i, id, "removeVolumes", { volume_ids: gone });
  const adding = wanted.filter((v) => !owned.includes(v));
  if (adding.length > 0) record = await policyCall("PUT", i, id, "addVolumes", { volume_ids: adding });
  return record;
}

/**
 * Brings the policy's parts that changed (`changed`: "schedules", "volumeIds") from the state's
 * (`olds`) to the program's; the state's parts after it.
 */
export async function syncParts(
  i: PolicyRef,
  id: string,
  record: ApiRecord,
  olds: Inputs,
  changed: readonly string[],
): Promise<{ record: ApiRecord; parts: Inputs }> {
  const schedules = changed.includes("schedules")
    ? await syncSchedules(i, id, record, ownedSchedules(olds))
    : { record, owned: ownedSchedules(olds) };
  const after = changed.includes("volumeIds") ? await syncVolumes(i, id, schedules.record, ownedVolumes(olds)) : schedules.record;
  const volumes = changed.includes("volumeIds") ? declaredVolumes(i) : ownedVolumes(olds);
  return { record: after, parts: ownView(after, schedules.owned, volumes, adoptedSchedules(olds)) };
}

/**
 * Destroy of an adopted policy, which is left: each side keeps what it declared, so the schedules
 * and volumes this stack added (by the answers of its own add calls) are removed, and the
 * policy's own, taken at adoption, stay with it. What it removed, in words.
 */
export async function removeAddedParts(i: PolicyRef, id: string, state: Inputs): Promise<string[]> {
  const taken = new Set(adoptedSchedules(state));
  const schedules = Object.values(ownedSchedules(state)).filter((sid) => !taken.has(sid));
  const volumes = ownedVolumes(state);
  if (schedules.length === 0 && volumes.length === 0) return [];
  let record = await policyCall("GET", i, id);
  const held = new Set(recordsIn(record.schedules).map((s) => String(s.id)));
  const gone = schedules.filter((sid) => held.has(sid));
  if (gone.length > 0) record = await policyCall("POST", i, id, "removeSchedules", { schedule_ids: gone });
  const inPolicy = heldVolumes(record);
  const out = volumes.filter((v) => inPolicy.has(v));
  if (out.length > 0) await policyCall("PUT", i, id, "removeVolumes", { volume_ids: out });
  return [...gone.map((sid) => `schedule ${sid}`), ...out.map((v) => `volume ${v}`)];
}

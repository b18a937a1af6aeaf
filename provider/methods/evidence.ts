// What is ours, by evidence only. Other teams share these networks and volumes: a subnet
// with our name and CIDR, or an image with our name and volume, may be theirs, made a second
// after ours. A create knows a record is the one it made only when its own request names it:
// a task of its own lists it (`created_resources`) or made it (the record's `creator_task_id`),
// or the record carries the create's mark (mark.ts), a random value only that POST carried.
// Never by a natural key, and never by "it appeared after our POST". An id this provider
// process already recorded is never taken again by another create.
import { processClock as clock } from "../client/clock";
import type * as pulumi from "@pulumi/pulumi";
import { PATHS } from "../../api/paths";
import { CREATOR_TAG, splitTags } from "../../api/tags";
import { CimsError, type SeenTask } from "../client/errors";
import { listAll } from "../client/list";
import { apiClient, cancelSignal, log, progress } from "./context";
import { CREATE_MARK_TAG, issuedHere, markOf } from "./mark";
import type { Inputs } from "./schema";
import type { ApiRecord } from "../../api/guards";
import { messageOf } from "../../api/messages";
import { perClientMemory } from "./run-memory";
import { flatStrings } from "../../api/json";

/** The list call where a create's record appears (a network's subnets, a scope's images). */
export interface Survey {
  path: string;
  query?: Record<string, string>;
  /**
   * The fields besides `id` and `name` that a reader of the list taken for creates (listNow)
   * reads: what a record of the place holds (a subnet's cidr) and what a twin is compared on
   * (the fields only a replacement changes). Only these are kept of a record that carries no
   * create mark; every field when undefined.
   */
  reads?: readonly string[];
}

/**
 * How long a list taken for one create is good for another that starts after it: a wave of
 * creates at --parallel 8 (2 s tasks) each took a list of its own at 2 s, 7 of the 50 subnets'
 * requests, and with a list good for 5 s, 50 subnets at --parallel 8 under 10 a second (about
 * 20 s) still took four. What it answers is checked again where it counts: what it shows in
 * the way is looked for in a list taken then before a create is refused or adopts it
 * (foundNow: a record may have gone since), the service refuses a CIDR taken since, and a
 * record a lost create left is one made before the run (a create of this process under way is
 * no such record, issuedHere). A minute, so that a run's creates of a network share a list or
 * a few, where a list of 2,000 subnets is two pages.
 */
const REUSE_MS = 60_000;
/** Per client (a new configuration makes a new one): the lists taken, by path and query. */
const recentByClient = perClientMemory<Map<string, { at: number; records: Promise<ApiRecord[]> }>>();

/**
 * The survey's records as they are now: a list in flight, or taken within REUSE_MS (check()
 * and create() of one resource, or a burst of creates, share one), else a new list. `since`:
 * a list asked for before then is not reused (foundNow).
 */
export async function listNow(survey: Survey, since = -Infinity): Promise<ApiRecord[]> {
  return taken(survey, since).records;
}

/** listNow's list with the time it was asked for: the one place that says whether a list is reused. */
function taken(survey: Survey, since: number): { at: number; records: Promise<ApiRecord[]> } {
  const client = apiClient();
  const recent = recentByClient.get(client) ?? new Map<string, { at: number; records: Promise<ApiRecord[]> }>();
  recentByClient.set(client, recent);
  const key = listKey(survey);
  const hit = recent.get(key);
  if (hit && hit.at >= since && clock.now() - hit.at < REUSE_MS) return hit;
  const records = listAll(client, survey.path, survey.query, undefined, { keep: keptOf(survey) });
  const fresh = { at: clock.now(), records };
  recent.set(key, fresh);
  records.catch(() => {
    if (recent.get(key) === fresh) recent.delete(key);
  });
  return fresh;
}

/**
 * What `find` finds in the survey's records (listNow): where it finds something in a list asked
 * for before this call, what it finds in a list asked for now. A list is reused for REUSE_MS,
 * and a record in its way (a CIDR held, a create's mark left) may have gone since: a create is
 * refused, or adopts a record, only on what the service holds now. What a reused list does not
 * show is checked again where it counts (REUSE_MS).
 */
export async function foundNow<T>(survey: Survey, find: (records: ApiRecord[]) => T, found: (t: T) => boolean): Promise<T> {
  const asked = clock.now();
  const list = taken(survey, -Infinity);
  const first = find(await list.records);
  return list.at < asked && found(first) ? find(await listNow(survey, asked)) : first;
}

/**
 * What the list keeps of each record while it is reused: at 2,000 subnets a network's list
 * is a megabyte of JSON, and a new one every REUSE_MS outlives the young generation's
 * collections, so what it holds waits in the old generation for a full collection. A
 * record is read whole only when it carries a create mark (markedNamesakes, and the
 * adoption of a record a lost create left): it is kept whole, the rest as `reads` says.
 */
function keptOf(survey: Survey): ((record: ApiRecord) => ApiRecord) | undefined {
  if (survey.reads === undefined) return undefined;
  const fields = ["id", "name", ...survey.reads];
  return (record) => {
    if (markOf(record) !== undefined) return flatStrings(record);
    const kept: ApiRecord = {};
    for (const field of fields) if (Object.hasOwn(record, field)) kept[field] = flatStrings(record[field]);
    return kept;
  };
}

const listKey = (survey: Survey) => `${survey.path}?${new URLSearchParams(survey.query ?? {}).toString()}`;

/**
 * A delete just changed what the survey lists: the next list is taken anew (a replacement that
 * deleted the old record first must not find it in a list taken before the delete).
 */
export function forgetList(survey: Survey): void {
  recentByClient.get(apiClient())?.delete(listKey(survey));
}

/** Per client (one per run's configuration): the ids created, recovered or adopted, which a recovery never takes. */
const recordedByClient = perClientMemory<Set<string>>();

function recorded(): Set<string> {
  const client = apiClient();
  const ids = recordedByClient.get(client) ?? new Set<string>();
  recordedByClient.set(client, ids);
  return ids;
}

/** Notes an id as this run's: no later recovery may take it. */
export function claim(id: string): void {
  recorded().add(id.toLowerCase());
}

/** Whether an id is this run's already (created, recovered or adopted): no recovery takes it. */
export const isClaimed = (id: string): boolean => recorded().has(id.toLowerCase());

const claimed = (record: ApiRecord) => isClaimed(String(record.id));

/** The task that created a record: `creator_task_id`, or the service's read-only tag of it (`tags` or `tags_v2`). */
export function creatorOf(record: ApiRecord): string | undefined {
  if (typeof record.creator_task_id === "string") return record.creator_task_id.toLowerCase();
  for (const tags of [record.tags, record.tags_v2]) {
    const creator = splitTags(tags).readOnly[CREATOR_TAG];
    if (creator) return String(creator).toLowerCase();
  }
  return undefined;
}

const none = (): ApiRecord[] => [];

/**
 * The survey's records that still carry a create mark (mark.ts) and this name: what an earlier
 * create, cancelled or whose answer was lost, may have made without any stack recording it
 * (a mark a create of this process sent is one under way, not left). The mark is evidence for
 * the create that sent it; a later create takes such a record only when the mark names its
 * resource (owned.ts). The list is the one check() takes anyway (listNow shares it).
 */
export async function markedNamesakes(survey: Survey, name: unknown): Promise<ApiRecord[]> {
  if (typeof name !== "string") return [];
  const namesakes = (records: ApiRecord[]) =>
    records.filter((rec) => {
      const mark = markOf(rec);
      return rec.name === name && mark !== undefined && !issuedHere(mark) && !claimed(rec);
    });
  return foundNow(survey, namesakes, (marked) => marked.length > 0).catch(none);
}

/** How often a create whose answer was lost looks again for the record it may have made. */
const RECOVER_EVERY_MS = 2_000;
/**
 * How long it looks at the least after the answer was lost, running tasks or not: a POST
 * that timed out may still be on its way through the service, to be acted on a little later.
 */
export const RECOVER_GRACE_MS = 15_000;
/** Clock difference allowed between this machine and the service when comparing task start times. */
const CLOCK_SKEW_MS = 300_000;

export interface Recovery {
  what: string;
  inputs: Inputs;
  survey: Survey;
  /** The create's mark (mark.ts), carried in its POST's tags. */
  mark: string;
  /** The task type that creates such a record (`create_subnet`), and where. */
  taskType: string;
  scope: { projectId: number; regionId: number };
  /** When the POST was sent, and the create's deadline (its timeout, from then). */
  postedAt: number;
  deadline: number;
  recordPath: (id: string) => string;
  outputs: (record: ApiRecord, taskIds: string[]) => Promise<Inputs>;
  /** Builds the error that records a resource whose create did not complete. */
  partial: (id: string, err: CimsError) => Error;
}

/** Whether a record is this create's by evidence: one of its tasks made it, or it carries its mark. */
function isMine(r: Recovery, record: ApiRecord, taskIds: readonly string[]): boolean {
  if (claimed(record)) return false;
  const creator = creatorOf(record);
  return (creator !== undefined && taskIds.includes(creator)) || markOf(record) === r.mark;
}

/**
 * After a create whose outcome is unknown: the record it made, by evidence.
 * - Its task ids are known (the deadline passed, or a task could not be read): the record
 *   one of them made, or that carries its mark; recorded as partly created (its task may
 *   still run).
 * - No task id came back: the record that carries its mark, looked for until it appears or
 *   the create's deadline passes; after RECOVER_GRACE_MS, only while a create task of the
 *   scope that started since the POST still runs (it may be ours), and never after the run
 *   is cancelled. Found, it is recorded once its task ends.
 * Not found: `hint` says how to find it should it appear later.
 */
export async function recover(r: Recovery, err: CimsError): Promise<{ found?: pulumi.dynamic.CreateResult; hint: string }> {
  const hint = `It would carry the tag ${CREATE_MARK_TAG}: ${r.mark}`;
  const taskIds = (err.taskIds ?? []).map((t) => t.toLowerCase());
  if (taskIds.length > 0) {
    const records = await listAll(apiClient(), r.survey.path, r.survey.query).catch(none);
    const mine = records.find((rec) => isMine(r, rec, taskIds));
    if (mine) {
      claim(String(mine.id));
      throw r.partial(String(mine.id), err);
    }
    return { hint };
  }
  const graceEnds = Math.min(clock.now() + RECOVER_GRACE_MS, r.deadline);
  let running: string[] = [];
  for (;;) {
    // Asked before the list: a task that ends between the two calls has put its record there.
    const tasks = await createsRunning(r);
    const mayAppear = tasks === undefined || tasks.length > 0;
    running = tasks ?? running;
    // A list that fails is tried again on the next round (the service may be what lost the answer).
    const records = await listAll(apiClient(), r.survey.path, r.survey.query).catch((e: unknown) => {
      log(`${r.what}: looking for what its create may have made: ${messageOf(e)}`);
      return undefined;
    });
    const mine = (records ?? []).filter((rec) => isMine(r, rec, []));
    if (mine.length > 0) {
      mine.forEach((rec) => claim(String(rec.id)));
      const others = mine.slice(1).map((rec) => String(rec.id));
      if (others.length > 0)
        log(`${r.what}: its create made more than one ${r.taskType} record (${others.join(", ")} too); they carry its mark`);
      return { found: await waitForCreator(r, mine[0]), hint };
    }
    if (records !== undefined && !mayAppear && clock.now() >= graceEnds) return { hint };
    if (clock.now() + RECOVER_EVERY_MS > r.deadline || cancelSignal().aborted) return { hint: stoppedHint(r, hint, running) };
    await clock.sleep(RECOVER_EVERY_MS, cancelSignal()).catch(() => undefined);
    if (cancelSignal().aborted) return { hint: stoppedHint(r, hint, running) };
  }
}

/**
 * The search stopped (the run was cancelled, or the deadline came) while create tasks of the
 * scope that may be this create's still ran: their ids, so what they make can be found.
 */
function stoppedHint(r: Recovery, hint: string, running: readonly string[]): string {
  const why = cancelSignal().aborted ? "the run was cancelled" : "its deadline passed";
  if (running.length === 0) return `${hint}. The search for it stopped: ${why}`;
  return (
    `${hint}. The search for it stopped (${why}) while ${r.taskType} task(s) ${running.join(", ")}, started since its POST, ` +
    `still ran: one may be this create's (GET ${PATHS.tasks}/<id>: created_resources names what it made)`
  );
}

/**
 * The create tasks of the scope that started since the POST (give or take the clocks'
 * difference) and still run, and so may yet make the record. Unknown (the task list
 * failed: `undefined`) counts as running: the deadline still bounds the search.
 */
async function createsRunning(r: Recovery): Promise<string[] | undefined> {
  const since = r.postedAt - CLOCK_SKEW_MS;
  const query = (state: string) => ({
    project_id: String(r.scope.projectId),
    region_id: String(r.scope.regionId),
    task_type: r.taskType,
    state,
  });
  try {
    const lists = await Promise.all(["NEW", "RUNNING"].map((state) => listAll(apiClient(), PATHS.tasks, query(state))));
    const recent = lists.flat().filter((t) => {
      const started =
        typeof t.created_on === "string" ? Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(t.created_on) ? t.created_on : `${t.created_on}Z`) : NaN;
      return Number.isNaN(started) || started >= since;
    });
    // A task that went from NEW to RUNNING between the two lists is in both.
    return [...new Set(recent.map((t) => String(t.id)))];
  } catch {
    return undefined;
  }
}

/**
 * A record found after a lost answer: while the task that creates it runs, it is not done,
 * so wait for it; if that task fails or outlasts the deadline, the record is recorded as
 * partly created (the next `up` waits for it).
 */
async function waitForCreator(r: Recovery, record: ApiRecord): Promise<pulumi.dynamic.CreateResult> {
  const id = String(record.id);
  log(`${r.what}: the answer to its create was lost; ${id} carries the create's mark: recorded`);
  const creator = creatorOf(record);
  if (!creator) return { id, outs: await r.outputs(record, []) };
  try {
    await apiClient().waitForTasks([creator], {
      deadline: r.deadline,
      timeoutSeconds: Math.round((r.deadline - r.postedAt) / 1000),
      onProgress: progress(r.what),
      scope: r.scope,
    });
  } catch (err) {
    if (!(err instanceof CimsError)) throw err;
    err.taskIds ??= [creator];
    throw r.partial(id, err);
  }
  return { id, outs: await r.outputs(await apiClient().record("GET", r.recordPath(id)), [creator]) };
}

/** Tasks that had not ended when the wait stopped (NEW, RUNNING, or never read). */
export const unfinishedIn = (tasks: ReadonlyArray<SeenTask> | undefined): string[] =>
  (tasks ?? []).filter((t) => t.state !== "FINISHED" && t.state !== "ERROR").map((t) => t.id);

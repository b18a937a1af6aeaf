// What is ours, by evidence only (design.md rule 9). Other teams share these networks and
// volumes: a subnet with our CIDR, or an image with our name, may be theirs. A create knows a
// record is the one it made when a task of its own names it (`created_resources`, or the
// record's `creator_task_id`), or, when no task id ever came back (the POST's answer was
// lost), when the record did not exist in the list taken just before the POST and holds what
// the POST asked for. Never by a natural key alone.
import type * as pulumi from "@pulumi/pulumi";
import { CREATOR_TAG, splitTags } from "../../api/tags";
import { CimsError, type SeenTask } from "../client/errors";
import { listAll } from "../client/list";
import { apiClient, deadlineFor, log, progress } from "./context";
import type { Inputs } from "./schema";
import { messageOf } from "./values";

type ApiRecord = Record<string, unknown>;

/** How a create finds, after an unknown outcome, the record it made. */
export interface Survey {
  /** The list call of the records the create may have added (a network's subnets, a scope's images). */
  path: string;
  query?: Record<string, string>;
  /** The record holds what the POST asked for (cidr and name; name and volume). */
  same: (record: ApiRecord) => boolean;
}

/** The records of a survey's list, taken before the POST: what existed already. */
export interface Before {
  records: ApiRecord[];
  ids: Set<string>;
}

/** How long a list taken for one create is good as "before" for another that starts soon after. */
const REUSE_MS = 2_000;
/** Per client (a new configuration makes a new one): the lists taken, by path and query. */
const recentByClient = new WeakMap<object, Map<string, { at: number; records: Promise<ApiRecord[]> }>>();

/**
 * The survey's records as they are now: a list in flight, or taken within REUSE_MS (check()
 * and create() of one resource, or a burst of creates, share one), else a new list. Any list
 * taken before a POST is evidence of what existed before it.
 */
export async function listNow(survey: Pick<Survey, "path" | "query">): Promise<ApiRecord[]> {
  const client = apiClient();
  const recent = recentByClient.get(client) ?? new Map<string, { at: number; records: Promise<ApiRecord[]> }>();
  recentByClient.set(client, recent);
  const key = `${survey.path}?${new URLSearchParams(survey.query ?? {}).toString()}`;
  const hit = recent.get(key);
  if (hit && Date.now() - hit.at < REUSE_MS) return hit.records;
  const records = listAll(client, survey.path, survey.query);
  recent.set(key, { at: Date.now(), records });
  records.catch(() => recent.delete(key));
  return records;
}

export async function before(survey: Survey): Promise<Before> {
  const records = await listNow(survey);
  return { records, ids: new Set(records.map((r) => String(r.id).toLowerCase())) };
}

/** The task that created a record: `creator_task_id`, or the service's read-only tag of it. */
export function creatorOf(record: ApiRecord): string | undefined {
  const creator = typeof record.creator_task_id === "string" ? record.creator_task_id : splitTags(record.tags).readOnly[CREATOR_TAG];
  return creator ? String(creator).toLowerCase() : undefined;
}

const none = (): ApiRecord[] => [];

/** How long a create whose answer was lost keeps looking for the record it may have made. */
export const RECOVER_MS = 30_000;
const RECOVER_EVERY_MS = 2_000;

export interface Recovery {
  what: string;
  inputs: Inputs;
  survey: Survey;
  recordPath: (id: string) => string;
  outputs: (record: ApiRecord, taskIds: string[]) => Inputs;
  /** Builds the error that records a resource whose create did not complete. */
  partial: (id: string, err: CimsError) => Error;
}

/**
 * After a create whose outcome is unknown: the record it made, by evidence.
 * - Its task ids are known (the deadline passed, or a task could not be read): the record
 *   whose creator is one of them; recorded as partly created (its task may still run).
 * - No task id came back: a record absent from `before` that holds what the POST asked for,
 *   looked for until it appears or RECOVER_MS pass (its task may still run). Exactly one:
 *   it is recorded once its task ends. Several (images from one volume and name, made by
 *   others meanwhile): none is taken; they are named in `hint`.
 */
export async function recover(
  r: Recovery,
  err: CimsError,
  prior: Before | undefined,
): Promise<{ found?: pulumi.dynamic.CreateResult; hint?: string }> {
  const taskIds = (err.taskIds ?? []).map((t) => t.toLowerCase());
  if (taskIds.length > 0) {
    const records = await listAll(apiClient(), r.survey.path, r.survey.query).catch(none);
    const mine = records.find((rec) => taskIds.includes(creatorOf(rec) ?? ""));
    if (mine) throw r.partial(String(mine.id), err);
    return {};
  }
  if (!prior) return {};
  const until = Date.now() + Math.min(RECOVER_MS, deadlineFor("create", r.inputs).timeoutSeconds * 1000);
  for (;;) {
    // A list that fails is tried again on the next round (the service may be what lost the answer).
    const records = await listAll(apiClient(), r.survey.path, r.survey.query).catch((e: unknown) => {
      log(`${r.what}: looking for what its create may have made: ${messageOf(e)}`);
      return none();
    });
    const added = records.filter((rec) => !prior.ids.has(String(rec.id).toLowerCase()) && r.survey.same(rec));
    if (added.length > 1) return { hint: `Made since its create was sent: ${added.map((a) => `importId: "${String(a.id)}"`).join(", ")}` };
    if (added.length === 1) return { found: await waitForCreator(r, added[0]) };
    if (Date.now() + RECOVER_EVERY_MS > until) return {};
    await new Promise((resolve) => setTimeout(resolve, RECOVER_EVERY_MS));
  }
}

/**
 * A record found after a lost answer: while the task that creates it runs, it is not done,
 * so wait for it; if that task fails or outlasts the deadline, the record is recorded as
 * partly created (the next `up` waits for it).
 */
async function waitForCreator(r: Recovery, record: ApiRecord): Promise<pulumi.dynamic.CreateResult> {
  const id = String(record.id);
  log(`${r.what}: the answer to its create was lost; ${id} did not exist before it and holds what it asked for: recorded`);
  const creator = creatorOf(record);
  if (!creator) return { id, outs: r.outputs(record, []) };
  const { deadline, timeoutSeconds } = deadlineFor("create", r.inputs);
  try {
    await apiClient().waitForTasks([creator], { deadline, timeoutSeconds, onProgress: progress(r.what) });
  } catch (err) {
    if (!(err instanceof CimsError)) throw err;
    err.taskIds ??= [creator];
    throw r.partial(id, err);
  }
  return { id, outs: r.outputs(await apiClient().request("GET", r.recordPath(id)), [creator]) };
}

/** Tasks that had not ended when the wait stopped (NEW, RUNNING, or never read). */
export const unfinishedIn = (tasks: ReadonlyArray<SeenTask> | undefined): string[] =>
  (tasks ?? []).filter((t) => t.state !== "FINISHED" && t.state !== "ERROR").map((t) => t.id);

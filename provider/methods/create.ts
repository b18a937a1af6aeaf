// Creating through a task, and every way it can end: the record read back; recorded though
// its create did not complete (a task names it); a plain failure (every task ended, none
// made it); or an unknown outcome, when what the create made is looked for by evidence
// (evidence.ts) and, not found, the error says how to find it. The create carries a mark
// (mark.ts) that is removed once it has landed.
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, CimsError, ConnectionError, InvalidResponseError, type SeenTask, TaskFailedError } from "../client/errors";
import { processClock as clock } from "../client/clock";
import { CONNECT_FAILED } from "../client/transport";
import { callAndWait, PENDING_TASKS, type TaskOutcome, withContext } from "./calls";
import { apiClient, deadlineFor, log, resourceUrn } from "./context";
import { inContext, PartialCreateError } from "./resource-errors";
import { CREATE_MARK_TAG, markOf, newMark } from "./mark";
import { claim, recover, type Survey, unfinishedIn } from "./evidence";
import type { Inputs } from "./schema";
import { type ApiRecord, isRecord } from "../../api/guards";
import { messageOf } from "../../api/messages";

export interface CreateCall {
  path: string;
  body: ApiRecord;
  /** The kind the task lists in `created_resources` (`subnets`), and the task's type (`create_subnet`). */
  kind: string;
  taskType: string;
  scope: { projectId: number; regionId: number };
  recordPath: (id: string) => string;
  /** How to find the resource the stack could not record, in words and as the API call that lists it. */
  find: string;
  /** Where a record it made is listed (evidence.ts). */
  survey: Survey;
  /** `task`: no mark is sent (the records have no tags) and a lost answer is never recovered. */
  evidence?: "mark" | "task";
  /** What the next `pulumi up` does while a record this create may have made is not in the stack. */
  meanwhile?: string;
}

/** The id a task lists in `created_resources.<kind>` (listed while it runs, or once it ended). */
export function createdIdIn(tasks: ReadonlyArray<SeenTask> | undefined, kind: string): string | undefined {
  for (const task of tasks ?? []) {
    const ids = task.created_resources?.[kind];
    if (Array.isArray(ids) && ids.length > 0) return String(ids[0]);
  }
  return undefined;
}

/**
 * Create through a task, then read the new record back. Whatever fails after the service may
 * have made the resource, the resource is not lost, and nothing that is not this create's is
 * taken:
 * - a task names its id (a FINISHED sibling of a task that failed, a task still running at
 *   the deadline, one that ended in ERROR after creating it): the error carries the id and
 *   properties so Pulumi records it and the next `up` continues from it;
 * - every task ended and none made it (a task in ERROR): a plain failure with the service's
 *   message, nothing recorded, nothing looked for;
 * - the outcome is unknown (no task id came back from a POST the service may have acted on,
 *   or a task could not be read to its end): the record is looked for by evidence, and when
 *   none is found the error says how to find it.
 * `prior`: the survey's list taken before the POST.
 */
export async function createViaTask(
  what: string,
  inputs: Inputs,
  call: CreateCall,
  toOutputs: (record: ApiRecord, taskIds: string[]) => Inputs,
): Promise<pulumi.dynamic.CreateResult> {
  return withContext(what, async () => {
    const marked = call.evidence !== "task";
    const mark = newMark(resourceUrn());
    const body = marked
      ? { ...call.body, tags: { ...(isRecord(call.body.tags) ? call.body.tags : {}), [CREATE_MARK_TAG]: mark } }
      : call.body;
    const landed = async (record: ApiRecord, taskIds: string[]) => toOutputs(await unmarked(what, call, record, mark), taskIds);
    // The record our task made: its mark's removal answers it, which saves the read back (a
    // request a resource, under a rate limit too); a removal that fails leaves it to a read.
    const readBack = async (id: string): Promise<ApiRecord> =>
      (marked ? await removeMark(call, id).catch((err: unknown) => noteMarkLeft(what, err)) : undefined) ??
      (await apiClient().record("GET", call.recordPath(id)));
    const postedAt = clock.now();
    const { deadline } = deadlineFor("create", inputs);
    let outcome: TaskOutcome;
    try {
      outcome = await callAndWait("POST", call.path, what, "create", inputs, { body, taskType: call.taskType });
    } catch (err) {
      if (!(err instanceof CimsError)) throw err;
      const known = createdIdIn(err.tasks, call.kind);
      if (known !== undefined) {
        claim(known);
        throw partialCreate(what, known, err, inputs);
      }
      if (!outcomeUnknown(err)) throw err;
      if (!marked) throw mayExist(err, what, call);
      const partial = (id: string, e: CimsError) => partialCreate(what, id, e, inputs);
      const recovered = await recover(
        {
          what,
          inputs,
          survey: call.survey,
          mark,
          taskType: call.taskType,
          scope: call.scope,
          postedAt,
          deadline,
          recordPath: call.recordPath,
          outputs: landed,
          partial,
        },
        err,
      );
      if (recovered.found) return recovered.found;
      throw mayExist(err, what, call, recovered.hint);
    }
    const id = createdIdIn(outcome.tasks, call.kind);
    if (id === undefined) {
      throw new CimsError(
        `${what}: the task(s) ${outcome.taskIds.join(", ") || "(none)"} finished but reported no created ${call.kind}, so the stack ` +
          `cannot record it. ${call.find}${marked ? `; it carries the tag ${CREATE_MARK_TAG}: ${mark}` : ""}. Adopt it by setting \`importId: "<its id>"\` on this resource (or delete it) before the next \`pulumi up\`.`,
      );
    }
    claim(id);
    try {
      return { id, outs: toOutputs(await readBack(id), outcome.taskIds) };
    } catch (err) {
      throw new PartialCreateError(`${what} was created (id ${id}) but reading it back failed: ${messageOf(err)}`, id, {
        ...inputs,
        taskIds: outcome.taskIds,
      });
    }
  });
}

/**
 * The record with the create's mark removed (the PATCH answers the record), so no output or
 * later read shows it. Should that PATCH fail, the record stands as it is: the mark is
 * hidden from outputs and diffs, and the next update removes it.
 * Removed at once rather than left on the record or to a later write: a record that still
 * carries a mark is what a lost create left (owned.ts), so a mark left on a landed record would
 * refuse the next create of its name where the mark names no resource (another stack's subnet
 * of that name, this resource's own replacement created first) and, where it names the
 * resource, have its replacement adopt the record it replaces. No write of the engine's follows
 * a create to carry the removal, and the PATCH answers the record, so it costs the read back.
 */
async function unmarked(what: string, call: CreateCall, record: ApiRecord, mark: string): Promise<ApiRecord> {
  if (markOf(record) !== mark) return record;
  return (await removeMark(call, String(record.id)).catch((err: unknown) => noteMarkLeft(what, err))) ?? record;
}

/** The record, as the PATCH that removes the create's mark answers it. */
function removeMark(call: CreateCall, id: string): Promise<ApiRecord> {
  return apiClient().record("PATCH", call.recordPath(id), { body: { tags: { [CREATE_MARK_TAG]: null } } });
}

function noteMarkLeft(what: string, err: unknown): undefined {
  log(`${what}: could not remove the create's mark tag ${CREATE_MARK_TAG} yet (the next update does): ${messageOf(err)}`);
  return undefined;
}

/**
 * The error for a resource that exists but whose create did not complete: it carries the id
 * and properties so Pulumi records it, and the tasks still running so the next `up` waits.
 */
export function partialCreate(what: string, id: string, err: CimsError, inputs: Inputs): PartialCreateError {
  const pending = unfinishedIn(err.tasks);
  return new PartialCreateError(
    `${what} was created (id ${id}, task(s) ${(err.taskIds ?? []).join(", ")}) but the create did not complete: ${err.message}. ` +
      `It is recorded in the stack; the next \`pulumi up\` continues from it${pending.length > 0 ? " once its task ends" : ""}.`,
    id,
    { ...inputs, taskIds: err.taskIds ?? [], ...(pending.length > 0 ? { [PENDING_TASKS]: pending } : {}) },
  );
}

/**
 * A create whose outcome is unknown and whose resource was not found: it may exist, and the
 * stack cannot know it. Said once, with the task ids and the call that finds it.
 */
function mayExist(err: CimsError, what: string, call: CreateCall, hint?: string): unknown {
  const tasks = err.taskIds?.length
    ? ` Its task(s): ${err.taskIds.join(", ")} (GET /cloud/v1/tasks/<id>: created_resources names it once known).`
    : "";
  return inContext(
    what,
    err,
    `The service may have created ${what}; it is not in the stack.${tasks} ${call.find}.${hint ? ` ${hint}.` : ""} ` +
      `Adopt it by setting \`importId: "<its id>"\` on this resource (or delete it) before the next \`pulumi up\`, which ${call.meanwhile ?? "would otherwise create another"}.`,
  );
}

/**
 * Whether a failed request may have been acted on: its answer was lost (a reset after
 * sending, no answer in time), was a server or gateway error, or was a 2xx we could not read
 * (the service took the request; its answer was of the wrong shape). A request the service never
 * saw (connection refused, no key) or refused outright (4xx) changed nothing.
 */
export function mayHaveActed(err: unknown): boolean {
  if (err instanceof ConnectionError) return !CONNECT_FAILED.has(err.causeCode ?? "");
  if (err instanceof InvalidResponseError) return true;
  return err instanceof ApiError && (err.status >= 500 || err.status === 408);
}

/**
 * Whether a create's outcome is unknown. With task ids: unless every task ended (a task in
 * ERROR with every sibling ended is a plain failure: the service says what went wrong and
 * that it made nothing), the tasks may still make it. Without: the POST may have been acted
 * on although its answer was lost.
 */
export function outcomeUnknown(err: CimsError): boolean {
  if ((err.taskIds?.length ?? 0) > 0) return !(err instanceof TaskFailedError) || unfinishedIn(err.tasks).length > 0;
  return mayHaveActed(err);
}

// The task engine. A task goes NEW -> RUNNING -> FINISHED (or ERROR) on a schedule fixed
// when it is created; its effect on the data (insert, replace, delete a record) is applied
// when it finishes. Time is evaluated lazily on every request, so there are no timers to
// leak and a restarted emulator simply carries on. While a task runs it locks the records
// it touches: other mutating calls on them get 409.
import { randomUUID } from "node:crypto";
import { apiTimestamp } from "./clock";
import { type Effect, type ResourceKind, RESOURCE_KINDS, type TaskRecord } from "./store/shapes";
import type { CollectionName } from "./store/shapes";
import type { Store } from "./store/store";

export type { Effect, ResourceKind, TaskRecord } from "./store/shapes";

export interface TaskPlan {
  /** The task's id, when the route needs it up front (a record's creator_task_id). */
  taskId?: string;
  taskType: string;
  projectId?: number;
  regionId?: number;
  /** Applied in order when the task finishes successfully. */
  effects: Effect[];
  /** Applied if the task ends in ERROR (e.g. put back a record marked PENDING_UPDATE). */
  rollback?: Effect[];
  /** Records locked while the task runs. */
  locks: Array<{ collection: CollectionName; id: string }>;
  createdResources?: Partial<Record<ResourceKind, string[]>>;
  /** Decided up front (e.g. an overlapping CIDR): the task will end in ERROR with this text. */
  failWith?: string;
}

export interface TaskFault {
  message?: string;
  hang?: boolean;
  /** With `message`: the task creates its resource, then ends in ERROR. */
  keepCreated?: boolean;
  /** With `message`: the request starts a second task beside its own, which ends in ERROR. */
  alongside?: boolean;
}

/** Whether the API reports records of this kind in a task's `created_resources`. */
export const isResourceKind = (key: string): key is ResourceKind => RESOURCE_KINDS.some((k) => k === key);

export class TaskEngine {
  /**
   * `taskTypes`: every task type the contracts' operations answer with (taskTypesOf). A task of
   * any other type is a typo or a call the contract does not know, which the emulator would
   * otherwise serve and list under a type no client waits for.
   */
  constructor(
    private readonly store: Store,
    public durationMs: number,
    private readonly taskTypes: ReadonlySet<string>,
  ) {}

  create(plan: TaskPlan, requestId: string, path: string, now: number, fault?: TaskFault): TaskRecord {
    if (!this.taskTypes.has(plan.taskType))
      throw new Error(`no contract names the task type "${plan.taskType}" (they name ${[...this.taskTypes].join(", ")})`);
    const duration = this.durationMs;
    const task: TaskRecord = {
      id: plan.taskId ?? randomUUID(),
      state: "NEW",
      task_type: plan.taskType,
      user_id: 1,
      client_id: 1,
      project_id: plan.projectId ?? null,
      region_id: plan.regionId ?? null,
      request_id: requestId,
      created_on: apiTimestamp(now),
      updated_on: null,
      finished_on: null,
      created_resources: null,
      error: null,
      data: null,
      detailed_state: null,
      _emulator: {
        createdAt: now,
        runningAt: now + Math.min(200, Math.floor(duration / 5)),
        finishAt: now + duration,
        hang: fault?.hang ?? false,
        failWith: (fault?.alongside ? undefined : fault?.message) ?? plan.failWith,
        keepCreated: fault?.keepCreated,
        effects: plan.effects,
        rollback: plan.rollback ?? [],
        locks: plan.locks,
        createdResources: plan.createdResources ?? {},
        gets: 0,
        path,
      },
    };
    this.store.tasks[task.id] = task;
    this.store.persist();
    return task;
  }

  /** Moves every task along to where it should be at `now`; applies effects of finished ones. */
  advance(now: number): void {
    let changed = false;
    for (const task of Object.values(this.store.tasks)) {
      if (task.state === "FINISHED" || task.state === "ERROR") continue;
      const e = task._emulator;
      if (!e.hang && now >= e.finishAt) {
        this.finish(task, e.finishAt);
        changed = true;
      } else if (task.state === "NEW" && now >= e.runningAt) {
        task.state = "RUNNING";
        task.updated_on = apiTimestamp(e.runningAt);
        // The ids of what it creates are allocated up front and listed while it runs; the
        // records themselves appear when it finishes.
        task.created_resources = { ...emptyResources(), ...e.createdResources };
        changed = true;
      }
    }
    if (changed) this.store.persist();
  }

  private finish(task: TaskRecord, at: number): void {
    const e = task._emulator;
    task.updated_on = apiTimestamp(at);
    task.finished_on = apiTimestamp(at);
    task.created_resources = emptyResources();
    if (e.failWith !== undefined) {
      // keepCreated: the service made the resource, then a later step of the task failed.
      if (e.keepCreated) {
        this.apply(e.effects);
        Object.assign(task.created_resources, e.createdResources);
      } else {
        this.apply(e.rollback);
      }
      task.state = "ERROR";
      task.error = e.failWith;
      return;
    }
    this.apply(e.effects);
    Object.assign(task.created_resources, e.createdResources);
    task.state = "FINISHED";
  }

  private apply(effects: Effect[]): void {
    for (const effect of effects) {
      if (effect.op === "put") this.store.put(effect.collection, effect.record);
      else this.store.delete(effect.collection, effect.id);
    }
  }

  /** Lets tasks that were told to hang finish (when faults are cleared); they finish at once. */
  releaseHung(now: number): void {
    for (const task of Object.values(this.store.tasks)) {
      if (task._emulator.hang && task.state !== "FINISHED" && task.state !== "ERROR") {
        task._emulator.hang = false;
        task._emulator.finishAt = Math.min(task._emulator.finishAt, now);
      }
    }
    this.advance(now);
  }

  /** The running task holding a lock on this record, if any. */
  lockedBy(collection: CollectionName, id: unknown): TaskRecord | undefined {
    return Object.values(this.store.tasks).find(
      (t) =>
        (t.state === "NEW" || t.state === "RUNNING") && t._emulator.locks.some((l) => l.collection === collection && l.id === String(id)),
    );
  }

  /** The task as the API shows it; counts the GET for the metrics. */
  view(task: TaskRecord, now: number): Omit<TaskRecord, "_emulator"> {
    const { _emulator, ...visible } = task;
    _emulator.gets++;
    if (task.state === "FINISHED" && _emulator.firstSeenFinishedAt === undefined) {
      _emulator.firstSeenFinishedAt = now;
      this.store.persist();
    }
    return visible;
  }

  /** Per task: when it finished, when a GET first saw it finished, and how many GETs it took. */
  metrics(): Array<{
    id: string;
    task_type: string;
    state: string;
    path: string;
    duration_ms: number;
    gets: number;
    finished_at?: number;
    first_seen_finished_at?: number;
    lag_ms?: number;
  }> {
    return Object.values(this.store.tasks).map((t) => {
      const e = t._emulator;
      const finished = t.state === "FINISHED" || t.state === "ERROR";
      return {
        id: t.id,
        task_type: t.task_type,
        state: t.state,
        path: e.path,
        duration_ms: e.finishAt - e.createdAt,
        gets: e.gets,
        finished_at: finished ? e.finishAt : undefined,
        first_seen_finished_at: e.firstSeenFinishedAt,
        lag_ms: e.firstSeenFinishedAt !== undefined ? e.firstSeenFinishedAt - e.finishAt : undefined,
      };
    });
  }
}

function emptyResources(): Record<ResourceKind, string[]> {
  return Object.fromEntries(RESOURCE_KINDS.map((k) => [k, []])) as unknown as Record<ResourceKind, string[]>;
}

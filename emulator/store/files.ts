// The store on disk: a seed (the records it starts from, a file or the control API's body)
// and a state file (everything, tasks included, to continue from after a restart). Both are
// checked whole before anything is applied, and refused naming what is wrong; integers stay
// exact (quota numbers are int64).
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { messageOf } from "../../api/messages";
import { parseJson, stringifyJson } from "../../api/json";
import { plainWords, problemsOf } from "../http-errors";
import type { Collections } from "./collections";
import { type CollectionName, type Effect, RESOURCE_KINDS, type TaskRecord } from "./shapes";
import type { ApiRecord } from "../../api/guards";

/** The seed file format: each collection a list of records (all optional), by the collection's name. */
export type Seed = Partial<Record<CollectionName, ApiRecord[]>>;

/** Everything the store holds: what a state file holds. */
export interface Snapshot {
  collections: Record<CollectionName, Record<string, ApiRecord>>;
  tasks: Record<string, TaskRecord>;
}

/**
 * A record of a collection: an object with its key, and, when scoped, integer project_id and
 * region_id (a camelCase `projectId` would otherwise load and leave every request a puzzling 404).
 */
function recordSchema(collections: Collections, collection: CollectionName) {
  const { key, integers = ["project_id", "region_id"] } = collections.spec(collection);
  return z.record(z.string(), z.unknown(), { error: "must be an object" }).check((ctx) => {
    if (ctx.value[key] === undefined || ctx.value[key] === null) {
      ctx.issues.push({ code: "custom", input: ctx.value, message: `has no "${key}"` });
      return;
    }
    for (const field of integers) {
      if (!Number.isSafeInteger(ctx.value[field]))
        ctx.issues.push({
          code: "custom",
          path: [field],
          input: ctx.value[field],
          message: "must be an integer (records use the API's snake_case names)",
        });
    }
  });
}

/**
 * A seed's shape, checked before anything is applied: known collections of records, each
 * record with its key and its scope (recordSchema). Not the request rules: a seed may hold
 * records the API itself could not create.
 */
export function seedSchema(collections: Collections): z.ZodType<Seed> {
  return z.strictObject(
    collections.byCollection((c) => z.array(recordSchema(collections, c), { error: "must be a list of records" }).optional()),
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown seed collection ${issue.keys.map((k) => `"${k}"`).join(", ")}; expected one of ${collections.names.join(", ")}`
          : "a seed must be a JSON object of collections",
    },
  );
}

/** A seed, checked whole: its problems, each naming the record and the rule, in one Error. */
export function parseSeed(value: unknown, schema: z.ZodType<Seed>): Seed {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(problemsOf(parsed.error));
  return parsed.data;
}

const taskId = z.string();
// Task effects name collections; a name the store does not keep is refused when the effect is applied.
const collection = z.string();
const resources = z.array(z.string());
const effectSchema: z.ZodType<Effect> = z.discriminatedUnion("op", [
  z.object({ op: z.literal("put"), collection, record: z.record(z.string(), z.unknown()) }),
  z.object({ op: z.literal("delete"), collection, id: z.string() }),
]);
const timestamp = z.number();

/** A task as the engine keeps it, with its bookkeeping: what a state file holds under `tasks`. */
const taskSchema: z.ZodType<TaskRecord> = z.object({
  id: taskId,
  state: z.enum(["NEW", "RUNNING", "FINISHED", "ERROR"]),
  task_type: z.string(),
  user_id: z.number(),
  client_id: z.number(),
  project_id: z.number().nullable(),
  region_id: z.number().nullable(),
  request_id: z.string(),
  created_on: z.string(),
  updated_on: z.string().nullable(),
  finished_on: z.string().nullable(),
  created_resources: z.record(z.enum(RESOURCE_KINDS), resources).nullable(),
  error: z.string().nullable(),
  data: z.null(),
  detailed_state: z.null(),
  _emulator: z.object({
    createdAt: timestamp,
    runningAt: timestamp,
    finishAt: timestamp,
    hang: z.boolean(),
    failWith: z.string().optional(),
    keepCreated: z.boolean().optional(),
    effects: z.array(effectSchema),
    rollback: z.array(effectSchema),
    locks: z.array(z.object({ collection, id: z.string() })),
    createdResources: z.partialRecord(z.enum(RESOURCE_KINDS), resources),
    gets: z.number(),
    firstSeenFinishedAt: timestamp.optional(),
    path: z.string(),
  }),
});

/** What `persist` writes; a collection an older emulator did not have may be missing. */
const stateSchema = (collections: Collections) =>
  z.strictObject({
    collections: z.strictObject(collections.byCollection((c) => z.record(z.string(), recordSchema(collections, c)).optional())),
    tasks: z.record(taskId, taskSchema),
  });

/**
 * The state a state file holds, checked whole before the emulator starts from it: a file that
 * is no JSON or holds something else is refused naming the file, what is wrong and what to do,
 * instead of loading and failing later on a request.
 */
export function readStateFile(file: string, collections: Collections): Snapshot {
  const refuse = (problem: string, cause?: unknown) =>
    new Error(
      `state file ${file} ${problem}. Delete it (or pass another --state-file) to start from the seed, losing what it holds, or fix what is named.`,
      { cause },
    );
  const text = fs.readFileSync(file, "utf8");
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    throw refuse(`is not valid JSON: ${messageOf(err)}`, err);
  }
  const parsed = stateSchema(collections).safeParse(value, plainWords);
  if (!parsed.success) throw refuse(`is not this emulator's state: ${problemsOf(parsed.error)}`);
  return { collections: collections.byCollection((c) => parsed.data.collections[c] ?? {}), tasks: parsed.data.tasks };
}

/** Writes a state file atomically (temp file + rename). */
export function writeStateFile(file: string, snapshot: Snapshot): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  // fsync before the rename: after a crash the file is the old state or the new, never empty.
  const fd = fs.openSync(tmp, "w");
  try {
    fs.writeSync(fd, stringifyJson(snapshot, 1));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/** A seed file, read and checked: its problems are prefixed with the file's path. */
export function readSeedFile(file: string, collections: Collections): Seed {
  try {
    return parseSeed(parseJson(fs.readFileSync(file, "utf8")), seedSchema(collections));
  } catch (err) {
    throw new Error(`${file}: ${messageOf(err)}`, { cause: err });
  }
}

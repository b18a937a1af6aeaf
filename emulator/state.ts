// The emulator's data: records in the API's own snake_case shapes, grouped by collection,
// plus tasks. Loaded from a seed (or a state file), and, with a state file, written
// atomically (temp file + rename) after every change so a restart loses nothing.
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { messageOf } from "../api/errors";
import { parseJson, stringifyJson } from "../api/json";
import { plainWords, problemsOf } from "./errors";
import { type ApiRecord, type Collection, type Effect, RESOURCE_KINDS, type TaskRecord } from "./data";
import type { Collections } from "./stores";

export { type ApiRecord, type Collection } from "./data";

/** The seed file format: each collection a list of records (all optional), by the collection's name. */
export type Seed = Partial<Record<Collection, ApiRecord[]>>;

interface Snapshot {
  collections: Record<Collection, Record<string, ApiRecord>>;
  tasks: Record<string, TaskRecord>;
}

/** Integers stay exact on the wire and on disk (quota numbers are int64): the client's codec. */
export const parseLossless = parseJson;
export const stringifyLossless = stringifyJson;

export class Store {
  private data: Snapshot;
  /** What a seed may hold (the control API's seed body too). */
  readonly seedSchema: z.ZodType<Seed>;

  constructor(
    /** The collections it keeps. */
    readonly collections: Collections,
    private readonly seed: Seed = {},
    private readonly stateFile?: string,
  ) {
    this.seedSchema = seedSchema(collections);
    this.data = emptySnapshot(collections);
    if (stateFile && fs.existsSync(stateFile)) {
      this.data = readStateFile(stateFile, collections);
      // A state file an older emulator wrote: its records get the fields the service's answers carry.
      for (const c of collections.names) for (const r of this.list(c)) this.put(c, collections.complete(c, r, this.regionName));
      this.addProjectsNamed();
    } else {
      this.loadSeed(seed);
    }
  }

  /** Back to the seed the emulator started with. */
  reset(): void {
    this.data = emptySnapshot(this.collections);
    this.loadSeed(this.seed);
  }

  /**
   * Adds (or replaces by key) the records of a seed: all of them, or none if one is wrong.
   * Each gets the fields the service's answers carry that it leaves out (records.ts).
   */
  loadSeed(value: Seed): void {
    const seed = parseSeed(value, this.seedSchema);
    for (const record of seed.regions ?? []) this.put("regions", record);
    for (const c of this.collections.names) {
      for (const record of seed[c] ?? []) this.put(c, this.collections.complete(c, record, this.regionName));
    }
    this.addProjectsNamed();
    this.persist();
  }

  /**
   * A project for every project_id the records name that the seed does not list, so a seed
   * written before projects were served keeps working. A project nothing names stays unknown.
   */
  private addProjectsNamed(): void {
    for (const c of this.collections.names) {
      for (const r of this.list(c)) {
        if (Number.isSafeInteger(r.project_id) && !this.get("projects", r.project_id)) {
          this.put("projects", this.collections.complete("projects", { id: r.project_id }, this.regionName));
        }
      }
    }
  }

  /** A region's name (records carry it as `region`): from the seed's regions, else `Region <id>`. */
  readonly regionName = (regionId: unknown): string => {
    const name = this.get("regions", regionId)?.name;
    return typeof name === "string" ? name : `Region ${String(regionId)}`;
  };

  get(collection: Collection, id: unknown): ApiRecord | undefined {
    return this.records(collection)[String(id)];
  }

  list(collection: Collection): ApiRecord[] {
    return Object.values(this.records(collection));
  }

  put(collection: Collection, record: ApiRecord): void {
    const { key } = this.collections.spec(collection);
    const id = record[key];
    if (id === undefined || id === null) throw new Error(`${collection} record without "${key}"`);
    this.records(collection)[String(id)] = record;
  }

  delete(collection: Collection, id: unknown): void {
    delete this.records(collection)[String(id)];
  }

  /** A collection's records by key; a collection it does not keep is refused, naming those it does. */
  private records(collection: Collection): Record<string, ApiRecord> {
    return this.data.collections[this.collections.spec(collection).name];
  }

  get tasks(): Record<string, TaskRecord> {
    return this.data.tasks;
  }

  /** Everything, for the control API's inspect endpoint. */
  dump(): { collections: Snapshot["collections"]; tasks: TaskRecord[] } {
    return { collections: this.data.collections, tasks: Object.values(this.data.tasks) };
  }

  /** Writes the state file atomically, if there is one. */
  persist(): void {
    if (!this.stateFile) return;
    const tmp = path.join(path.dirname(this.stateFile), `.${path.basename(this.stateFile)}.${process.pid}.tmp`);
    // fsync before the rename: after a crash the file is the old state or the new, never empty.
    const fd = fs.openSync(tmp, "w");
    try {
      fs.writeSync(fd, stringifyLossless(this.data, 1));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, this.stateFile);
  }
}

/**
 * A record of a collection: an object with its key, and, when scoped, integer project_id and
 * region_id (a camelCase `projectId` would otherwise load and leave every request a puzzling 404).
 */
function recordSchema(collections: Collections, collection: Collection) {
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
function seedSchema(collections: Collections): z.ZodType<Seed> {
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
function parseSeed(value: unknown, schema: z.ZodType<Seed>): Seed {
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
function readStateFile(file: string, collections: Collections): Snapshot {
  const refuse = (problem: string, cause?: unknown) =>
    new Error(
      `state file ${file} ${problem}. Delete it (or pass another --state-file) to start from the seed, losing what it holds, or fix what is named.`,
      { cause },
    );
  const text = fs.readFileSync(file, "utf8");
  let value: unknown;
  try {
    value = parseLossless(text);
  } catch (err) {
    throw refuse(`is not valid JSON: ${messageOf(err)}`, err);
  }
  const parsed = stateSchema(collections).safeParse(value, plainWords);
  if (!parsed.success) throw refuse(`is not this emulator's state: ${problemsOf(parsed.error)}`);
  return { collections: collections.byCollection((c) => parsed.data.collections[c] ?? {}), tasks: parsed.data.tasks };
}

function emptySnapshot(collections: Collections): Snapshot {
  return { collections: collections.byCollection(() => ({})), tasks: {} };
}

/** A seed file, read and checked: its problems are prefixed with the file's path. */
export function readSeedFile(file: string, collections: Collections): Seed {
  try {
    return parseSeed(parseLossless(fs.readFileSync(file, "utf8")), seedSchema(collections));
  } catch (err) {
    throw new Error(`${file}: ${messageOf(err)}`, { cause: err });
  }
}

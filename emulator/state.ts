// The emulator's data: records in the API's own snake_case shapes, grouped by collection,
// plus tasks. Loaded from a seed (or a state file), and, with a state file, written
// atomically (temp file + rename) after every change so a restart loses nothing.
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { messageOf } from "../api/errors";
import { parseJson, stringifyJson } from "../api/json";
import { plainWords, problemsOf } from "./errors";
import { completeRecord } from "./records";
import { type ApiRecord, type Collection, COLLECTIONS, type Effect, RESOURCE_KINDS, type TaskRecord } from "./data";

export { type ApiRecord, type Collection, COLLECTIONS } from "./data";

/** The seed file format: each collection a list of records (all optional). */
export type Seed = Partial<Record<Collection, ApiRecord[]>>;

interface Snapshot {
  collections: Record<Collection, Record<string, ApiRecord>>;
  tasks: Record<string, TaskRecord>;
}

/** Primary key of each collection's records. */
const KEY: Record<Collection, string> = {
  projects: "id",
  regions: "id",
  networks: "id",
  routers: "id",
  volumes: "id",
  subnets: "id",
  images: "id",
  lbpools: "id",
  lifecycle_policies: "id",
  client_quotas: "client_id",
};

/** Integers stay exact on the wire and on disk (quota numbers are int64): the client's codec. */
export const parseLossless = parseJson;
export const stringifyLossless = stringifyJson;

export class Store {
  private data: Snapshot = emptySnapshot();

  constructor(
    private readonly seed: Seed = {},
    private readonly stateFile?: string,
  ) {
    if (stateFile && fs.existsSync(stateFile)) {
      this.data = readStateFile(stateFile);
      // A state file an older emulator wrote: its records get the fields the service's answers carry.
      for (const c of COLLECTIONS) for (const r of this.list(c)) this.put(c, completeRecord(c, r, this.regionName));
      this.addProjectsNamed();
    } else {
      this.loadSeed(seed);
    }
  }

  /** Back to the seed the emulator started with. */
  reset(): void {
    this.data = emptySnapshot();
    this.loadSeed(this.seed);
  }

  /**
   * Adds (or replaces by key) the records of a seed: all of them, or none if one is wrong.
   * Each gets the fields the service's answers carry that it leaves out (records.ts).
   */
  loadSeed(value: Seed): void {
    const seed = parseSeed(value);
    for (const record of seed.regions ?? []) this.put("regions", record);
    for (const c of COLLECTIONS) {
      for (const record of seed[c] ?? []) this.put(c, completeRecord(c, record, this.regionName));
    }
    this.addProjectsNamed();
    this.persist();
  }

  /**
   * A project for every project_id the records name that the seed does not list, so a seed
   * written before projects were served keeps working. A project nothing names stays unknown.
   */
  private addProjectsNamed(): void {
    for (const c of COLLECTIONS) {
      for (const r of this.list(c)) {
        if (Number.isSafeInteger(r.project_id) && !this.get("projects", r.project_id)) {
          this.put("projects", completeRecord("projects", { id: r.project_id }, this.regionName));
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
    return this.data.collections[collection][String(id)];
  }

  list(collection: Collection): ApiRecord[] {
    return Object.values(this.data.collections[collection]);
  }

  put(collection: Collection, record: ApiRecord): void {
    const id = record[KEY[collection]];
    if (id === undefined || id === null) throw new Error(`${collection} record without "${KEY[collection]}"`);
    this.data.collections[collection][String(id)] = record;
  }

  delete(collection: Collection, id: unknown): void {
    delete this.data.collections[collection][String(id)];
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

/** One value per collection, built by `make` (an object literal, so its type names every one). */
function byCollection<T>(make: (c: Collection) => T): Record<Collection, T> {
  return {
    projects: make("projects"),
    regions: make("regions"),
    networks: make("networks"),
    routers: make("routers"),
    volumes: make("volumes"),
    subnets: make("subnets"),
    images: make("images"),
    lbpools: make("lbpools"),
    lifecycle_policies: make("lifecycle_policies"),
    client_quotas: make("client_quotas"),
  };
}

/**
 * A record of a collection: an object with its key, and, when scoped, integer project_id and
 * region_id (a camelCase `projectId` would otherwise load and leave every request a puzzling 404).
 */
function recordSchema(collection: Collection) {
  const key = KEY[collection];
  const integers =
    collection === "regions" || collection === "projects"
      ? ["id"]
      : collection === "client_quotas"
        ? ["client_id"]
        : ["project_id", "region_id"];
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

const collectionNames = COLLECTIONS.join(", ");

/**
 * A seed's shape, checked before anything is applied: known collections of records, each
 * record with its key and its scope (recordSchema). Not the request rules: a seed may hold
 * records the API itself could not create.
 */
export const seedSchema: z.ZodType<Seed> = z.strictObject(
  byCollection((c) => z.array(recordSchema(c), { error: "must be a list of records" }).optional()),
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown seed collection ${issue.keys.map((k) => `"${k}"`).join(", ")}; expected one of ${collectionNames}`
        : "a seed must be a JSON object of collections",
  },
);

/** A seed, checked whole: its problems, each naming the record and the rule, in one Error. */
export function parseSeed(value: unknown): Seed {
  const parsed = seedSchema.safeParse(value);
  if (!parsed.success) throw new Error(problemsOf(parsed.error));
  return parsed.data;
}

const taskId = z.string();
const collection = z.enum(COLLECTIONS);
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
const stateSchema = z.strictObject({
  collections: z.strictObject(byCollection((c) => z.record(z.string(), recordSchema(c)).optional())),
  tasks: z.record(taskId, taskSchema),
});

/**
 * The state a state file holds, checked whole before the emulator starts from it: a file that
 * is no JSON or holds something else is refused naming the file, what is wrong and what to do,
 * instead of loading and failing later on a request.
 */
function readStateFile(file: string): Snapshot {
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
  const parsed = stateSchema.safeParse(value, plainWords);
  if (!parsed.success) throw refuse(`is not this emulator's state: ${problemsOf(parsed.error)}`);
  return { collections: byCollection((c) => parsed.data.collections[c] ?? {}), tasks: parsed.data.tasks };
}

function emptySnapshot(): Snapshot {
  return { collections: byCollection(() => ({})), tasks: {} };
}

/** A seed file, read and checked: its problems are prefixed with the file's path. */
export function readSeedFile(file: string): Seed {
  try {
    return parseSeed(parseLossless(fs.readFileSync(file, "utf8")));
  } catch (err) {
    throw new Error(`${file}: ${messageOf(err)}`, { cause: err });
  }
}

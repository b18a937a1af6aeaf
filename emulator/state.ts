// The emulator's data: records in the API's own snake_case shapes, grouped by collection,
// plus tasks. Loaded from a seed (or a state file), and, with a state file, written
// atomically (temp file + rename) after every change so a restart loses nothing.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseJson, stringifyJson } from "../api/json";
import { completeRecord } from "./records";
import { type ApiRecord, type Collection, COLLECTIONS, type TaskRecord } from "./data";

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
      this.data = parseLossless(fs.readFileSync(stateFile, "utf8")) as Snapshot;
      for (const c of COLLECTIONS) this.data.collections[c] ??= {};
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
  loadSeed(seed: Seed): void {
    checkSeed(seed);
    for (const record of seed.regions ?? []) this.put("regions", record);
    for (const [name, records] of Object.entries(seed)) {
      for (const record of records) this.put(name as Collection, completeRecord(name as Collection, record, this.regionName));
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

/**
 * A seed's shape, checked before anything is applied: known collections of records, each
 * with its key, and scoped records with integer project_id and region_id (a camelCase
 * `projectId` would otherwise load and leave every request a puzzling 404).
 */
export function checkSeed(seed: unknown): asserts seed is Seed {
  if (typeof seed !== "object" || seed === null || Array.isArray(seed)) throw new Error("a seed must be a JSON object of collections");
  for (const [name, records] of Object.entries(seed)) {
    if (!(COLLECTIONS as readonly string[]).includes(name))
      throw new Error(`unknown seed collection "${name}"; expected one of ${COLLECTIONS.join(", ")}`);
    if (!Array.isArray(records)) throw new Error(`seed collection "${name}" must be a list of records`);
    records.forEach((record: unknown, i) => {
      const where = `${name}[${i}]`;
      if (typeof record !== "object" || record === null || Array.isArray(record)) throw new Error(`${where} must be an object`);
      const r = record as ApiRecord;
      const key = KEY[name as Collection];
      if (r[key] === undefined || r[key] === null) throw new Error(`${where} has no "${key}"`);
      const fields =
        name === "regions" || name === "projects" ? ["id"] : name === "client_quotas" ? ["client_id"] : ["project_id", "region_id"];
      for (const field of fields) {
        if (!Number.isSafeInteger(r[field]))
          throw new Error(`${where}.${field} must be an integer (records use the API's snake_case names)`);
      }
    });
  }
}

function emptySnapshot(): Snapshot {
  const collections = {} as Snapshot["collections"];
  for (const c of COLLECTIONS) collections[c] = {};
  return { collections, tasks: {} };
}

export function readSeedFile(file: string): Seed {
  const seed = parseLossless(fs.readFileSync(file, "utf8"));
  if (typeof seed !== "object" || seed === null || Array.isArray(seed))
    throw new Error(`${file}: a seed must be a JSON object of collections`);
  return seed as Seed;
}

// The emulator's store: records in the API's own snake_case shapes, grouped by collection,
// plus tasks. Loaded from a seed (or a state file), and, with a state file, written after
// every change (./files.ts) so a restart loses nothing.
import * as fs from "node:fs";
import type { z } from "zod";
import type { Collections } from "./collections";
import { parseSeed, readStateFile, type Seed, seedSchema, type Snapshot, writeStateFile } from "./files";
import type { CollectionName, TaskRecord } from "./shapes";
import type { ApiRecord } from "../../api/guards";

export type { CollectionName } from "./shapes";
export type { Seed } from "./files";

export class Store {
  private snapshot: Snapshot;
  /** What a seed may hold (the control API's seed body too). */
  readonly seedSchema: z.ZodType<Seed>;

  constructor(
    /** The collections it keeps. */
    readonly collections: Collections,
    private readonly seed: Seed = {},
    private readonly stateFile?: string,
  ) {
    this.seedSchema = seedSchema(collections);
    this.snapshot = emptySnapshot(collections);
    if (stateFile && fs.existsSync(stateFile)) {
      this.snapshot = readStateFile(stateFile, collections);
      // A state file an older emulator wrote: its records get the fields the service's answers carry.
      for (const c of collections.names) for (const r of this.list(c)) this.put(c, collections.complete(c, r, this.regionName));
      this.addProjectsNamed();
    } else {
      this.loadSeed(seed);
    }
  }

  /** Back to the seed the emulator started with. */
  reset(): void {
    this.snapshot = emptySnapshot(this.collections);
    this.loadSeed(this.seed);
  }

  /**
   * Adds (or replaces by key) the records of a seed: all of them, or none if one is wrong.
   * Each gets the fields the service's answers carry that it leaves out (./complete.ts).
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

  get(collection: CollectionName, id: unknown): ApiRecord | undefined {
    return this.records(collection)[String(id)];
  }

  list(collection: CollectionName): ApiRecord[] {
    return Object.values(this.records(collection));
  }

  put(collection: CollectionName, record: ApiRecord): void {
    const { key } = this.collections.spec(collection);
    const id = record[key];
    if (id === undefined || id === null) throw new Error(`${collection} record without "${key}"`);
    this.records(collection)[String(id)] = record;
  }

  delete(collection: CollectionName, id: unknown): void {
    delete this.records(collection)[String(id)];
  }

  /** A collection's records by key; a collection it does not keep is refused, naming those it does. */
  private records(collection: CollectionName): Record<string, ApiRecord> {
    return this.snapshot.collections[this.collections.spec(collection).name];
  }

  get tasks(): Record<string, TaskRecord> {
    return this.snapshot.tasks;
  }

  /** Everything, for the control API's inspect endpoint. */
  dump(): { collections: Snapshot["collections"]; tasks: TaskRecord[] } {
    return { collections: this.snapshot.collections, tasks: Object.values(this.snapshot.tasks) };
  }

  /** Writes the state file, if there is one: after every change, so a restart loses nothing. */
  persist(): void {
    if (this.stateFile) writeStateFile(this.stateFile, this.snapshot);
  }
}

function emptySnapshot(collections: Collections): Snapshot {
  return { collections: collections.byCollection(() => ({})), tasks: {} };
}

// The store's vocabulary: every collection the emulator keeps, the API's own (projects,
// regions and what resources refer to) and those the resources' files declare
// (../collections/, each with the collection it keeps, if any). Seeds, state files, task
// effects and the control API all use these names, keys and completions. The emulator builds it (../app.ts)
// from the registry and hands it to the store, so nothing a collection imports depends on the
// registry.
import { BASE_COLLECTIONS, type CollectionName, type StoreSpec } from "./shapes";
import { completeProject, completeRegion } from "./complete";
import type { ApiRecord } from "../../api/guards";

const BASE: Record<(typeof BASE_COLLECTIONS)[number], StoreSpec> = {
  projects: { name: "projects", key: "id", integers: ["id"], complete: completeProject },
  regions: { name: "regions", key: "id", integers: ["id"], complete: completeRegion },
  networks: { name: "networks", key: "id" },
  routers: { name: "routers", key: "id" },
  volumes: { name: "volumes", key: "id" },
  instances: { name: "instances", key: "id" },
};

export class Collections {
  private readonly specs: ReadonlyMap<CollectionName, StoreSpec>;
  /** Every collection's name, the API's own first, then the resources' in the registry's order. */
  readonly names: readonly CollectionName[];

  /** `resources`: the registry's entries; those that keep a collection declare it. */
  constructor(resources: Iterable<{ readonly store?: StoreSpec }>) {
    const declared = [...resources].flatMap((r) => (r.store ? [r.store] : []));
    const specs = new Map<CollectionName, StoreSpec>();
    for (const spec of [...BASE_COLLECTIONS.map((c) => BASE[c]), ...declared]) {
      if (specs.has(spec.name)) throw new Error(`two collections named "${spec.name}"`);
      specs.set(spec.name, spec);
    }
    this.specs = specs;
    this.names = [...specs.keys()];
  }

  has(name: string): boolean {
    return this.specs.has(name);
  }

  /** A collection's spec; a name no resource declares is a bug in the emulator, said as such. */
  spec(collection: CollectionName): StoreSpec {
    const spec = this.specs.get(collection);
    if (!spec) throw new Error(`the emulator keeps no collection "${collection}" (it keeps ${this.names.join(", ")})`);
    return spec;
  }

  /** A record of a collection with every field the service's model requires. */
  complete(collection: CollectionName, record: ApiRecord, region: (regionId: unknown) => string): ApiRecord {
    return this.spec(collection).complete?.(record, region) ?? record;
  }

  /** One value per collection, built by `make`. */
  byCollection<T>(make: (c: CollectionName) => T): Record<CollectionName, T> {
    return Object.fromEntries(this.names.map((c) => [c, make(c)]));
  }
}

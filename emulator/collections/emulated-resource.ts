// What a resource is to the emulator: what the service does on each of its contract's
// operations (../serve.ts routes them from the contract) and, when its records are a
// collection of their own, that collection (its name in seeds, state files and the control
// API, its key, and the fields the service's answers carry that a seed leaves out). Each file
// of this folder exports one, named as the resource (api/contract/ and provider/kinds/ export
// the same name); ./index.ts lists them (`npm run gen` writes it from the provider's kinds,
// so the two cannot disagree), and the store's vocabulary (../store/collections.ts) is derived
// from that list.
import type { StoreSpec } from "../store/shapes";

export type { RegionName, StoreSpec } from "../store/shapes";
import type { Served } from "../serve";

/** `store`: the collection the resource keeps, if it keeps one (a pool member lives in its pool's record). */
export interface EmulatedResource extends Served {
  readonly store?: StoreSpec;
}

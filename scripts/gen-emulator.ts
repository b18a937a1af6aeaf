// The emulator's files that `npm run gen` writes from the kinds: its collection index
// (emulator/generated/collections.ts), so the emulator serves exactly the kinds the provider
// does, in the registry's order, and a new kind needs no second list kept by hand. The store's
// collections are derived from that index (emulator/store/collections.ts). The emulator never
// imports provider/: the index is written here, from the registry, and committed.
import { toKebab } from "../api/names";
import { KIND_NAMES } from "../provider/kinds/registry";

export const COLLECTION_INDEX = "emulator/generated/collections.ts";

/** Every emulator file generated from the kinds, by its path from the repository's root; `header` says how it was made. */
export function emulatorFiles(header: string): Map<string, string> {
  const index =
    `${header}\n` +
    "// Every resource the emulator serves, one line each: the kinds of provider/kinds/index.ts, in\n" +
    "// its order. Each is its file in collections/, exporting the resource by the kind's name.\n" +
    KIND_NAMES.map((kind) => `export { ${kind} } from "../collections/${toKebab(kind)}";\n`).join("");
  return new Map([[COLLECTION_INDEX, index]]);
}

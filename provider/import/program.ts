// The program cims-import writes, before any language: its header, one declaration per
// resource (../kinds/program-model.ts, the model the kinds' docs examples share), and whether
// they are protected. generate.ts builds it from records; render.ts writes it in TypeScript,
// YAML, Python or Go (a module of its own, so neither imports the other).
import type { Declaration } from "../kinds/program-model";
import type { Kind } from "../kinds/registry";

/** The program before any language: its head's lines and its resources, in order. */
export interface AdoptionProgram {
  header: string[];
  declarations: Declaration<Kind>[];
  protect: boolean;
}

// The program cims-import writes, before any language: its header, one declaration per
// resource, and whether they are protected. generate.ts builds it from records; render.ts
// writes it in TypeScript, YAML, Python or Go (a module of its own, so neither imports the other).
import type { Kind } from "../kinds/registry";

type Args = Record<string, unknown>;

/** One resource of the module. */
export interface Declaration {
  type: Kind;
  name: string;
  args: Args;
  /** Why an argument the record holds is not written (a comment above the statement). */
  comments?: string[];
}

/** The program before any language: its head's lines and its resources, in order. */
export interface AdoptionProgram {
  header: string[];
  declarations: Declaration[];
  protect: boolean;
}

// A program before any language: its resources (declarations) and the values their arguments
// may read (the stack's configuration, other resources' outputs). Two programs are made of it:
// what cims-import writes (../import/program.ts adds its header and protection) and each kind's
// docs example (<kind>.example.ts, attached to its kind as `example`); ../import/render.ts writes
// either in TypeScript, YAML, Python or Go. It lives beside the kinds because the examples are
// theirs and the import tool sits above them: a kind never imports the tools built on it. A
// declaration's kind is a name here, not the registry's `Kind`: the registry is made of the kinds
// and their examples, so typing an example by it would tie each kind's file to every other's
// (registry.ts's exampleOf holds each name to a registered kind).

type Args = Record<string, unknown>;

/** One resource of the program. */
export interface Declaration<K extends string = string> {
  type: K;
  name: string;
  args: Args;
  /** Why an argument the record holds is not written (a comment above the statement). */
  comments?: string[];
}

/** A value of the stack's configuration (`pulumi config set <key> <value>`), read by the program. */
export class ConfigValue {
  constructor(
    readonly key: string,
    readonly type: "string" | "integer",
  ) {}
}

/** An output of another resource of the program, by that resource's name (`id`, `gatewayIp`, ...). */
export class OutputValue {
  constructor(
    readonly resource: string,
    readonly output: string,
  ) {}
}

/**
 * A field of what a lookup (`cims:index:<fn>`) finds, by its arguments: `getNetwork` by
 * `{ name: "demo-net" }`, its `id`. The program finds the record each run, so a team names what
 * it refers to instead of pasting an id per stack. `name`: the program's variable for it.
 */
export class LookupValue {
  constructor(
    readonly fn: string,
    readonly args: Readonly<Record<string, string | number | boolean>>,
    readonly field: string,
    readonly name: string,
  ) {}
}

/**
 * A field of one record of a list a lookup found (`getSubnets`' `subnets`), by its place in the
 * list: the program reads a scalar of it, which every language can export (a list of the SDKs'
 * records is not: Java's serializer refuses its result types, Python's keeps their snake_case keys).
 */
export class ItemValue {
  constructor(
    readonly list: LookupValue,
    readonly index: number,
    readonly field: string,
  ) {}
}

/** `networkId: config("networkId")`: the argument is the stack's config value of that key. */
export const config = (key: string, type: ConfigValue["type"] = "string"): ConfigValue => new ConfigValue(key, type);
/** `subnetId: output("app-subnet", "id")`: the argument is that resource's output. */
export const output = (resource: string, name: string): OutputValue => new OutputValue(resource, name);

/**
 * `networkId: lookup("getNetwork", { name: "demo-net" }, "id")`: the argument is that field of
 * what the lookup finds; its variable is named after the name it looks up (else its first text
 * argument) and the field (`demoNetId`, `apiPoolMembers`) unless `name` says otherwise.
 */
export const lookup = (fn: string, args: LookupValue["args"], field: string, name?: string): LookupValue =>
  new LookupValue(fn, args, field, name ?? `${String(args.name ?? Object.values(args).find((v) => typeof v === "string") ?? fn)}-${field}`);

/** `item(lookup("getSubnets", { name: "db" }, "subnets"), 0, "id")`: the id of the first subnet it found. */
export const item = (list: LookupValue, index: number, field: string): ItemValue => new ItemValue(list, index, field);

/** A kind's docs example: what it shows, its resources (arguments may be config values and outputs), the stack's outputs. */
export interface ExampleProgram<K extends string = string> {
  /** A sentence or two for the docs page, above the code. */
  doc: string;
  declarations: Declaration<K>[];
  /** The stack's outputs, by name (a lookup's field, or a field of a record of a list it found, among them). */
  outputs: Record<string, OutputValue | LookupValue | ItemValue>;
}

/** What a kind's registry entry carries beside its methods: its docs example. */
export interface WithExample {
  example: ExampleProgram;
}

/** Calls `seen` with each config value, output and lookup among a value's leaves. */
function walk(value: unknown, seen: (v: ConfigValue | OutputValue | LookupValue) => void): void {
  if (value instanceof ConfigValue || value instanceof OutputValue || value instanceof LookupValue) seen(value);
  else if (value instanceof ItemValue) seen(value.list);
  else if (Array.isArray(value)) value.forEach((v) => walk(v, seen));
  else if (typeof value === "object" && value !== null) Object.values(value).forEach((v) => walk(v, seen));
}

/** The config values a program reads, each once, in the order its arguments first use them. */
export function configValues(declarations: readonly Declaration[]): ConfigValue[] {
  const found = new Map<string, ConfigValue>();
  for (const d of declarations)
    walk(d.args, (v) => {
      if (!(v instanceof ConfigValue)) return;
      const known = found.get(v.key);
      if (known && known.type !== v.type) throw new Error(`config ${v.key} is read as both ${known.type} and ${v.type}`);
      found.set(v.key, v);
    });
  return [...found.values()];
}

/**
 * The lookups a program reads (its resources' arguments, then its outputs), each once by its
 * variable's name, in the order they are first used; one name for two different lookups is refused.
 */
export function lookupValues(example: Pick<ExampleProgram, "declarations" | "outputs">): LookupValue[] {
  const found = new Map<string, LookupValue>();
  const add = (v: unknown) => {
    if (!(v instanceof LookupValue)) return;
    const known = found.get(v.name);
    if (known && JSON.stringify([known.fn, known.args, known.field]) !== JSON.stringify([v.fn, v.args, v.field]))
      throw new Error(`two lookups are named ${v.name}: give one of them another name (lookup's fourth argument)`);
    found.set(v.name, v);
  };
  for (const d of example.declarations) walk(d.args, add);
  Object.values(example.outputs).forEach((o) => walk(o, add));
  return [...found.values()];
}

/** The names of the resources whose outputs the program uses (in an argument or a stack output). */
export function referenced(example: Pick<ExampleProgram, "declarations" | "outputs">): Set<string> {
  const names = new Set<string>(Object.values(example.outputs).flatMap((o) => (o instanceof OutputValue ? [o.resource] : [])));
  for (const d of example.declarations) walk(d.args, (v) => v instanceof OutputValue && names.add(v.resource));
  return names;
}

/** Several examples as one program (one stack runs every kind's): their resources and outputs, whose names must not clash. */
export function combineExamples<K extends string>(examples: readonly ExampleProgram<K>[]): ExampleProgram<K> {
  const declarations = examples.flatMap((e) => e.declarations);
  const outputs: ExampleProgram<K>["outputs"] = {};
  for (const [name, value] of examples.flatMap((e) => Object.entries(e.outputs))) {
    if (name in outputs) throw new Error(`two examples export ${name}`);
    outputs[name] = value;
  }
  const names = declarations.map((d) => d.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`two examples declare a resource named ${twice}`);
  configValues(declarations);
  lookupValues({ declarations, outputs });
  return { doc: examples.map((e) => e.doc).join(" "), declarations, outputs };
}

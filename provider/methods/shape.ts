// A kind's shape: its inputs (the provider's own beside the contract's fields), its outputs
// and the nested types they reach, each with its words, read from its descriptor alone. The
// generator's renderers (TypeScript Args and State, docs/resources, README's table,
// schema.json) all read this, so an input or an output is said once: in the contract, in
// ./inputs.ts, or in a descriptor's `derived`.
import type { Contract, Field, FieldType, ObjectType } from "../../api/contract";
import { toCamel } from "../../api/names";
import type { Descriptor } from "./descriptor";
import { DERIVED, type OwnField } from "./inputs";

/** What a change of an input does. */
export type Change = "replaces" | "in place" | "never a diff";

export interface InputShape {
  readonly name: string;
  readonly field: Field & Partial<Pick<OwnField, "neverDiff" | "scope">>;
  /** The provider's own input (./inputs.ts), not a field of the API's body. */
  readonly own: boolean;
  readonly change: Change;
}

export interface OutputShape {
  readonly name: string;
  readonly type: FieldType;
  readonly doc: string;
  /** null is a value it may hold. */
  readonly nullable: boolean;
  /** Not every state holds it. */
  readonly optional: boolean;
  /**
   * Every state holds it, never null: a required input, a default the provider writes when the
   * record lacks it, a field every record carries (`inEveryRecord`), or what the provider derives.
   * schema.json marks it required (Go's SDK then has a plain output, not a pointer).
   */
  readonly always: boolean;
}

export interface KindShape {
  readonly contract: Contract;
  /** Required own inputs (the identity), the contract's fields, then the optional own inputs. */
  readonly inputs: readonly InputShape[];
  /** Inputs that are state, then the record's outputs, the derived ones, and taskIds. */
  readonly outputs: readonly OutputShape[];
  /** The object types the inputs and the record reach, by name. */
  readonly nested: ReadonlyMap<string, ObjectType>;
}

const changeOf = (f: Field & { neverDiff?: true }): Change => (f.set === "create" ? "replaces" : f.neverDiff ? "never a diff" : "in place");

function inputsOf(d: Descriptor): InputShape[] {
  const own = Object.entries(d.own);
  const input =
    (isOwn: boolean) =>
    ([name, field]: [string, OwnField | Field]) => ({ name, field, own: isOwn, change: changeOf(field) });
  return [
    ...own.filter(([, f]) => f.required).map(input(true)),
    ...Object.entries(d.contract.fields).map(input(false)),
    ...own.filter(([, f]) => !f.required).map(input(true)),
  ];
}

function outputsOf(d: Descriptor, inputs: readonly InputShape[]): OutputShape[] {
  const out = new Map<string, OutputShape>();
  const add = (o: OutputShape) => out.has(o.name) || out.set(o.name, o);
  const fromInput = ({ name, field, own }: InputShape): OutputShape => {
    const nullable = field.nullable === true || field.removedByDelete === true;
    const optional = !own && d.outputsOnlyGiven === true;
    const held =
      field.required === true || (!own && ((field.default !== undefined && field.default !== null) || field.inEveryRecord === true));
    return { name, type: field.type, doc: field.doc, nullable, optional, always: held && !nullable && !optional };
  };
  const state = (i: InputShape) => !(i.own && (d.own[i.name].notState || !i.field.required));
  for (const i of inputs.filter(state)) add(fromInput(i));
  for (const [wire, f] of Object.entries(d.contract.record))
    if (f.output) {
      const always = f.inEveryRecord === true && f.optional !== true;
      add({ name: toCamel(wire), type: f.type, doc: f.doc, nullable: false, optional: f.optional === true, always });
    }
  for (const name of d.derived ?? []) add({ name, ...DERIVED[name], nullable: false, optional: false, always: true });
  for (const i of inputs.filter((i) => i.own && !i.field.required && !d.own[i.name].notState)) add(fromInput(i));
  // A kind that adopts records says which it adopted; a state written before this output lacks it.
  if (d.own.importId) add({ name: "adopted", ...DERIVED.adopted, nullable: false, optional: true, always: false });
  add({ name: "taskIds", ...DERIVED.taskIds, nullable: false, optional: false, always: true });
  return [...out.values()];
}

/** Every object type a list of types reaches, each once, by name (two different types of one name fail). */
export function nestedTypes(types: Iterable<FieldType>, into = new Map<string, ObjectType>()): Map<string, ObjectType> {
  const visit = (t: FieldType): void => {
    if (t.kind === "array") return visit(t.items);
    if (t.kind !== "object") return;
    const known = into.get(t.name);
    if (known && known !== t) throw new Error(`two contract types are named ${t.name}`);
    into.set(t.name, t);
    for (const f of Object.values(t.fields)) visit(f.type);
    if (t.members) visit(t.members.type);
  };
  for (const t of types) visit(t);
  return into;
}

/** A kind's shape, from its descriptor: what every renderer of the kind reads. */
export function shapeOf(d: Descriptor): KindShape {
  const inputs = inputsOf(d);
  const types = [...inputs.map((i) => i.field.type), ...Object.values(d.contract.record).map((f) => f.type)];
  return { contract: d.contract, inputs, outputs: outputsOf(d, inputs), nested: nestedTypes(types) };
}

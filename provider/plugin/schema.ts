// The Pulumi package schema of `pulumi-resource-cims`, generated from the contract
// (api/contract) and the kinds' descriptors: each kind's inputs (its contract's fields and the
// provider's own inputs) and outputs (the state create records), nested objects as named
// types, and the provider's configuration with `apiKey` secret. `pulumi package get-schema`
// prints it; YAML programs are type-checked against it; `pulumi import` writes code from it.
import type { Contract, Field, FieldType, ObjectType } from "../../api/contract";
import { toCamel } from "../../api/names";
import { CONFIG_KEYS, CONFIG_TABLE, type ConfigEntry } from "../config";
import { PROVIDER_INPUTS, PROVIDER_OUTPUTS } from "../methods/inputs";
import type { Kind } from "../kinds/registry";
import { KIND_NAMES, kind } from "../kinds/registry";

type Json = Record<string, unknown>;
type Property = Json;

/** The schema type of a contract type (int64: decimal strings; nested objects: their named type). */
function typeOf(t: FieldType): Property {
  switch (t.kind) {
    case "string":
      return t.enum
        ? { type: "string", description: `One of: ${[...t.enum, ...Object.keys(t.aliases ?? {})].join(", ")}.` }
        : { type: "string" };
    case "integer":
      return t.int64 ? { type: "string", description: "A signed 64-bit integer, as its decimal digits." } : { type: "integer" };
    case "boolean":
      return { type: "boolean" };
    case "tags":
      return { type: "object", additionalProperties: { type: "string" } };
    case "array":
      return { type: "array", items: typeOf(t.items) };
    case "object":
      return { $ref: `#/types/cims:index:${t.name}` };
  }
}

/** A field's schema property: its type, described by the contract's words (and an enum's values). */
function propertyOf(f: Pick<Field, "type" | "doc">): Property {
  const p = typeOf(f.type);
  return { ...p, description: typeof p.description === "string" ? `${f.doc} ${p.description}` : f.doc };
}

/** Every object type nested in a contract's fields and record, each once, by name. */
function namedTypes(contracts: readonly Contract[]): Map<string, ObjectType> {
  const found = new Map<string, ObjectType>();
  const visit = (t: FieldType): void => {
    if (t.kind === "array") visit(t.items);
    if (t.kind !== "object") return;
    const known = found.get(t.name);
    if (known && known !== t) throw new Error(`two contract types are named ${t.name}`);
    found.set(t.name, t);
    for (const f of Object.values(t.fields)) visit(f.type);
    if (t.members) visit(t.members.type);
  };
  for (const c of contracts) for (const f of [...Object.values(c.fields), ...Object.values(c.record)]) visit(f.type);
  return found;
}

/** A named object type: its fields, and its members by their Pulumi names. */
function objectTypeOf(t: ObjectType): Json {
  const description = t.doc;
  const properties: Json = Object.fromEntries(Object.entries(t.fields).map(([name, f]) => [name, propertyOf(f)]));
  for (const member of t.members?.names ?? [])
    properties[toCamel(member)] = propertyOf({ type: t.members!.type, doc: `The ${t.members!.what} \`${toCamel(member)}\`.` });
  const required = Object.entries(t.fields)
    .filter(([, f]) => f.required)
    .map(([name]) => name);
  return { type: "object", description, properties, ...(required.length > 0 ? { required } : {}) };
}

function resourceOf(type: Kind): Json {
  const d = kind(type).descriptor;
  const inputProperties: Record<string, Property> = {};
  for (const [name, f] of Object.entries(d.contract.fields)) {
    const p = propertyOf(f);
    inputProperties[name] = f.set === "create" ? { ...p, description: `${String(p.description)} Changing it replaces the resource.` } : p;
  }
  for (const name of Object.keys(d.extra)) {
    const extra = PROVIDER_INPUTS[name];
    if (!extra) throw new Error(`${type}'s input ${name} has no entry in provider/methods/inputs.ts`);
    inputProperties[name] = { ...extra.schema, description: extra.doc };
  }
  const requiredInputs = [
    ...Object.entries(d.contract.fields)
      .filter(([, f]) => f.required)
      .map(([name]) => name),
    ...Object.entries(d.extra)
      .filter(([, schema]) => !schema.safeParse(undefined).success)
      .map(([name]) => name),
  ];
  // The record's additions to the outputs, by the keys its descriptor maps (read off an empty record).
  const added = Object.keys(d.record?.({}) ?? {});
  const recordOutputs = new Map(
    Object.entries(d.contract.record)
      .filter(([, f]) => f.output)
      .map(([wire, f]) => [toCamel(wire), propertyOf(f)]),
  );
  const outputOf = (k: string): Property => {
    const derived = PROVIDER_OUTPUTS[k];
    const p = inputProperties[k] ?? recordOutputs.get(k) ?? (derived && { ...derived.schema, description: derived.doc });
    if (!p) throw new Error(`${type}'s output ${k} is neither an input, a record field marked output, nor derived`);
    return p;
  };
  const properties: Json = { ...inputProperties, ...Object.fromEntries([...added, "taskIds"].map((k) => [k, outputOf(k)])) };
  return {
    description: d.contract.doc,
    inputProperties,
    requiredInputs,
    properties,
    required: [...requiredInputs, "taskIds"],
  };
}

/** A configuration key's description: its words, its default (or that it is required) and its environment variable. */
function configDescription(e: ConfigEntry): string {
  const given = e.required ? "Required" : e.default === undefined ? "" : `Default: ${String(e.default)}`;
  const fallback = e.env ? `${e.required ? "or" : "else"} the environment variable ${e.env}` : "";
  const said = [given, fallback].filter(Boolean).join(e.required ? ", " : "; ");
  return said ? `${e.words} ${said.charAt(0).toUpperCase()}${said.slice(1)}.` : e.words;
}

/** The provider's configuration (`cims:<key>`), as the dynamic face reads it: every key of config.ts's table. */
export const PROVIDER_CONFIG: Readonly<Record<string, Property>> = Object.fromEntries(
  CONFIG_KEYS.map((key) => {
    const e: ConfigEntry = CONFIG_TABLE[key];
    return [key, { type: e.type, ...(e.secret ? { secret: true } : {}), description: configDescription(e) }];
  }),
);

export function packageSchema(version: string): Json {
  const types: Json = {
    "cims:index:Timeouts": {
      type: "object",
      description:
        "Per-operation deadlines in seconds; each overrides `cims:taskTimeoutSeconds`. The `customTimeouts` resource option bounds the same waits; given both, the smaller wins.",
      properties: {
        create: { type: "number", description: "Seconds to wait for a create's tasks." },
        update: { type: "number", description: "Seconds to wait for an update's tasks." },
        delete: { type: "number", description: "Seconds to wait for a delete's tasks." },
      },
    },
  };
  const named = namedTypes(KIND_NAMES.map((type) => kind(type).descriptor.contract));
  for (const [name, t] of [...named].sort(([a], [b]) => a.localeCompare(b))) types[`cims:index:${name}`] = objectTypeOf(t);
  return {
    name: "cims",
    displayName: "CIMS",
    version,
    description: `The Cloud Infrastructure Management Service (CIMS): ${KIND_NAMES.join(", ")}.`,
    keywords: ["pulumi", "cims", "category/cloud"],
    license: "Apache-2.0",
    config: { variables: PROVIDER_CONFIG },
    provider: { description: "The CIMS provider: where the API is, and its key.", inputProperties: PROVIDER_CONFIG },
    types,
    resources: Object.fromEntries(KIND_NAMES.map((type) => [`cims:index:${type}`, resourceOf(type)])),
    // The Python SDK (sdk/python) carries this version, so a program asks for this plugin's
    // version; without it the generator writes 0.0.0 for a release step to replace.
    language: { python: { packageName: "pulumi_cims", respectSchemaVersion: true, pyproject: { enabled: true } } },
  };
}

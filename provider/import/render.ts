// One adoption program (generate.ts: its resources and their arguments) in each language a
// team writes Pulumi in: TypeScript on the dynamic face (`new cims.Subnet`), YAML
// (`type: cims:index:Subnet`), Python (`pulumi_cims`) and Go (the generated SDK) on the plugin
// face. The plugin's inputs have the dynamic face's names (importId, poolId, ...; Python's
// snake_case of them, Go's exported ones) and take the same values, so every language adopts
// alike and its first `pulumi up` writes nothing.
// Only what differs is per language: a comment's mark, a value, a resource's statement; the
// head, the sections and the comments' wrapping are shared.
// Each kind's docs example (program.ts's ExampleProgram) is written by these renderers too, so
// the docs' programs come from one model and follow any change here (an input's new Go type,
// say); the examples are written in Java too, which cims-import does not write. Not `pulumi convert`: it would need each example as PCL text and, at `npm run
// gen`, the CLI and every language host's program generator (GenerateProgram), to write code
// unlike the programs cims-import writes, whose tests already hold these renderers.
import { type FieldType, nullWords, type ObjectType } from "../../api/contract";
import { isJsonRecord } from "../../api/json";
import { enumMemberName, toSnake } from "../../api/names";
import { KIND_NAMES, type Kind, kind } from "../kinds/registry";
import {
  ConfigValue,
  configValues,
  type Declaration,
  type ExampleProgram,
  ItemValue,
  LookupValue,
  lookupValues,
  OutputValue,
  referenced,
} from "../kinds/program-model";
import type { AdoptionProgram } from "./program";
import { goString, javaString, pyString, tsString, UnwritableTextError, visible, yamlString } from "./quote";

export const LANGUAGES = ["typescript", "yaml", "python", "go"] as const;
export type Language = (typeof LANGUAGES)[number];
/** The languages of the docs examples: cims-import's, and Java, which only the examples are written in. */
export const EXAMPLE_LANGUAGES = [...LANGUAGES, "java"] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

/** An object's fields that are set ([] for anything else). */
const entries = (o: unknown) => (isJsonRecord(o) ? Object.entries(o).filter(([, v]) => v !== undefined) : []);

const WIDTH = 100;

interface Renderer {
  /** What opens a comment line. */
  comment: string;
  /** How the head spells an argument and the option that protects, when not as the schema and YAML do (Python). */
  spelling?: { argName: (name: string) => string; protectOption: string };
  /**
   * Between the head and the resources: the package's import, the config the program reads and
   * the lookups it makes (each bound to its variable), then YAML's `resources:`.
   */
  opening: (config: readonly ConfigValue[], lookups: readonly LookupValue[]) => string;
  /** The indentation of the resources' comments. */
  indent: string;
  /** A resource's statement; `variable`: the name it is bound to, when the program uses its outputs. */
  declaration: (d: Declaration<Kind>, protect: boolean, variable?: string) => string;
  /** The stack's outputs, after the resources. */
  exports: (outputs: ReadonlyArray<[string, OutputValue | LookupValue | ItemValue]>) => string;
  /** After the resources (Go's end of its function). */
  closing?: string;
  /** The whole program made final (Java's imports, which name what the rest of it uses). */
  finish?: (text: string) => string;
  /** Whether a program in it can give null (TypeScript): elsewhere the SDK drops it, so a field's null word is written. */
  givesNull?: true;
}

/** A resource's or a config value's name as a variable: `app-subnet` -> `appSubnet`. */
const camel = (name: string) => name.replace(/[-_ ]+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());

/** A language's words for null and the booleans, and its string literal (quote.ts: every text escaped). */
interface Words {
  nil: string;
  yes: string;
  no: string;
  string: (text: string) => string;
}

/** null, booleans, numbers and strings in a language's words; undefined for a list or an object. */
function scalar(value: unknown, words: Words): string | undefined {
  if (value === null) return words.nil;
  if (typeof value === "boolean") return value ? words.yes : words.no;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value) || isJsonRecord(value)) return undefined;
  // int64 numbers (bigints, lossless numbers) as their decimal digits, as the schema types them.
  return words.string(typeof value === "string" ? value : String(value));
}

/** Items between brackets: on one line when it fits, else one a line, one `step` further in than `indent`. */
function bracketed(open: string, close: string, items: (inner: string) => string[], indent: string, step: string, pad = ""): string {
  const inner = indent + step;
  const parts = items(inner);
  if (parts.length === 0) return `${open}${close}`;
  const flat = `${open}${pad}${parts.join(", ")}${pad}${close}`;
  if (!flat.includes("\n") && indent.length + flat.length <= WIDTH) return flat;
  return `${open}\n${parts.map((p) => `${inner}${p},\n`).join("")}${indent}${close}`;
}

// ---------------------------------------------------------------------------------------
// TypeScript: the dynamic face, two-space indent, one line when short.
// ---------------------------------------------------------------------------------------

const TS_WORDS: Words = { nil: "null", yes: "true", no: "false", string: tsString };
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const tsKey = (k: string) => (IDENTIFIER.test(k) ? k : tsString(k));

/** A value as a TypeScript expression; `indent` is the current line's indentation. */
export function printValue(value: unknown, indent = ""): string {
  if (value instanceof ConfigValue) return camel(value.key);
  if (value instanceof LookupValue) return camel(value.name);
  if (value instanceof ItemValue) return `${camel(value.list.name)}[${value.index}].${value.field}`;
  if (value instanceof OutputValue) return `${camel(value.resource)}.${value.output}`;
  const s = scalar(value, TS_WORDS);
  if (s !== undefined) return s;
  if (Array.isArray(value)) return bracketed("[", "]", (inner) => value.map((v) => printValue(v, inner)), indent, "  ");
  return bracketed("{", "}", (inner) => entries(value).map(([k, v]) => `${tsKey(k)}: ${printValue(v, inner)}`), indent, "  ", " ");
}

const TS_CONFIG = { string: "require", integer: "requireNumber" } as const;

/** A lookup's arguments as one line's fields: `name: "demo-net"`, `name="demo-net"`, ... */
const lookupArgs = (l: LookupValue, field: (k: string, v: string) => string, literal: (v: LookupValue["args"][string]) => string) =>
  Object.entries(l.args)
    .map(([k, v]) => field(k, literal(v)))
    .join(", ");

const typescript: Renderer = {
  givesNull: true,
  comment: "//",
  opening: (config, lookups) =>
    (config.length > 0 ? 'import * as pulumi from "@pulumi/pulumi";\n' : "") +
    'import * as cims from "pulumi-cims";\n' +
    (config.length > 0
      ? `\nconst config = new pulumi.Config();\n${config.map((c) => `const ${camel(c.key)} = config.${TS_CONFIG[c.type]}(${tsString(c.key)});\n`).join("")}`
      : "") +
    (lookups.length > 0 ? "\n" : "") +
    lookups
      .map(
        (l) =>
          `const ${camel(l.name)} = cims.${l.fn}Output({ ${lookupArgs(
            l,
            (k, v) => `${tsKey(k)}: ${v}`,
            (v) => printValue(v),
          )} }).${l.field};\n`,
      )
      .join(""),
  indent: "",
  declaration: (d, protect, variable) => {
    const body = entries(d.args)
      .map(([k, v]) => `  ${tsKey(k)}: ${printValue(v, "  ")},\n`)
      .join("");
    const bound = variable ? `const ${variable} = ` : "";
    return `${bound}new cims.${d.type}(${tsString(d.name)}, {\n${body}}${protect ? ", { protect: true }" : ""});\n`;
  },
  exports: (outputs) => outputs.map(([name, o]) => `export const ${name} = ${printValue(o)};\n`).join(""),
};

// ---------------------------------------------------------------------------------------
// YAML: the plugin's types (`cims:index:<Kind>`), block style; scalars as JSON, which YAML reads.
// ---------------------------------------------------------------------------------------

const YAML_WORDS: Words = { nil: "null", yes: "true", no: "false", string: yamlString };
/** Words YAML would read as another type, so a key spelled like one is quoted. */
const YAML_WORD = /^(true|false|null|yes|no|on|off|y|n|~)$/i;
const yamlKey = (k: string) => (/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(k) && !YAML_WORD.test(k) ? k : yamlString(k));
/**
 * A map's key as Pulumi YAML reads it: a key `fn::...` (any case) makes its object a function
 * call (`fn::readFile` reads a file on the machine that runs `pulumi up`), and no spelling of the
 * key escapes that, so a record holding one is refused.
 */
function yamlMapKey(k: string): string {
  if (!/^fn::/i.test(k)) return yamlKey(k);
  throw new UnwritableTextError(
    `a key ${yamlString(k)} of the record's data: Pulumi YAML reads an object keyed \`fn::...\` as a function call, ` +
      "and no quoting escapes it: write the program with --language typescript, python or go. Nothing was written.",
  );
}
/** A scalar, an empty list or an empty object on its key's line (a string's `$` doubled: yamlString). */
function yamlFlat(value: unknown): string | undefined {
  if (value instanceof ConfigValue) return `\${${value.key}}`;
  if (value instanceof LookupValue) return `\${${camel(value.name)}}`;
  if (value instanceof ItemValue) return `\${${camel(value.list.name)}[${value.index}].${value.field}}`;
  if (value instanceof OutputValue) return `\${${value.resource}.${value.output}}`;
  const s = scalar(value, YAML_WORDS);
  if (s !== undefined) return s;
  if (Array.isArray(value) && value.length === 0) return "[]";
  if (isJsonRecord(value) && entries(value).length === 0) return "{}";
  return undefined;
}

/** A list or an object as block lines at `indent` (a list's items each after `- `). */
function yamlBlock(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    return value
      .map((item) => {
        const flat = yamlFlat(item);
        return flat !== undefined ? `${indent}- ${flat}\n` : `${indent}- ${yamlBlock(item, `${indent}  `).slice(indent.length + 2)}`;
      })
      .join("");
  }
  return entries(value)
    .map(([k, v]) => {
      const flat = yamlFlat(v);
      return flat !== undefined ? `${indent}${yamlMapKey(k)}: ${flat}\n` : `${indent}${yamlMapKey(k)}:\n${yamlBlock(v, `${indent}  `)}`;
    })
    .join("");
}

/** A lookup as a variable: `fn::invoke` of its function, with its arguments, answering its field. */
const yamlLookup = (l: LookupValue) =>
  `  ${camel(l.name)}:\n    fn::invoke:\n      function: cims:index:${l.fn}\n      arguments:\n` +
  Object.entries(l.args)
    .map(([k, v]) => `        ${yamlKey(k)}: ${scalar(v, YAML_WORDS)}\n`)
    .join("") +
  `      return: ${l.field}\n`;

const yaml: Renderer = {
  comment: "#",
  opening: (config, lookups) =>
    (config.length > 0 ? `config:\n${config.map((c) => `  ${yamlKey(c.key)}:\n    type: ${c.type}\n`).join("")}` : "") +
    (lookups.length > 0 ? `variables:\n${lookups.map(yamlLookup).join("")}` : "") +
    "resources:\n",
  indent: "  ",
  declaration: (d, protect) =>
    `  ${yamlKey(d.name)}:\n    type: cims:index:${d.type}\n` +
    (entries(d.args).length > 0 ? `    properties:\n${yamlBlock(d.args, "      ")}` : "") +
    (protect ? "    options:\n      protect: true\n" : ""),
  exports: (outputs) =>
    outputs.length > 0 ? `outputs:\n${outputs.map(([name, o]) => `  ${yamlKey(name)}: ${yamlFlat(o) ?? ""}\n`).join("")}` : "",
  // A program of lookups alone (a lookup's page) declares no resource: no empty `resources:`.
  finish: (text) => text.replace(/^resources:\n\n(?=outputs:|$)/m, ""),
};

// ---------------------------------------------------------------------------------------
// Python: the `pulumi_cims` SDK (sdk/python), snake_case arguments, nested objects as their
// `<Type>Args` classes (the contract's types name them), four-space indent.
// ---------------------------------------------------------------------------------------

const PY_WORDS: Words = { nil: "None", yes: "True", no: "False", string: pyString };

/**
 * A value of a named enum as the SDKs name it: the enum's and the value's name (`LbAlgorithm`,
 * `RoundRobin`), as schema.json's enum types give them; undefined for any other value.
 */
function enumMember(value: unknown, type: FieldType | undefined): { type: string; member: string } | undefined {
  if (type?.kind === "integer" && type.name && typeof value === "number" && type.enum?.includes(value))
    return { type: type.name, member: enumMemberName(String(value)) };
  if (type?.kind !== "string" || !type.name || typeof value !== "string") return undefined;
  const values = [...(type.enum ?? []), ...Object.keys(type.aliases ?? {})];
  return values.includes(value) ? { type: type.name, member: enumMemberName(value) } : undefined;
}
/** The type of an object's field, or of its further members (quota entries). */
const fieldType = (t: ObjectType, name: string): FieldType | undefined => t.fields[name]?.type ?? t.members?.type;

/** A value as a Python expression; `type`: the contract's type of it, which names its Args class. */
function pyValue(value: unknown, type: FieldType | undefined, indent: string): string {
  if (value instanceof ConfigValue) return toSnake(value.key);
  if (value instanceof LookupValue) return toSnake(camel(value.name));
  if (value instanceof ItemValue) return `${toSnake(camel(value.list.name))}[${value.index}].${toSnake(value.field)}`;
  if (value instanceof OutputValue) return `${toSnake(camel(value.resource))}.${toSnake(value.output)}`;
  const named = enumMember(value, type);
  // Python's enum members are the value's name in capitals: `cims.LbAlgorithm.ROUND_ROBIN`.
  if (named) return `cims.${named.type}.${named.member.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}`;
  const s = scalar(value, PY_WORDS);
  if (s !== undefined) return s;
  if (Array.isArray(value)) {
    const item = type?.kind === "array" ? type.items : undefined;
    return bracketed("[", "]", (inner) => value.map((v) => pyValue(v, item, inner)), indent, "    ");
  }
  const o = entries(value);
  if (type?.kind === "object") {
    const args = (inner: string) => o.map(([k, v]) => `${toSnake(k)}=${pyValue(v, fieldType(type, k), inner)}`);
    return bracketed(`cims.${type.name}Args(`, ")", args, indent, "    ");
  }
  // A map (tags): its keys are data, kept as they are.
  return bracketed("{", "}", (inner) => o.map(([k, v]) => `${pyString(k)}: ${pyValue(v, undefined, inner)}`), indent, "    ");
}

const PY_CONFIG = { string: "require", integer: "require_int" } as const;

const python: Renderer = {
  comment: "#",
  spelling: { argName: toSnake, protectOption: "protect=True" },
  opening: (config, lookups) =>
    "import pulumi\nimport pulumi_cims as cims\n" +
    (config.length > 0
      ? `\nconfig = pulumi.Config()\n${config.map((c) => `${toSnake(c.key)} = config.${PY_CONFIG[c.type]}(${pyString(c.key)})\n`).join("")}`
      : "") +
    (lookups.length > 0 ? "\n" : "") +
    lookups
      .map(
        (l) =>
          `${toSnake(camel(l.name))} = cims.${toSnake(l.fn)}_output(${lookupArgs(
            l,
            (k, v) => `${toSnake(k)}=${v}`,
            (v) => pyValue(v, undefined, ""),
          )}).${toSnake(l.field)}\n`,
      )
      .join(""),
  indent: "",
  declaration: (d, protect, variable) => {
    const fields = kind(d.type).descriptor.contract.fields;
    const args = entries(d.args).map(([k, v]) => `${toSnake(k)}=${pyValue(v, fields[k]?.type, "    ")}`);
    const opts = protect ? ["opts=pulumi.ResourceOptions(protect=True)"] : [];
    const bound = variable ? `${toSnake(variable)} = ` : "";
    return `${bound}cims.${d.type}(\n${[pyString(d.name), ...args, ...opts].map((a) => `    ${a},\n`).join("")})\n`;
  },
  exports: (outputs) => outputs.map(([name, o]) => `pulumi.export(${pyString(name)}, ${pyValue(o, undefined, "")})\n`).join(""),
};

// ---------------------------------------------------------------------------------------
// Go: the SDK `pulumi package gen-sdk --language go` writes (docs/platform.md), at the import
// path schema.json gives it (the repository's). Go has no null input: a null field is left out,
// as Python's None is, unless it has a word that stands for null (spelledFor).
// ---------------------------------------------------------------------------------------

/** The SDK's package: schema.json's `language.go.importBasePath`. */
export const GO_SDK_PACKAGE = "github.com/pulumi-cims/pulumi-cims/sdk/go/cims";
const goField = (name: string) => `${name[0].toUpperCase()}${name.slice(1)}`;
const GO_WORDS: Words = { ...TS_WORDS, string: goString };
const GO_SCALARS: Partial<Record<FieldType["kind"], string>> = { string: "String", integer: "Int", boolean: "Bool" };

/** The Go type of a list of `items`: `pulumi.StringArray`, `cims.PoolMemberArray`, ... */
function goArrayType(items: FieldType | undefined): string {
  if (items?.kind === "object") return `cims.${items.name}Array`;
  const scalarType = items && !(items.kind === "integer" && items.int64) ? GO_SCALARS[items.kind] : "String";
  return scalarType ? `pulumi.${scalarType}Array` : "pulumi.Array";
}

/** A value as a Go input expression; `type`: the contract's type of it. */
function goValue(value: unknown, type: FieldType | undefined, indent: string): string {
  if (value instanceof ConfigValue) return `pulumi.${value.type === "integer" ? "Int" : "String"}(${camel(value.key)})`;
  if (value instanceof LookupValue) return camel(value.name);
  // A list's `Index` answers the record's Output, whose methods are its fields.
  if (value instanceof ItemValue) return `${camel(value.list.name)}.Index(pulumi.Int(${value.index})).${goField(value.field)}()`;
  if (value instanceof OutputValue)
    return value.output === "id" ? `${camel(value.resource)}.ID()` : `${camel(value.resource)}.${goField(value.output)}`;
  // An enum field takes the enum's type (`cims.LbAlgorithmInput`), which pulumi.String is not.
  const named = enumMember(value, type);
  // Go's generator puts `_` between the two names when the value's holds one (`ImageArchitecture_X86_64`).
  if (named) return `cims.${named.type}${named.member.includes("_") ? "_" : ""}${named.member}`;
  const s = scalar(value, GO_WORDS);
  if (s !== undefined) {
    if (typeof value === "boolean") return `pulumi.Bool(${s})`;
    if (typeof value === "number" && !(type?.kind === "integer" && type.int64))
      return `pulumi.${Number.isInteger(value) ? "Int" : "Float64"}(${s})`;
    return `pulumi.String(${typeof value === "number" ? goString(s) : s})`;
  }
  if (Array.isArray(value)) {
    const item = type?.kind === "array" ? type.items : undefined;
    return bracketed(`${goArrayType(item)}{`, "}", (inner) => value.map((v) => goValue(v, item, inner)), indent, "\t");
  }
  const set = entries(value).filter(([, v]) => v !== null);
  if (type?.kind === "object") {
    const fields = (inner: string) => set.map(([k, v]) => `${goField(k)}: ${goValue(v, fieldType(type, k), inner)}`);
    return bracketed(`cims.${type.name}Args{`, "}", fields, indent, "\t");
  }
  return bracketed(
    "pulumi.StringMap{",
    "}",
    (inner) => set.map(([k, v]) => `${goString(k)}: ${goValue(v, undefined, inner)}`),
    indent,
    "\t",
  );
}

const GO_CONFIG = { string: "Require", integer: "RequireInt" } as const;

/**
 * A kind's name in the Go SDK: Go's generator gives a resource whose name is another's state
 * type (SnapshotPolicyState, SnapshotPolicy's `<Name>State`) the suffix `Resource`.
 */
export const goResourceName = (type: string): string => (KIND_NAMES.some((k) => `${k}State` === type) ? `${type}Resource` : type);

/**
 * A lookup's function in the Go SDK: Go's generator names one whose name, less `get`, is a
 * resource's (getSnapshotPolicy) `Lookup<Name>`, and its types after it.
 */
export const goLookupName = (fn: string): string => {
  const rest = goField(fn.replace(/^get/, ""));
  return KIND_NAMES.some((k) => k === rest) ? `Lookup${rest}` : goField(fn);
};

/** A lookup's argument in Go: the Output form's arguments are pointers (`pulumi.StringPtr`). */
function goLookupArg(v: LookupValue["args"][string]): string {
  if (typeof v === "boolean") return `pulumi.BoolPtr(${v})`;
  if (typeof v === "number") return `pulumi.IntPtr(${v})`;
  return `pulumi.StringPtr(${goString(v)})`;
}

const goLookup = (l: LookupValue) => {
  const fn = goLookupName(l.fn);
  const args = lookupArgs(l, (k, v) => `${goField(k)}: ${v}`, goLookupArg);
  return `\t\t${camel(l.name)} := cims.${fn}Output(ctx, cims.${fn}OutputArgs{${args}}).${goField(l.field)}()\n`;
};

const go: Renderer = {
  comment: "//",
  spelling: { argName: goField, protectOption: "pulumi.Protect(true)" },
  opening: (config, lookups) =>
    `package main\n\nimport (\n\t"${GO_SDK_PACKAGE}"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n` +
    (config.length > 0 ? '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"\n' : "") +
    ")\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n" +
    (config.length > 0
      ? `\t\tcfg := config.New(ctx, "")\n${config.map((c) => `\t\t${camel(c.key)} := cfg.${GO_CONFIG[c.type]}(${goString(c.key)})\n`).join("")}`
      : "") +
    lookups.map(goLookup).join(""),
  indent: "\t\t",
  declaration: (d, protect, variable) => {
    const fields = kind(d.type).descriptor.contract.fields;
    const set = entries(d.args).filter(([, v]) => v !== null);
    const body = set.map(([k, v]) => `\t\t\t${goField(k)}: ${goValue(v, fields[k]?.type, "\t\t\t")},\n`).join("");
    const call = `cims.New${goResourceName(d.type)}(ctx, ${goString(d.name)}, &cims.${goResourceName(d.type)}Args{\n${body}\t\t}${protect ? ", pulumi.Protect(true)" : ""})`;
    if (variable) return `\t\t${variable}, err := ${call}\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n`;
    return `\t\tif _, err := ${call}; err != nil {\n\t\t\treturn err\n\t\t}\n`;
  },
  exports: (outputs) => outputs.map(([name, o]) => `\t\tctx.Export(${goString(name)}, ${goValue(o, undefined, "")})\n`).join(""),
  closing: "\t\treturn nil\n\t})\n}\n",
};

// ---------------------------------------------------------------------------------------
// Java: the SDK in sdk/java (`com.pulumi.cims`), each resource's and nested type's builder,
// enums as the SDK's enum types; a null field is left out, as in Go. The class is `app.App`,
// the main class the docs' pom.xml names.
// ---------------------------------------------------------------------------------------

const JAVA_WORDS: Words = { ...TS_WORDS, string: javaString };
const JAVA_STEP = "    ";

/**
 * A builder's fields as `.name(value)` calls then `.build()`: on one line when it fits from
 * `column` on, else one call a line, one step further in than `indent`.
 */
function javaBuilder(
  open: string,
  fields: Array<[string, unknown]>,
  types: (name: string) => FieldType | undefined,
  indent: string,
  column: number,
): string {
  const inner = indent + JAVA_STEP;
  const calls = (lead: (k: string) => number) => [...fields.map(([k, v]) => `${k}(${javaValue(v, types(k), inner, lead(k))})`), "build()"];
  const flat = `${open}${calls((k) => column + open.length + k.length + 2)
    .map((c) => `.${c}`)
    .join("")}`;
  if (!flat.includes("\n") && column + flat.length <= WIDTH) return flat;
  return `${open}${calls((k) => inner.length + k.length + 2)
    .map((c) => `\n${inner}.${c}`)
    .join("")}`;
}

/** Items as `<open>a, b)` on one line when it fits from `column` on, else one a line, one step further in than `indent`. */
function javaCall(
  open: string,
  items: (inner: string, column: (at: number) => number) => string[],
  indent: string,
  column: number,
): string {
  const inner = indent + JAVA_STEP;
  const flat = `${open}${items(inner, () => column + open.length).join(", ")})`;
  if (!flat.includes("\n") && column + flat.length <= WIDTH) return flat;
  return `${open}\n${items(inner, () => inner.length)
    .map((p) => `${inner}${p}`)
    .join(",\n")})`;
}

/** A value as a Java expression from `column` on; `type`: the contract's type of it (an enum's, a builder's, a Double's). */
function javaValue(value: unknown, type: FieldType | undefined, indent: string, column: number): string {
  if (value instanceof ConfigValue) return camel(value.key);
  if (value instanceof LookupValue) return camel(value.name);
  if (value instanceof ItemValue) return `${camel(value.list.name)}.applyValue(found -> found.get(${value.index}).${value.field}())`;
  if (value instanceof OutputValue) return `${camel(value.resource)}.${value.output}()`;
  const named = enumMember(value, type);
  if (named) return `${named.type}.${named.member}`;
  if (typeof value === "number" && type?.kind === "number" && Number.isInteger(value)) return `${value}.0`;
  // int64 numbers are decimal strings in the SDKs, as the schema types them.
  if (typeof value === "number" && type?.kind === "integer" && type.int64) return javaString(String(value));
  const s = scalar(value, JAVA_WORDS);
  if (s !== undefined) return s;
  if (Array.isArray(value)) {
    const item = type?.kind === "array" ? type.items : undefined;
    return javaCall("List.of(", (inner, at) => value.map((v) => javaValue(v, item, inner, at(0))), indent, column);
  }
  const set = entries(value).filter(([, v]) => v !== null);
  if (type?.kind === "object") return javaBuilder(`${type.name}Args.builder()`, set, (k) => fieldType(type, k), indent, column);
  const pairs = (inner: string, at: (n: number) => number) =>
    set.map(([k, v]) => `${javaString(k)}, ${javaValue(v, undefined, inner, at(0))}`);
  if (set.length <= 10) return javaCall("Map.of(", pairs, indent, column);
  return javaCall("Map.ofEntries(", (inner, at) => pairs(inner, at).map((p) => `Map.entry(${p})`), indent, column);
}

const JAVA_CONFIG = { string: "require", integer: "requireInteger" } as const;

/** Where each class a Java program names comes from, by its simple name; undefined for none (a local). */
function javaImport(name: string, enumLike: boolean): string | undefined {
  if (name === "Context" || name === "Pulumi") return `com.pulumi.${name}`;
  if (name === "CimsFunctions") return "com.pulumi.cims.CimsFunctions";
  if (name === "List" || name === "Map") return `java.util.${name}`;
  if (KIND_NAMES.some((k) => name === k || name === `${k}Args`)) return `com.pulumi.cims.${name}`;
  if (name.endsWith("Args")) return `com.pulumi.cims.inputs.${name}`;
  return enumLike ? `com.pulumi.cims.enums.${name}` : undefined;
}

/** The program with its imports: each class its code names (string literals aside), sorted, after its package line. */
function javaImports(text: string): string {
  const code = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const names = new Set<string>();
  for (const m of code.matchAll(/\b([A-Z][A-Za-z0-9_]*)\b(\.[A-Z])?/g)) {
    const from = javaImport(m[1], m[2] !== undefined);
    if (from) names.add(from);
  }
  const imports = [...names].sort().map((n) => `import ${n};\n`);
  return text.replace(/^package app;\n/, `package app;\n\n${imports.join("")}`);
}

/** A lookup in Java: the SDK's `CimsFunctions.get<Name>(args)` answers an Output of the whole record; its field from it. */
const javaLookup = (l: LookupValue) => {
  const Name = goField(l.fn);
  const args = Object.entries(l.args)
    .map(([k, v]) => `.${k}(${javaValue(v, undefined, "", 0)})`)
    .join("");
  return `        final var ${camel(l.name)} = CimsFunctions.${l.fn}(${Name}Args.builder()${args}.build()).applyValue(r -> r.${l.field}());\n`;
};

const java: Renderer = {
  comment: "//",
  opening: (config, lookups) =>
    "package app;\n\npublic class App {\n    public static void main(String[] args) {\n        Pulumi.run(App::stack);\n    }\n\n" +
    "    public static void stack(Context ctx) {\n" +
    config.map((c) => `        final var ${camel(c.key)} = ctx.config().${JAVA_CONFIG[c.type]}(${javaString(c.key)});\n`).join("") +
    lookups.map(javaLookup).join(""),
  indent: "        ",
  declaration: (d, _protect, variable) => {
    const fields = kind(d.type).descriptor.contract.fields;
    const set = entries(d.args).filter(([, v]) => v !== null);
    const lead = `        ${variable ? `var ${variable} = ` : ""}new ${d.type}(${javaString(d.name)}, `;
    // The statement's `);` counts on the builder's line.
    const args = javaBuilder(`${d.type}Args.builder()`, set, (k) => fields[k]?.type, "        ", lead.length + 2);
    return `${lead}${args});\n`;
  },
  exports: (outputs) =>
    outputs.map(([name, o]) => `        ctx.export(${javaString(name)}, ${javaValue(o, undefined, "", 0)});\n`).join(""),
  closing: "    }\n}\n",
  finish: javaImports,
};

const RENDERERS: Readonly<Record<ExampleLanguage, Renderer>> = { typescript, yaml, python, go, java };

/** A comment as lines of at most WIDTH columns, each opened by `mark`; no character of `text` can end it (quote.ts's visible). */
function commentLines(text: string, mark: string): string {
  const lines: string[] = [];
  for (const word of visible(text).split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= WIDTH) lines[last] += ` ${word}`;
    else lines.push(`${mark} ${word}`);
  }
  return lines.join("\n");
}

/** The program's head: what it does, how it protects, and the lines cims-import adds (the command, what Terraform lets go). */
function head(r: Renderer, program: AdoptionProgram): string[] {
  const { argName, protectOption } = r.spelling ?? { argName: (name: string) => name, protectOption: "protect: true" };
  const ids = ["importId", "poolId", "policyId", "clientId"].map(argName).join(", ");
  return [
    "Generated by cims-import (pulumi-cims). Each resource adopts a record the service already",
    `holds (${ids}) with every field as the service holds it, so`,
    "the first `pulumi up` changes nothing. Edit it from there like any program.",
    ...(program.protect
      ? [
          `Each is protected (\`${protectOption}\`): \`pulumi destroy\` fails rather than delete or reset what`,
          "predates the stack. To let Pulumi delete one, remove its `protect` (or run",
          "`pulumi state unprotect <urn>`); cims-import --no-protect writes none.",
        ]
      : []),
    ...program.header,
  ].map((line) => `${r.comment} ${visible(line)}`);
}

/**
 * A declaration as `r` writes it: where the language cannot give null, each null argument whose
 * field has a null word (api/contract Field.nullWord) is that word, which the provider reads as null.
 */
function spelledFor(r: Renderer, d: Declaration<Kind>): Declaration<Kind> {
  if (r.givesNull) return d;
  const words = Object.entries(nullWords(kind(d.type).descriptor.contract.fields)).filter(([name]) => d.args[name] === null);
  return words.length === 0 ? d : { ...d, args: { ...d.args, ...Object.fromEntries(words) } };
}

/** The program in `language`: its head, the package's import, each kind's resources under its name. */
export function renderProgram(program: AdoptionProgram, language: Language): string {
  const r = RENDERERS[language];
  const sections: string[] = [];
  let previous: Kind | undefined;
  for (const declared of program.declarations) {
    const d = spelledFor(r, declared);
    if (d.type !== previous) sections.push(`\n${r.indent}${r.comment} ${d.type}\n`);
    previous = d.type;
    const comments = (d.comments ?? []).map((c) => `${commentLines(c, `${r.indent}${r.comment}`)}\n`).join("");
    sections.push(comments + r.declaration(d, program.protect));
  }
  return `${head(r, program).join("\n")}\n${r.opening([], [])}${sections.join("")}${r.closing ?? ""}`;
}

/**
 * A docs example in `language`: the package's import and the config it reads, each resource
 * after a blank line (bound to a variable when the program uses its outputs), the stack's outputs.
 */
export function renderExample(example: ExampleProgram<Kind>, language: ExampleLanguage): string {
  const r = RENDERERS[language];
  const used = referenced(example);
  const resources = example.declarations.map(
    (d) => `\n${r.declaration(spelledFor(r, d), false, used.has(d.name) ? camel(d.name) : undefined)}`,
  );
  const outputs = Object.entries(example.outputs);
  const exports = outputs.length > 0 ? `\n${r.exports(outputs)}` : "";
  const text = `${r.opening(configValues(example.declarations), lookupValues(example))}${resources.join("")}${exports}${r.closing ?? ""}`;
  return r.finish ? r.finish(text) : text;
}

// The one reading of the contract as a validator: a resource's body (or a nested object
// type) becomes a zod schema, for either face of the API:
// - `program`: what a Pulumi program gives check(): camelCase keys, an int64 as a number or a
//   decimal string, the provider's own inputs merged in, its reserved tag keys refused;
// - `wire`: a request body as the service reads it: snake_case keys, lossless JSON (safe
//   integers are numbers, larger ones bigints; nothing coerced), `create` or `patch`.
// Both refuse fields they do not know. Issues carry the rule's words (api/formats.ts); where
// the two faces word a failure their own way (a null, a field that cannot be updated) the
// issue names the failure in `params.word`, and a missing value is an issue at a value that
// is absent. Each face's formatter below says them: the program's as one {property, reason}
// per property, the service's as sentences per field path. Schemas are built once per
// contract and options, then reused.
// Program code never loads this file: it brings zod.
import { z } from "zod";
import type { BodyContract, Field, FieldTable, FieldType, IntegerType, ObjectType, StringType } from "./contract/types";
import { isRecord } from "./guards";
import {
  duplicateMessage,
  enumValues,
  formatProblem,
  fractionMessage,
  integerProblem,
  memberMessage,
  NON_BLANK,
  NOT_AN_ARGUMENT,
  NOT_NULL,
  OBJECT,
  REQUIRED,
  SERVICE_WORDS,
  sentence,
  TAG_VALUE_TYPE,
  TAG_VALUE_TYPE_MERGE,
  tagKeyProblem,
  tagValueProblem,
  typeMessage,
} from "./formats";
import { memberKey } from "./members";
import { canonicalIp, isIpAddress } from "./net";
import { formatPath, toCamel, toSnake } from "./names";
import { RULES } from "./rules";

export interface SchemaOptions {
  face: "program" | "wire";
  /** `create`: a whole body, required fields enforced; `patch` (wire): some fields of a record. */
  mode?: "create" | "patch";
  /** Wire names of the service's own record fields: refused in the body as not updatable. */
  readOnly?: readonly string[];
  /**
   * More member names, by object type name (`GlobalQuotas`): members the service holds that
   * the contract does not know (a record newer than the contract), which a body may carry back.
   */
  held?: Readonly<Record<string, readonly string[]>>;
  /** Tag keys a program may not set, with why (`pulumi-cims sets it while a create runs`). */
  reservedTags?: Readonly<Record<string, string>>;
  /** The provider's own inputs (program face), beside the contract's fields. */
  extra?: Readonly<Record<string, z.ZodType>>;
}

/** Failures said the service's way or the program's: see the formatters. */
type Word = "null" | "fixed" | "member" | "tagKey" | "duplicate";

interface Build {
  readonly program: boolean;
  /** A patch's tags are a merge patch: a null value removes the key. */
  readonly merge: boolean;
  /** A field's name on this face, from its camelCase name. */
  readonly name: (camel: string) => string;
  /** A member's name on this face, from its wire name. */
  readonly member: (wire: string) => string;
  readonly held: Readonly<Record<string, readonly string[]>>;
  readonly reservedTags: Readonly<Record<string, string>>;
}

const isInteger = (v: unknown): v is number | bigint => typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v));

/** An issue for a rule broken; `word` when the faces word it their own way. */
function fail(ctx: z.RefinementCtx, message: string, path: PropertyKey[] = [], word?: Word, more: Record<string, unknown> = {}): void {
  ctx.addIssue({ code: "custom", message, path, params: { word, ...more } });
}

/** Adds the rule a value breaks (zod runs refinements only on well-typed values). */
const rule =
  <T>(problem: (value: T) => string | undefined) =>
  (value: T, ctx: z.RefinementCtx) => {
    const message = problem(value);
    if (message) fail(ctx, message);
  };

function stringProblem(t: StringType, s: string): string | undefined {
  if (t.nonBlank && s.trim() === "") return NON_BLANK;
  if (t.enum && !enumValues(t).includes(s)) return typeMessage(t);
  return t.format && formatProblem(t.format, s);
}

function integerSchema(t: IntegerType, b: Build): z.ZodType {
  if (b.program && t.int64) {
    // A program gives an int64 as a safe integer or a decimal string; state keeps the string.
    const safe = z.number().int().refine(Number.isSafeInteger, "numbers above 2^53 lose digits in JavaScript: give them as strings");
    return z
      .union([safe, z.string().regex(/^-?\d+$/)], { error: "must be an integer (a number, or a decimal string for values above 2^53)" })
      .superRefine(rule((v: number | string) => (/^-?\d+$/.test(String(v)) ? integerProblem(t, BigInt(v)) : undefined)));
  }
  // The wire's integers are exact: beyond 2^53 they arrive as bigints.
  const base = b.program ? z.number(typeMessage(t)) : z.union([z.number(), z.bigint()], { error: typeMessage(t) });
  return base.superRefine(rule((n: number | bigint) => (isInteger(n) ? integerProblem(t, n) : fractionMessage(t))));
}

/** Tags: string keys to string values; a key's problem is about the key, not its value. */
function tagsSchema(b: Build): z.ZodType {
  return z.record(z.string(), z.unknown(), { error: typeMessage({ kind: "tags" }) }).superRefine((tags, ctx) => {
    for (const [key, value] of Object.entries(tags)) {
      const keyProblem = Object.hasOwn(b.reservedTags, key) ? `tag ${key} is reserved: ${b.reservedTags[key]}` : tagKeyProblem(key);
      if (keyProblem) fail(ctx, keyProblem, [key], "tagKey");
      else if (b.merge && value === null) continue;
      else if (typeof value !== "string") fail(ctx, b.merge ? TAG_VALUE_TYPE_MERGE : TAG_VALUE_TYPE, [key]);
      else {
        const problem = tagValueProblem(value);
        if (problem) fail(ctx, problem, [key]);
      }
    }
  });
}

/** Items equal to an earlier one, by canonical IP or member address + port; unknowns are never equal. */
function uniqueItems(unique: "ip" | "member", b: Build) {
  const port = b.name("protocolPort");
  const identity = (entry: unknown): string | undefined => {
    if (unique === "ip") return typeof entry === "string" && isIpAddress(entry) ? canonicalIp(entry) : undefined;
    if (!isRecord(entry) || !isIpAddress(entry.address) || !isInteger(entry[port])) return undefined;
    return memberKey(entry.address, entry[port]);
  };
  return (items: unknown[], ctx: z.RefinementCtx) => {
    const seen = new Map<string, number>();
    items.forEach((entry, index) => {
      const key = identity(entry);
      if (key === undefined) return;
      const earlier = seen.get(key);
      if (earlier === undefined) seen.set(key, index);
      else fail(ctx, duplicateMessage(`[${earlier}]`, unique), [index], "duplicate", { earlier, unique });
    });
  };
}

function typeSchema(t: FieldType, b: Build): z.ZodType {
  switch (t.kind) {
    case "string":
      return z.string(typeMessage(t)).superRefine(rule((s: string) => stringProblem(t, s)));
    case "integer":
      return integerSchema(t, b);
    case "number":
      return z.number(typeMessage(t)).positive(typeMessage(t));
    case "boolean":
      return z.boolean(typeMessage(t));
    case "tags":
      return tagsSchema(b);
    case "array": {
      // An item may not be null: the program hears what an item must be, the service says "may not be null".
      const items = nullRefused(typeSchema(t.items, b), typeMessage(t.items));
      const array = z.array(items, typeMessage(t));
      // Duplicates are found among items that are themselves wrong, too.
      return t.unique ? array.superRefine(uniqueItems(t.unique, b), { when: (p) => Array.isArray(p.value) }) : array;
    }
    case "object":
      return objectSchema(t, b, "create", []);
  }
}

function nullRefused(schema: z.ZodType, message: string): z.ZodType {
  return schema.nullable().superRefine((v, ctx) => {
    if (v === null) fail(ctx, message, [], "null");
  });
}

/** `required`: a missing value fails its type, which the formatters say as "required". */
function fieldSchema(f: Field, b: Build, required: boolean): z.ZodType {
  const type = typeSchema(f.type, b);
  // A program's null removes a removedByDelete field (by a call of its own); a body never carries it.
  const nullable = f.nullable || (b.program && f.removedByDelete);
  const schema = nullable ? type.nullable() : nullRefused(type, NOT_NULL);
  return required ? schema : schema.optional();
}

/** Present in a body, refused: a field set only at creation, in a patch; the service's own fields. */
const fixed = z
  .unknown()
  .superRefine((_, ctx) => fail(ctx, "cannot be updated", [], "fixed"))
  .optional();

function objectSchema(
  t: { fields: FieldTable; members?: ObjectType["members"]; rules?: ObjectType["rules"]; name?: string },
  b: Build,
  mode: "create" | "patch",
  readOnly: readonly string[],
  extra: Readonly<Record<string, z.ZodType>> = {},
): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const key of readOnly) shape[key] = fixed;
  const fields = Object.entries(t.fields);
  for (const [camel, f] of fields)
    shape[b.name(camel)] =
      mode === "patch" ? (f.set === "update" ? fieldSchema(f, b, false) : fixed) : fieldSchema(f, b, f.required === true);
  Object.assign(shape, extra);
  const members = t.members;
  let schema: z.ZodType;
  if (members) {
    const entry = fieldSchema({ type: members.type, set: "update", doc: members.what }, b, false);
    const held = (t.name && Object.hasOwn(b.held, t.name) && b.held[t.name]) || [];
    for (const name of [...members.names, ...held]) if (!Object.hasOwn(shape, b.member(name))) shape[b.member(name)] = entry;
    const notMember = memberMessage(members.what, b.member(members.names[0]));
    const other = z.unknown().superRefine((_, ctx) => fail(ctx, notMember, [], "member"));
    // A catchall passes over an own `__proto__` key (zod keeps it out of what it builds): refused
    // here as any other name, before the rest is read.
    schema = z.preprocess((input, ctx) => {
      if (isRecord(input) && Object.hasOwn(input, "__proto__")) fail(ctx, notMember, ["__proto__"], "member");
      return input;
    }, z.object(shape, OBJECT).catchall(other));
  } else {
    schema = z.strictObject(shape, OBJECT);
  }
  // The rules across fields hold for whole objects; a patch of some fields is checked field
  // by field. They run whatever else is wrong, so every failure is told at once.
  if (mode === "patch" || !t.rules) return schema;
  const rules = t.rules;
  return schema.superRefine(
    (value, ctx) => {
      if (!isRecord(value)) return;
      for (const name of rules)
        for (const issue of RULES[name]((camel) => value[b.name(camel)], b.name)) fail(ctx, issue.message, [b.name(issue.field)]);
    },
    { when: (p) => isRecord(p.value) },
  );
}

function build(options: SchemaOptions): Build {
  const program = options.face === "program";
  return {
    program,
    merge: options.mode === "patch",
    name: program ? (camel) => camel : toSnake,
    member: program ? toCamel : (wire) => wire,
    held: options.held ?? {},
    reservedTags: options.reservedTags ?? {},
  };
}

/** One value of a field type (an input of the provider's own that is of a contract type). */
export function valueSchema(t: FieldType, options: SchemaOptions): z.ZodType {
  return typeSchema(t, build(options));
}

const NO_EXTRA: Readonly<Record<string, z.ZodType>> = {};
const cache = new WeakMap<object, WeakMap<object, Map<string, z.ZodType>>>();

/** A body's schema (a resource's contract, or a nested object type), built once per contract and options. */
export function contractSchema(contract: BodyContract | ObjectType, options: SchemaOptions): z.ZodType {
  const extra = options.extra ?? NO_EXTRA;
  const byExtra = cache.get(contract) ?? new WeakMap<object, Map<string, z.ZodType>>();
  cache.set(contract, byExtra);
  const built = byExtra.get(extra) ?? new Map<string, z.ZodType>();
  byExtra.set(extra, built);
  const key = JSON.stringify([options.face, options.mode, options.readOnly, options.held, options.reservedTags]);
  const known = built.get(key);
  if (known) return known;
  // Held member names vary by client: a bound, so a long-running emulator does not grow.
  if (built.size >= 256) built.clear();
  const schema = objectSchema(contract, build(options), options.mode ?? "create", options.readOnly ?? [], extra);
  built.set(key, schema);
  return schema;
}

/** What a custom issue says beyond its message: its `word`, a duplicate's `earlier` index and `unique` rule. */
const paramsOf = (issue: z.core.$ZodIssue): Record<string, unknown> => (issue.code === "custom" ? (issue.params ?? {}) : {});
const wordOf = (issue: z.core.$ZodIssue): unknown => paramsOf(issue).word;

/** "duplicates members[0] (same address and port)", the earlier item named by the face's path. */
function duplicateOf(issue: z.core.$ZodIssue): string {
  const { earlier, unique } = paramsOf(issue);
  return duplicateMessage(formatPath([...issue.path.slice(0, -1), Number(earlier)]), unique === "member" ? "member" : "ip");
}

// ---------------------------------------------------------------------------------------
// The program's words: one {property, reason} per property, camelCase paths.
// ---------------------------------------------------------------------------------------

export interface CheckFailure {
  property: string;
  reason: string;
}

/** The value at a path, and whether the way there (or the value) is the unknown sentinel. */
function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>, unknown: unknown): { value: unknown; throughUnknown: boolean } {
  let value = root;
  for (const key of path) {
    if (value === unknown) return { value, throughUnknown: true };
    if (typeof value !== "object" || value === null) return { value: undefined, throughUnknown: false };
    value = Reflect.get(value, key);
  }
  return { value, throughUnknown: value === unknown };
}

/**
 * check()'s failures. `unknown`: the value standing for one not known until apply (preview),
 * accepted anywhere: issues at or inside it are not failures yet.
 */
export function programFailures(schema: z.ZodType, input: unknown, unknown: unknown): CheckFailure[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  const failures: CheckFailure[] = [];
  for (const issue of result.error.issues) {
    const at = valueAt(input, issue.path, unknown);
    if (at.throughUnknown) continue;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const property = formatPath([...issue.path, key]);
        failures.push({ property, reason: `${property} ${NOT_AN_ARGUMENT}` });
      }
      continue;
    }
    const word = wordOf(issue);
    const property = formatPath(issue.path) || "(inputs)";
    // A missing value fails its type (also of the provider's own inputs): said as missing.
    const missing = issue.code !== "custom" && at.value === undefined;
    const message = missing ? REQUIRED : word === "duplicate" ? duplicateOf(issue) : issue.message;
    const same = failures.find((f) => f.property === property);
    // One failure per property: zod may report a union and a refinement on the same value.
    if (same) {
      if (!same.reason.includes(message)) same.reason += `; ${message}`;
    } else {
      failures.push({ property, reason: `${property}: ${message}` });
    }
  }
  return failures;
}

// ---------------------------------------------------------------------------------------
// The service's words: sentences by snake_case field path.
// ---------------------------------------------------------------------------------------

export type InvalidFields = Record<string, string[]>;

/** The request-body check: field path -> messages ({} when valid). */
export function wireFailures(schema: z.ZodType, body: unknown): InvalidFields {
  if (!isRecord(body)) return { non_field_errors: [SERVICE_WORDS.notAnObject] };
  const result = schema.safeParse(body);
  // A Map, because paths come from client keys and a key such as "constructor" or
  // "__proto__" must not meet Object.prototype; Object.fromEntries defines own properties.
  const byPath = new Map<string, string[]>();
  const add = (path: PropertyKey[], message: string) => {
    const key = formatPath(path);
    byPath.set(key, [...(byPath.get(key) ?? []), message]);
  };
  for (const issue of result.error?.issues ?? []) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add([...issue.path, key], SERVICE_WORDS.unknown);
      continue;
    }
    const word = wordOf(issue);
    const parent = issue.path.slice(0, -1);
    if (issue.code !== "custom" && valueAt(body, issue.path, undefined).value === undefined) add(issue.path, SERVICE_WORDS.required);
    else if (word === "null" || word === "fixed") add(issue.path, SERVICE_WORDS[word]);
    // A bad key makes a poor path: its problem is the tags'.
    else if (word === "tagKey") add(parent, sentence(issue.message));
    else if (word === "duplicate") add(issue.path, sentence(duplicateOf(issue)));
    else add(issue.path, sentence(issue.message));
  }
  return Object.fromEntries(byPath);
}

// check()'s validation: the contract's field tables (api/contract) as camelCase zod schemas,
// with the same rules and words as the emulator's request checks. Pulumi's unknown value is
// accepted anywhere during preview; failures are {property, reason} with camelCase paths
// such as `members[1].protocolPort`.
import { z } from "zod";
import type { Field, FieldTable, FieldType, IntegerType, ObjectType, StringType } from "../../api/contract";
import {
  duplicateMessage,
  enumValues,
  formatProblem,
  fractionMessage,
  integerProblem,
  memberMessage,
  NON_BLANK,
  NOT_NULL,
  tagKeyProblem,
  TAG_VALUE_TYPE,
  tagValueProblem,
  typeMessage,
} from "../../api/formats";
import { memberKey } from "../../api/members";
import { canonicalIp, isIpAddress } from "../../api/net";
import { formatPath, toCamel } from "../../api/names";
import { RULES } from "../../api/rules";
import { CREATE_MARK_TAG } from "./mark";

/** What Pulumi passes for values not known until apply (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface CheckFailure {
  property: string;
  reason: string;
}

export type Inputs = Record<string, unknown>;

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): { value: unknown; throughUnknown: boolean } {
  let value = root;
  for (const key of path) {
    if (value === UNKNOWN) return { value, throughUnknown: true };
    if (typeof value !== "object" || value === null) return { value: undefined, throughUnknown: false };
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { value, throughUnknown: value === UNKNOWN };
}

/** Validates; issues at (or inside) a value that is still unknown are not failures yet. */
export function validate(schema: z.ZodType, input: Inputs): CheckFailure[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  const failures: CheckFailure[] = [];
  for (const issue of result.error.issues) {
    if (valueAt(input, issue.path).throughUnknown) continue;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const property = formatPath([...issue.path, key]);
        failures.push({ property, reason: `${property} is not an argument of this resource (check the spelling)` });
      }
      continue;
    }
    const property = formatPath(issue.path) || "(inputs)";
    const missing = issue.code !== "custom" && valueAt(input, issue.path).value === undefined;
    // A record key that breaks its rule comes back as a generic "invalid_key": show the rule.
    const nested = issue.code === "invalid_key" ? issue.issues.map((i) => i.message).join("; ") : undefined;
    const message = missing ? "is required" : (nested ?? issue.message);
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

/** Adds the rule a value breaks as an issue (zod runs refinements only on well-typed values). */
const rule =
  <T>(problem: (value: T) => string | undefined) =>
  (value: T, ctx: z.RefinementCtx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: "custom", message });
  };

function stringSchema(t: StringType): z.ZodType {
  if (t.enum) return z.enum(enumValues(t) as [string, ...string[]], typeMessage(t));
  return z
    .string(typeMessage(t))
    .superRefine(rule((s: string) => (t.nonBlank && s.trim() === "" ? NON_BLANK : t.format && formatProblem(t.format, s))));
}

function integerSchema(t: IntegerType): z.ZodType {
  if (t.int64) {
    // A program gives an int64 as a safe integer or a decimal string; state keeps the string.
    const safe = z.number().int().refine(Number.isSafeInteger, "numbers above 2^53 lose digits in JavaScript: give them as strings");
    return z
      .union([safe, z.string().regex(/^-?\d+$/)], { error: "must be an integer (a number, or a decimal string for values above 2^53)" })
      .superRefine(rule((v: number | string) => (/^-?\d+$/.test(String(v)) ? integerProblem(t, BigInt(v)) : undefined)));
  }
  return z
    .number(typeMessage(t))
    .refine(Number.isInteger, fractionMessage(t))
    .superRefine(rule((n: number) => (Number.isInteger(n) ? integerProblem(t, n) : undefined)));
}

/** A tag key a program may set: not the service's own, not the provider's create mark. */
const programTagKeyProblem = (key: string): string | undefined =>
  key === CREATE_MARK_TAG ? `tag ${key} is reserved: pulumi-cims sets it while a create runs` : tagKeyProblem(key);

const tagsSchema = z.record(
  z.string().superRefine(rule(programTagKeyProblem)),
  z.string(TAG_VALUE_TYPE).superRefine(rule(tagValueProblem)),
);

/** Items equal to an earlier one, by canonical IP or member address + port; unknowns are never equal. */
function uniqueItems(unique: "ip" | "member", name: string) {
  return (items: unknown[], ctx: z.RefinementCtx) => {
    const seen = new Map<string, number>();
    items.forEach((entry, index) => {
      const key = unique === "ip" ? (isIpAddress(entry) ? canonicalIp(entry as string) : undefined) : memberIdentity(entry);
      if (key === undefined) return;
      const earlier = seen.get(key);
      if (earlier === undefined) seen.set(key, index);
      else ctx.addIssue({ code: "custom", path: [index], message: duplicateMessage(`${name}[${earlier}]`, unique) });
    });
  };
}

function memberIdentity(entry: unknown): string | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const m = entry as { address?: unknown; protocolPort?: unknown };
  return isIpAddress(m.address) && Number.isInteger(m.protocolPort) ? memberKey(m.address, m.protocolPort) : undefined;
}

function objectSchema(t: Pick<ObjectType, "fields" | "members" | "rules">, extra: Record<string, z.ZodType> = {}): z.ZodType {
  const shape: Record<string, z.ZodType> = { ...fieldSchemas(t.fields), ...extra };
  const members = t.members;
  let schema: z.ZodType = members ? z.looseObject(shape) : z.strictObject(shape);
  if (members) {
    const names = new Set(members.names.map(toCamel));
    const entry = typeSchema(members.type);
    schema = schema.superRefine((value, ctx) => {
      for (const [key, v] of Object.entries(value as Inputs)) {
        if (Object.hasOwn(shape, key)) continue;
        if (!names.has(key)) {
          ctx.addIssue({ code: "custom", path: [key], message: memberMessage(members.what, toCamel(members.names[0])) });
          continue;
        }
        const result = entry.safeParse(v);
        // Re-raised with their own code, so a missing `usage` still reads "is required".
        if (!result.success)
          for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] } as z.core.$ZodRawIssue);
      }
    });
  }
  for (const name of t.rules ?? []) {
    schema = schema.superRefine((value, ctx) => {
      for (const issue of RULES[name](
        (field) => (value as Inputs)[field],
        (field) => field,
      )) {
        ctx.addIssue({ code: "custom", path: [issue.field], message: issue.message });
      }
    });
  }
  return schema;
}

/** `name`: the field's name, for messages that point at a sibling item ("duplicates members[0]"). */
export function typeSchema(t: FieldType, name = ""): z.ZodType {
  switch (t.kind) {
    case "string":
      return stringSchema(t);
    case "integer":
      return integerSchema(t);
    case "boolean":
      return z.boolean(typeMessage(t));
    case "tags":
      return tagsSchema;
    case "array": {
      const array = z.array(typeSchema(t.items), typeMessage(t));
      return t.unique ? array.superRefine(uniqueItems(t.unique, name)) : array;
    }
    case "object":
      return objectSchema(t);
  }
}

/** A field's schema; null only where the contract allows it, with the reason when given. */
function fieldSchema(name: string, f: Field): z.ZodType {
  let schema: z.ZodType = typeSchema(f.type, name).nullable();
  // null: where the contract allows it, or where it removes the field by a call of its own.
  if (!f.nullable && !f.removedByDelete) {
    schema = schema.superRefine((v, ctx) => {
      if (v === null) ctx.addIssue({ code: "custom", message: NOT_NULL });
    });
  }
  return f.required ? schema : schema.optional();
}

function fieldSchemas(fields: FieldTable): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, fieldSchema(name, f)]));
}

/** A resource's inputs: the contract's fields, the provider's own (`extra`), the contract's rules. */
export function inputsSchema(contract: { fields: FieldTable; rules?: ObjectType["rules"] }, extra: Record<string, z.ZodType>): z.ZodType {
  return objectSchema(contract, extra);
}

// Provider-only inputs, with messages that name the rule.
export const positiveInteger = z.number("must be an integer").int("must be an integer").positive("must be a positive integer");
export const uuid4 = z.string(typeMessage({ kind: "string", format: "uuid4" })).superRefine(rule((s: string) => formatProblem("uuid4", s)));
export const booleanInput = z.boolean("must be true or false");

/** Deadlines: per-resource `timeouts` in seconds (Pulumi's customTimeouts never reach dynamic providers). */
export const timeouts = z.strictObject({
  create: z.number().positive("must be a positive number of seconds").optional(),
  update: z.number().positive("must be a positive number of seconds").optional(),
  delete: z.number().positive("must be a positive number of seconds").optional(),
});

/** Drops Pulumi's bookkeeping before validation. */
export function userInputs(news: Inputs): Inputs {
  const { __provider: _provider, ...rest } = news;
  return rest;
}

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** Whether Pulumi's unknown sentinel sits anywhere in this value (preview of computed inputs). */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(containsUnknown);
}

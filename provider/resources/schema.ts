// Input validation for check(): zod schemas over the camelCase inputs, Pulumi's unknown
// value accepted anywhere during preview, and failures as {property, reason} with
// camelCase paths such as `members[1].protocolPort`.
import { z } from "zod";
import { isIpAddress, isUuid4, parseCidr } from "../../emulator/validation";

/** What Pulumi passes for values not known until apply (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface CheckFailure {
  property: string;
  reason: string;
}

export type Inputs = Record<string, unknown>;

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), "");
}

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

// Building blocks, each with a message that names the rule.
export const uuid4 = z.string().refine(isUuid4, "must be a UUID (version 4)");
export const ipAddress = z.string().refine((v) => isIpAddress(v) !== 0, "must be an IP address");
export const cidr = z.string().refine((v) => parseCidr(v) !== undefined, "must be a network in CIDR form with no host bits set, e.g. 10.0.0.0/24");
export const nonBlank = z.string().refine((v) => v.trim() !== "", "must not be empty");

export function intRange(min: number, max: number, unit = ""): z.ZodNumber {
  const rule = `must be an integer from ${min} to ${max}${unit ? ` ${unit}` : ""}`;
  return z.number(rule).int(rule).min(min, rule).max(max, rule);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, `must be one of: ${values.join(", ")}`);
}

const codePoints = (s: string) => [...s].length;

/** Tags: at most 255 characters per key and per value (spec, "Tags"). */
export const tags = z.record(
  z.string().refine((k) => k.length > 0 && codePoints(k) <= 255, "tag keys must be 1 to 255 characters"),
  z.string("tag values must be strings").refine((v) => codePoints(v) <= 255, "tag values must be at most 255 characters"),
);

/** Per-operation deadlines in seconds; default `cims:taskTimeoutSeconds` (1800). */
export interface Timeouts {
  create?: number;
  update?: number;
  delete?: number;
}

/** Deadlines: per-resource `timeouts` in seconds (Pulumi's customTimeouts never reach dynamic providers). */
export const timeouts = z.strictObject({
  create: z.number().positive("must be a positive number of seconds").optional(),
  update: z.number().positive("must be a positive number of seconds").optional(),
  delete: z.number().positive("must be a positive number of seconds").optional(),
});

export const scope = {
  projectId: z.number().int("must be an integer").positive("must be a positive integer"),
  regionId: z.number().int("must be an integer").positive("must be a positive integer"),
};

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

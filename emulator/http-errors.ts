// Errors the emulator answers with, in the service's error-body shape:
// {exception_class, message, request_id, invalid_fields?}. Control bodies, seeds and state files
// are parsed with zod; their problems are put in words here.
import { z } from "zod";
import { stringifyJson } from "../api/json";

export type InvalidFields = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly exceptionClass: string,
    message: string,
    readonly invalidFields?: InvalidFields,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const validationError = (invalidFields: InvalidFields) =>
  new HttpError(400, "ValidationError", "Validation error: see invalid_fields.", invalidFields);

export const notFound = (what: string, id: unknown) => new HttpError(404, "NotFoundError", `${what} ${String(id)} not found.`);

export const locked = (what: string, id: unknown, taskId: string) =>
  new HttpError(409, "ConflictError", `${what} ${String(id)} is locked by running task ${taskId}. Try again when it has finished.`);

/** Where a problem is, as a reader writes it: `networks[0].project_id`. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
}

const MAX_PROBLEMS = 5;

/** A failed parse in words: each problem as "<field> <rule>" (the first few, then how many more). */
export function problemsOf(error: z.ZodError): string {
  const lines = error.issues.map((i) => (i.path.length > 0 ? `${pathText(i.path)} ${i.message}` : i.message));
  const more = lines.length > MAX_PROBLEMS ? `; and ${lines.length - MAX_PROBLEMS} more` : "";
  return lines.slice(0, MAX_PROBLEMS).join("; ") + more;
}

/** A value a control call was given (or a seed, or a state file), for an error message. */
export function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  try {
    return stringifyJson(value);
  } catch {
    return String(value);
  }
}

/**
 * A field's rule for zod, in the words the control API answers with: "must be <words>, got <what
 * came>", so the caller sees the field, the rule and the value it sent.
 */
export const must = (words: string) => ({
  error: (issue: { input?: unknown }) => `must be ${words}, got ${shown(issue.input)}`,
});

/** A whole number from `min` to `max`, each failure in the same words. */
export const wholeNumber = (words: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.int(must(words)).min(min, must(words)).max(max, must(words));

/**
 * An object of known fields whose problems read as the control API's: a field it does not know
 * is named (a typo such as `delay_ms` would otherwise be dropped and the rule act differently
 * from what was asked), and a body that is no object is "Expected a JSON object.".
 */
export function strictFields<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}; known: ${Object.keys(shape).join(", ")}`
        : "Expected a JSON object.",
  });
}

/** zod's own problems (for fields without a rule in words of their own) in the words used here. */
export const plainWords = {
  error: (issue: z.core.$ZodRawIssue): string | undefined => {
    if (issue.code === "invalid_type")
      return issue.input === undefined
        ? `is missing (expected ${issue.expected})`
        : `must be ${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}, got ${shown(issue.input)}`;
    if (issue.code === "unrecognized_keys")
      return `has unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
    return undefined;
  },
};

/** A control body parsed by its schema, or a 400 naming each field and its rule. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, "ValidationError", problemsOf(parsed.error));
  return parsed.data;
}

// What the service answers, checked before anything reads it. A 2xx body of the wrong shape
// (`[]` or `"x"` where a record belongs, a task without a state, a page without `results`)
// would otherwise pass as the type the caller hoped for and fail later as a TypeError, or be
// written into state. Each answer is checked against its schema and then returned as it came:
// the checks read the shape only, so integers beyond 2^53 (bigints from api/json.ts) and key
// order stay exactly as parsed.
import { LosslessNumber } from "lossless-json";
import { z } from "zod";
import { PATHS } from "../../api/paths";
import { RESOURCE_PATHS } from "../../api/generated/resource-paths";
import { READ_ONLY } from "../../api/contract/read-only";
import { stringifyJson } from "../../api/json";
import { InvalidResponseError } from "./errors";

const ID = z.union([z.string(), z.int(), z.bigint()], { error: "a string or an integer" });
const COUNT = z.int({ error: "an integer, 0 or more" }).nonnegative({ error: "an integer, 0 or more" });
const TEXT = z.string({ error: "a string" });

/** A JSON object identified by `key` (`id`; a quota setting's is `client_id`). */
export const recordAnswer = (key = "id"): z.ZodType<Record<string, unknown>> =>
  z.looseObject({ [key]: ID }, { error: "a record" }).describe("a record");

const RECORD = recordAnswer();

/** A list call's page of records. */
export interface Page<T> {
  count: number;
  results: T[];
}

/** What a list call answers: `{count, results: [records]}`. */
export const PAGE = z.looseObject({ count: COUNT, results: z.array(RECORD, { error: "a JSON array of records" }) }).describe("a page");

/** A task's record, as its status GET answers it. */
export const TASK = z
  .looseObject({
    id: TEXT,
    state: TEXT,
    task_type: TEXT.optional(),
    created_resources: z.record(z.string(), z.unknown(), { error: "a JSON object or null" }).nullable().optional(),
    error: z.unknown().optional(),
  })
  .describe("a task");

/** What an operation that runs asynchronously answers: the ids of the tasks it started. */
export const TASK_IDS = z
  .looseObject({ tasks: z.array(TEXT, { error: "a JSON array of task ids" }) })
  .describe("a task list ({tasks: [...]})");

/** An error body: a JSON object; each field is read as far as it holds what ApiError expects. */
export const ERROR_BODY = z.looseObject({});

/** Whether `value` has the schema's shape; the value itself is kept, not zod's copy of it. */
export function fits<S extends z.ZodType>(schema: S, value: unknown): value is z.output<S> {
  return schema.safeParse(value).success;
}

/**
 * `value` if it has the schema's shape, else an InvalidResponseError naming the call (method
 * and path template) and what was wrong. `templates`: paths beyond the API's own (the task
 * path is a setting).
 */
export function checked<S extends z.ZodType>(
  schema: S,
  value: unknown,
  call: { method: string; path: string; templates?: readonly string[] },
): z.output<S> {
  if (fits(schema, value)) return value;
  const where = `${call.method} ${templateOf(call.path, call.templates ?? [])}`;
  const expected = schema.description ?? "another shape";
  const issue = schema.safeParse(value).error?.issues[0];
  const got = value === undefined ? "" : ` (got ${stringifyJson(value).slice(0, 200)})`;
  if (!issue || issue.path.length === 0)
    throw new InvalidResponseError(`${where} answered ${kindOf(value)} where ${expected} was expected${got}`);
  const field = issue.path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
  const inner = issue.path.reduce<unknown>((v, p) => (typeof v === "object" && v !== null ? Reflect.get(v, p) : undefined), value);
  const what =
    inner === undefined
      ? `without \`${field}\` (${issue.message} expected)`
      : `whose \`${field}\` is ${kindOf(inner)} where ${issue.message} was expected`;
  throw new InvalidResponseError(`${where} answered ${expected} ${what}${got}`);
}

/** How an answer's value reads in a message. */
function kindOf(value: unknown): string {
  if (value === undefined) return "an empty body";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a JSON array";
  if (typeof value === "string") return "a JSON string";
  if (typeof value === "boolean") return "a JSON boolean";
  if (typeof value === "object" && !(value instanceof LosslessNumber)) return "a JSON object";
  return "a JSON number";
}

const READ_ONLY_PATHS = Object.values(READ_ONLY).flatMap((c) => Object.values(c.paths));

/** The template a request path was built from (ids are no help in a message about shapes), else the path. */
export function templateOf(path: string, templates: readonly string[] = []): string {
  return [...templates, ...RESOURCE_PATHS, ...READ_ONLY_PATHS, ...Object.values(PATHS)].find((t) => patternOf(t).test(path)) ?? path;
}

const patternOf = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/\{[a-z_]+\}/)
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]+")}$`,
  );

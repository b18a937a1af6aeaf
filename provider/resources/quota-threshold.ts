// QuotaThreshold: a client's quota notification threshold, PUT notification_threshold
// (synchronous upsert); destroy DELETEs it (the service resets to its default, 80). Quota
// limits and usages are int64: exact decimal strings on the Pulumi side, exact integers on
// the wire (bigint through lossless JSON), never a rounded JavaScript number.
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { NotFoundError } from "../client/errors";
import { apiPath } from "../client/path";
import { GLOBAL_QUOTA_BASES, REGIONAL_QUOTA_BASES } from "../../emulator/validation";
import { changedFields, diffResult, type FieldRule } from "./diff";
import { outputKeys, plain, readOrGone, withContext, withoutProvider } from "./ops";
import { apiClient } from "./runtime";
import { containsUnknown, type Inputs, userInputs, validate } from "./schema";
import { quotaThresholdShim } from "./shim";

/** A quota entry: limit and usage, as decimal strings (int64). Inputs may be numbers or strings. */
export interface QuotaEntry {
  limit: string;
  usage: string;
}

/** The last quota message: members are `<camelCaseBase>Limit` / `<camelCaseBase>Usage`, e.g. `keypairCountLimit`. */
export interface QuotaMessage {
  globalQuotas?: Record<string, QuotaEntry>;
  regionalQuotas?: Array<{ regionId: number; regionName: string } & Record<string, QuotaEntry | number | string>>;
}

export interface QuotaThresholdArgs {
  /** Client id (integer). Changing it replaces. */
  readonly clientId: pulumi.Input<number>;
  /** Notification threshold, percent, an integer from 60 to 100. Updates in place. */
  readonly threshold: pulumi.Input<number>;
  /** Data of the last message. Omitted: left as the service has it. Updates in place. */
  readonly lastMessage?: pulumi.Input<{
    globalQuotas?: Record<string, { limit: number | string; usage: number | string }>;
    regionalQuotas?: Array<Record<string, unknown>>;
  }>;
  /** Time of the last e-mail sending (ISO 8601), or null. Omitted: left as it is. Updates in place. */
  readonly lastSending?: pulumi.Input<string | null>;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const snake = (camelName: string) => camelName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const names = (bases: string[]) => bases.flatMap((b) => [camel(`${b}_limit`), camel(`${b}_usage`)]);
const GLOBAL_NAMES = new Set(names(GLOBAL_QUOTA_BASES));
const REGIONAL_NAMES = new Set(names(REGIONAL_QUOTA_BASES));

/** An int64 given as a safe integer or a decimal string. */
const int64 = z
  .union([z.number().int().refine(Number.isSafeInteger, "numbers above 2^53 lose digits in JavaScript: give them as strings"), z.string().regex(/^-?\d+$/)], {
    error: "must be an integer (a number, or a decimal string for values above 2^53)",
  })
  .refine(fitsInt64, "must fit in a signed 64-bit integer");

/** zod runs this refinement even when the type check above failed (e.g. on the unknown sentinel). */
function fitsInt64(v: number | string): boolean {
  // Not an integer: reported by the type check.
  if (typeof v === "string" ? !/^-?\d+$/.test(v) : !Number.isInteger(v)) return true;
  const n = BigInt(v);
  return n >= INT64_MIN && n <= INT64_MAX;
}
const entry = z.strictObject({ limit: int64, usage: int64 });

function quotaMembers(allowed: Set<string>, where: string) {
  return z.record(z.string(), entry).superRefine((members, ctx) => {
    for (const key of Object.keys(members)) {
      if (!allowed.has(key)) ctx.addIssue({ code: "custom", path: [key], message: `is not a ${where} quota (names are like ${[...allowed][0]})` });
    }
  });
}

const regional = z.looseObject({ regionId: z.number().int("must be an integer"), regionName: z.string() }).superRefine((r, ctx) => {
  const { regionId: _i, regionName: _n, ...members } = r;
  const result = quotaMembers(REGIONAL_NAMES, "regional").safeParse(members);
  if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ code: "custom", path: issue.path as PropertyKey[], message: issue.message });
});

const schema = z.strictObject({
  clientId: z.number("must be an integer").int("must be an integer").positive("must be a positive integer"),
  threshold: z.number("must be an integer from 60 to 100").int("must be an integer from 60 to 100 (no fractions)").min(60, "must be at least 60").max(100, "must be at most 100"),
  lastMessage: z.strictObject({ globalQuotas: quotaMembers(GLOBAL_NAMES, "global").optional(), regionalQuotas: z.array(regional).optional() }).optional(),
  lastSending: z.iso.datetime({ local: true, offset: true, error: "must be an ISO 8601 date-time such as 2026-05-23T05:07:31" }).nullable().optional(),
});

const FIELDS: FieldRule[] = [
  { name: "clientId", replaces: true },
  { name: "threshold" },
  { name: "lastMessage", autoWhenOmitted: true },
  { name: "lastSending", autoWhenOmitted: true },
];

function entriesToWire(members: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(members).map(([k, v]) => {
      if (typeof v !== "object" || v === null) return [snake(k), v];
      const e = v as { limit: number | string; usage: number | string };
      return [snake(k), { limit: BigInt(e.limit), usage: BigInt(e.usage) }];
    }),
  );
}

function entriesFromWire(members: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(members).map(([k, v]) => {
      if (typeof v !== "object" || v === null) return [camel(k), v];
      const e = v as { limit: unknown; usage: unknown };
      return [camel(k), { limit: String(e.limit), usage: String(e.usage) }];
    }),
  );
}

/** Pulumi-side quota message -> wire (snake_case names, exact integers). */
export function messageToWire(m: { globalQuotas?: Record<string, unknown>; regionalQuotas?: Array<Record<string, unknown>> }): Record<string, unknown> {
  return {
    global_quotas: entriesToWire(m.globalQuotas ?? {}),
    regional_quotas: (m.regionalQuotas ?? []).map((r) => entriesToWire(r)),
  };
}

/** Wire -> Pulumi-side (camelCase names, decimal strings). */
export function messageFromWire(m: Record<string, unknown> | null | undefined): QuotaMessage {
  return {
    globalQuotas: entriesFromWire((m?.global_quotas ?? {}) as Record<string, unknown>) as QuotaMessage["globalQuotas"],
    regionalQuotas: ((m?.regional_quotas ?? []) as Array<Record<string, unknown>>).map((r) => entriesFromWire(r)) as QuotaMessage["regionalQuotas"],
  };
}

/** Normalised inputs: every quota number as a decimal string, so state and diffs are exact. */
function normalizeMessage(m: unknown): unknown {
  if (typeof m !== "object" || m === null) return m;
  return messageFromWire(messageToWire(m as Parameters<typeof messageToWire>[0]) as Record<string, unknown>);
}

async function check(_olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const given = userInputs(news);
  const failures = validate(schema, given);
  // During preview an unknown may sit anywhere in lastMessage; it is normalised once known.
  const normalize = failures.length === 0 && given.lastMessage !== undefined && !containsUnknown(given.lastMessage);
  const inputs = normalize ? { ...news, lastMessage: normalizeMessage(given.lastMessage) } : news;
  return { inputs: plain(inputs) as Inputs, failures };
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.DiffResult> {
  return diffResult(changedFields(olds, news, FIELDS));
}

const path = (i: Inputs) => apiPath("/cloud/v2/client_quotas/{client_id}/notification_threshold", { client_id: i.clientId as number });

export function toBody(i: Inputs): Record<string, unknown> {
  const body: Record<string, unknown> = { threshold: i.threshold };
  if (i.lastMessage !== undefined) body.last_message = messageToWire(i.lastMessage as Parameters<typeof messageToWire>[0]);
  if (i.lastSending !== undefined) body.last_sending = i.lastSending;
  return body;
}

export function fromRecord(r: Record<string, unknown>): Inputs {
  return plain({
    clientId: r.client_id,
    threshold: r.threshold,
    lastMessage: messageFromWire(r.last_message as Record<string, unknown>),
    lastSending: r.last_sending ?? null,
  }) as Inputs;
}

async function put(inputs: Inputs): Promise<Inputs> {
  const record = await apiClient().request<Record<string, unknown>>("PUT", path(inputs), { body: toBody(inputs) });
  return { ...withoutProvider(inputs), ...fromRecord(record), taskIds: [] };
}

const label = (i: Inputs) => `QuotaThreshold of client ${String(i.clientId)}`;

async function create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult> {
  return withContext(label(inputs), async () => ({ id: String(inputs.clientId), outs: await put(inputs) }));
}

async function update(_id: string, _olds: Inputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult> {
  return withContext(label(news), async () => ({ outs: await put(news) }));
}

async function remove(_id: string, props: Inputs): Promise<void> {
  await withContext(label(props), async () => {
    try {
      await apiClient().request("DELETE", path(props));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  });
}

async function read(id: string, props: Inputs): Promise<pulumi.dynamic.ReadResult> {
  return readOrGone(id, props, path(props), fromRecord, FIELDS);
}

export const quotaThresholdMethods = { check, diff, create, update, read, delete: remove };

const OUTPUTS = ["clientId", "threshold", "lastMessage", "lastSending", "taskIds"];

/**
 * A client's quota notification threshold (percent). Synchronous. Destroy deletes the
 * setting, which the service resets to its default (80).
 */
export class QuotaThreshold extends pulumi.dynamic.Resource {
  public readonly clientId!: pulumi.Output<number>;
  public readonly threshold!: pulumi.Output<number>;
  /** The last message as the service has it; quota numbers are exact decimal strings. */
  public readonly lastMessage!: pulumi.Output<QuotaMessage>;
  public readonly lastSending!: pulumi.Output<string | null>;
  /** Always [] (the call is synchronous). */
  public readonly taskIds!: pulumi.Output<string[]>;

  constructor(name: string, args: QuotaThresholdArgs, opts?: pulumi.CustomResourceOptions) {
    super(quotaThresholdShim, name, { ...outputKeys(OUTPUTS), ...args }, opts, "cims", "QuotaThreshold");
  }
}

// Quota notification setting: PUT notification_threshold (spec). Every quota number is an
// int64 (up to 9223372036854775807).
import { GLOBAL_QUOTA_BASES, INT64_MAX, INT64_MIN, quotaMemberNames, REGIONAL_QUOTA_BASES } from "../quotas";
import { arrayOf, integer, text } from "./common";
import type { BodyContract, IntegerType, ObjectType } from "./types";

const int64 = { kind: "integer", min: INT64_MIN, max: INT64_MAX, int64: true } as const satisfies IntegerType;

export const QUOTA_ENTRY = {
  kind: "object",
  fields: {
    limit: { type: int64, required: true, set: "update" },
    usage: { type: int64, required: true, set: "update" },
  },
} as const satisfies ObjectType;

export const GLOBAL_QUOTAS = {
  kind: "object",
  fields: {},
  members: { names: quotaMemberNames(GLOBAL_QUOTA_BASES), type: QUOTA_ENTRY, what: "global quota" },
} as const satisfies ObjectType;

export const REGIONAL_QUOTAS = {
  kind: "object",
  fields: {
    regionId: { type: integer(0, Number.MAX_SAFE_INTEGER), required: true, set: "update" },
    regionName: { type: text, required: true, set: "update" },
  },
  members: { names: quotaMemberNames(REGIONAL_QUOTA_BASES), type: QUOTA_ENTRY, what: "regional quota" },
} as const satisfies ObjectType;

export const QUOTA_MESSAGE = {
  kind: "object",
  fields: {
    globalQuotas: { type: GLOBAL_QUOTAS, set: "update", default: {} },
    regionalQuotas: { type: arrayOf(REGIONAL_QUOTAS), set: "update", default: [] },
  },
} as const satisfies ObjectType;

export const QUOTA_THRESHOLD = {
  fields: {
    threshold: { type: integer(60, 100, "percent"), required: true, set: "update" },
    lastMessage: { type: QUOTA_MESSAGE, set: "update", serviceDefault: true },
    lastSending: { type: { kind: "string", format: "dateTime" }, nullable: true, set: "update", serviceDefault: true },
  },
} as const satisfies BodyContract;

/** Fields only the service writes, in the records it returns. */
export const QUOTA_RECORD = ["client_id"] as const;

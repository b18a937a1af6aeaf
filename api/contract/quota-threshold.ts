// Quota notification setting: PUT notification_threshold (spec). Every quota number is an
// int64 (up to 9223372036854775807).
import { GLOBAL_QUOTA_BASES, quotaMemberNames, REGIONAL_QUOTA_BASES } from "../quotas";
import { arrayOf, count, dateTime, int64, integer, positiveId, text } from "./common";
import type { Contract, ObjectType } from "./types";

export const QuotaEntry = {
  kind: "object",
  name: "QuotaEntry",
  doc: "A quota's limit and usage, as decimal strings in outputs (they reach 9223372036854775807); inputs may be numbers or strings.",
  fields: {
    limit: { type: int64, required: true, set: "update", doc: "The quota's limit." },
    usage: { type: int64, required: true, set: "update", doc: "How much of it is used." },
  },
} as const satisfies ObjectType;

export const GlobalQuotas = {
  kind: "object",
  name: "GlobalQuotas",
  doc: "Global quotas, each as `<base>Limit` and `<base>Usage`.",
  fields: {},
  members: { names: quotaMemberNames(GLOBAL_QUOTA_BASES), type: QuotaEntry, what: "global quota" },
} as const satisfies ObjectType;

export const RegionalQuotas = {
  kind: "object",
  name: "RegionalQuotas",
  doc: "A region's quotas, each as `<base>Limit` and `<base>Usage`.",
  fields: {
    regionId: { type: integer(0, Number.MAX_SAFE_INTEGER), required: true, set: "update", doc: "The region." },
    regionName: { type: text, required: true, set: "update", doc: "The region's name." },
  },
  members: { names: quotaMemberNames(REGIONAL_QUOTA_BASES), type: QuotaEntry, what: "regional quota" },
} as const satisfies ObjectType;

export const QuotaMessage = {
  kind: "object",
  name: "QuotaMessage",
  doc: "The quotas of the last notification message: members are `<camelCaseBase>Limit` / `<camelCaseBase>Usage` (e.g. `keypairCountLimit`) holding `{limit, usage}`.",
  fields: {
    globalQuotas: { type: GlobalQuotas, set: "update", default: {}, doc: "The client's global quotas." },
    regionalQuotas: { type: arrayOf(RegionalQuotas), set: "update", default: [], doc: "Each region's quotas." },
  },
} as const satisfies ObjectType;

export const QuotaThreshold = {
  name: "QuotaThreshold",
  doc: "A client's quota notification threshold (percent). Synchronous. Destroy deletes the setting, which the service resets to its default (80).",
  fields: {
    threshold: {
      type: integer(60, 100, "percent"),
      required: true,
      set: "update",
      doc: "Notification threshold, percent, an integer from 60 to 100.",
    },
    lastMessage: {
      type: QuotaMessage,
      set: "update",
      serviceDefault: true,
      doc: "Data of the last message. Omitted: left as the service has it; give numbers above 2^53 as decimal strings.",
    },
    lastSending: {
      type: dateTime,
      nullable: true,
      set: "update",
      serviceDefault: true,
      doc: "Time of the last e-mail sending (ISO 8601), or null. Omitted: left as it is.",
    },
  },
  record: {
    client_id: { type: count, doc: "The client the setting is for." },
  },
  paths: {
    /** PUT (spec), GET and DELETE (reference). */
    item: "/cloud/v2/client_quotas/{client_id}/notification_threshold",
  },
  operations: {
    get: { method: "GET", path: "item", response: "gcore.types.cloud.quotas.notification_threshold.NotificationThreshold" },
    update: {
      method: "PUT",
      path: "item",
      request: "gcore.types.cloud.quotas.notification_threshold_update_params.NotificationThresholdUpdateParams",
    },
    /** The service resets the client's setting to its default (80). */
    delete: { method: "DELETE", path: "item" },
  },
  identity: { clientId: { type: positiveId, doc: "The client whose quota notification threshold this is." } },
} as const satisfies Contract;

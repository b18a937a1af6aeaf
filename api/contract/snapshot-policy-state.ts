// Snapshot lifecycle policy: PATCH lifecycle_policy (spec: name and status).
import { arrayOf, count, name, oneOf, positiveId, text } from "./common";
import type { Contract, ObjectType } from "./types";

/** How long a schedule keeps its snapshots; the service may add units. */
export const RetentionTime = {
  kind: "object",
  name: "RetentionTime",
  doc: "How long a schedule keeps its snapshots.",
  fields: {
    days: { type: count, set: "read", doc: "Days." },
    hours: { type: count, set: "read", doc: "Hours." },
    minutes: { type: count, set: "read", doc: "Minutes." },
    weeks: { type: count, set: "read", doc: "Weeks." },
  },
} as const satisfies ObjectType;

/** A schedule of the policy, camelCased from the API; the service may add fields. */
export const PolicySchedule = {
  kind: "object",
  name: "PolicySchedule",
  doc: "A cron or interval schedule of the policy, camelCased from the API.",
  open: true,
  fields: {
    id: { type: text, set: "read", doc: "The schedule's id." },
    type: { type: text, set: "read", doc: "`cron` or `interval`." },
    maxQuantity: { type: count, set: "read", doc: "The most snapshots the schedule keeps." },
    owner: { type: text, set: "read", doc: "What owns the schedule." },
    ownerId: { type: count, set: "read", doc: "The owner's id." },
    userId: { type: count, set: "read", doc: "The user who made the schedule." },
    retentionTime: { type: RetentionTime, set: "read", doc: "How long snapshots are kept." },
    day: { type: text, set: "read", doc: "Cron: day of month." },
    dayOfWeek: { type: text, set: "read", doc: "Cron: day of week." },
    hour: { type: text, set: "read", doc: "Cron: hour." },
    minute: { type: text, set: "read", doc: "Cron: minute." },
    month: { type: text, set: "read", doc: "Cron: month." },
    week: { type: text, set: "read", doc: "Cron: week." },
    timezone: { type: text, set: "read", doc: "The schedule's time zone." },
    resourceNameTemplate: { type: text, set: "read", doc: "How snapshots are named." },
  },
} as const satisfies ObjectType;

export const PolicyVolume = {
  kind: "object",
  name: "PolicyVolume",
  doc: "A volume the policy snapshots.",
  fields: {
    volumeId: { type: text, set: "read", doc: "The volume's id." },
    volumeName: { type: text, set: "read", doc: "The volume's name." },
  },
} as const satisfies ObjectType;

export const SnapshotPolicyState = {
  name: "SnapshotPolicyState",
  doc: "The name and status of an existing snapshot lifecycle policy (e.g. pause it in dev). Synchronous; destroy leaves the policy as it is.",
  fields: {
    name: { type: name, set: "update", inEveryRecord: true, doc: "New policy name, not empty. Omitted: left as it is." },
    status: {
      type: oneOf("SnapshotPolicyStatus", ["active", "paused"]),
      set: "update",
      inEveryRecord: true,
      doc: "Whether the policy runs. Omitted: left as it is.",
    },
  },
  omitted: "unmanaged",
  record: {
    id: { type: count, doc: "The policy's id." },
    action: { type: text, output: true, inEveryRecord: true, doc: "What the policy does (`volume_snapshot`)." },
    project_id: { type: count, doc: "The policy's project." },
    region_id: { type: count, doc: "The policy's region." },
    user_id: { type: count, output: true, inEveryRecord: true, doc: "The user who owns the policy." },
    schedules: { type: arrayOf(PolicySchedule), output: true, inEveryRecord: true, doc: "The policy's schedules, camelCased." },
    volumes: {
      type: arrayOf(PolicyVolume),
      output: true,
      optional: true,
      doc: "The volumes the policy snapshots; read only with `includeVolumes: true`.",
    },
  },
  paths: {
    /** GET (reference): list, `limit`/`offset` paging. */
    collection: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}",
    /** PATCH (spec), GET with need_volumes=true (reference). */
    item: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}",
  },
  operations: {
    list: { method: "GET", path: "collection", response: "gcore.types.cloud.lifecycle_policy.LifecyclePolicy" },
    get: { method: "GET", path: "item", response: "gcore.types.cloud.lifecycle_policy.LifecyclePolicy" },
    update: { method: "PATCH", path: "item", request: "gcore.types.cloud.snapshot_schedule_update_params.SnapshotScheduleUpdateParams" },
  },
  identity: { policyId: { type: positiveId, doc: "The snapshot lifecycle policy's id." } },
} as const satisfies Contract;

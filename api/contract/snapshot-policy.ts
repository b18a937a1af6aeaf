// Volume snapshot lifecycle policy, made, changed and deleted from code: POST lifecycle_policy
// (synchronous: the answer is the policy), PATCH its name and status, its schedules added and
// removed one by one (add_schedules, remove_schedules), its volumes likewise
// (add_volumes_to_policy, remove_volumes_from_policy), DELETE. The calls and bodies are the
// vendor SDK's (`cloud.snapshot_schedules`).
import { arrayOf, count, name, oneOf, text, uuid4 } from "./common";
import { PolicyVolume } from "./snapshot-policy-state";
import type { Contract, ObjectType } from "./types";

const SDK = "gcore.types.cloud";
const POLICY_MODEL = `${SDK}.lifecycle_policy.LifecyclePolicy`;

const unit = (what: string) => ({ type: count, set: "update", doc: what }) as const;

/** How long a schedule keeps each snapshot. */
export const ScheduleRetention = {
  kind: "object",
  name: "ScheduleRetention",
  doc: "How long a schedule keeps each snapshot before the service deletes it: the sum of the units given.",
  fields: { weeks: unit("Weeks."), days: unit("Days."), hours: unit("Hours."), minutes: unit("Minutes.") },
} as const satisfies ObjectType;

const cronField = (what: string) =>
  ({ type: { kind: "string", nonBlank: true }, set: "update", doc: `Cron schedules only: ${what}` }) as const;
const intervalField = (what: string) => ({ type: count, set: "update", doc: `Interval schedules only: ${what}` }) as const;

/** A schedule as a program declares it (the vendor SDK's cron and interval schedule params). */
export const SnapshotSchedule = {
  kind: "object",
  name: "SnapshotSchedule",
  doc: "When the policy snapshots its volumes: a `cron` schedule (minute, hour, day...) or an `interval` one (every weeks, days, hours, minutes), and how many snapshots it keeps.",
  rules: ["schedule"],
  fields: {
    type: {
      type: oneOf("SnapshotScheduleType", ["cron", "interval"]),
      required: true,
      set: "update",
      doc: "`cron`: at the times the cron fields give; `interval`: every `weeks`/`days`/`hours`/`minutes`.",
    },
    maxQuantity: {
      type: { kind: "integer", min: 1, max: 10000 },
      required: true,
      set: "update",
      doc: "The most snapshots the schedule keeps per volume, 1 to 10000 (the bound the vendor's Terraform provider checks; the SDK states none); the oldest goes when a new one is made.",
    },
    retentionTime: {
      type: ScheduleRetention,
      set: "update",
      doc: "How long each snapshot is kept. Omitted: until `maxQuantity` pushes it out.",
    },
    resourceNameTemplate: {
      type: { kind: "string", nonBlank: true },
      set: "update",
      doc: "How snapshots are named; `{volume_id}` is replaced by the volume's id. Omitted: the service's name.",
    },
    minute: cronField(
      "minute: `*` or a comma-separated list of 0-59 (`0,30`); ranges and steps (`0-59/15`) are refused: list their values.",
    ),
    hour: cronField("hour: `*` or a comma-separated list of 0-23; ranges and steps are refused: list their values."),
    day: cronField("day of the month: `*` or a comma-separated list of 1-31; ranges and steps are refused: list their values."),
    dayOfWeek: cronField(
      "weekday: `*` or a comma-separated list of mon..sun or 0-6 (`mon,fri`); ranges (`1-5`) are refused: list their values.",
    ),
    week: cronField("ISO week: `*` or a comma-separated list of 1-53; ranges and steps are refused: list their values."),
    month: cronField("month: `*` or a comma-separated list of 1-12; ranges and steps are refused: list their values."),
    timezone: cronField(
      "an IANA time zone as pytz names them (`Europe/Luxembourg`, `UTC`, an alias such as `US/Eastern`); the service's default is UTC.",
    ),
    weeks: intervalField("weeks between snapshots."),
    days: intervalField("days between snapshots."),
    hours: intervalField("hours between snapshots."),
    minutes: intervalField("minutes between snapshots."),
  },
} as const satisfies ObjectType;

export const SnapshotPolicy = {
  name: "SnapshotPolicy",
  doc: "A volume snapshot lifecycle policy made, changed and deleted by the stack: its name, status, schedules and the volumes it declares. Synchronous.",
  fields: {
    name: { type: name, required: true, set: "update", inEveryRecord: true, doc: "The policy's name, not empty." },
    status: {
      type: oneOf("SnapshotPolicyStatus", ["active", "paused"]),
      set: "update",
      default: "active",
      inEveryRecord: true,
      doc: "Whether the policy runs. Default `active`.",
    },
    action: {
      type: oneOf("SnapshotPolicyAction", ["volume_snapshot"]),
      set: "create",
      default: "volume_snapshot",
      inEveryRecord: true,
      doc: "What the policy does: `volume_snapshot`, the only action the service has. Default `volume_snapshot`.",
    },
    schedules: {
      type: arrayOf(SnapshotSchedule, { unordered: true }),
      set: "update",
      default: [],
      changedBy: { add: "addSchedules", remove: "removeSchedules" },
      doc: "The schedules the stack declares, in no order; each is added and removed on its own, and a changed one is removed and added again. Schedules others added are left. Default none.",
    },
    volumeIds: {
      type: arrayOf(uuid4, { unordered: true }),
      set: "update",
      default: [],
      notInRecord: true,
      changedBy: { add: "SnapshotPolicyVolume.create", remove: "SnapshotPolicyVolume.delete" },
      doc: "The volumes the stack puts in the policy, in no order; each is added and removed on its own. Volumes others added are left, and a listed volume the policy already holds that the stack did not add is refused. Default none.",
    },
  },
  record: {
    id: { type: count, doc: "The policy's id." },
    project_id: { type: count, doc: "The policy's project." },
    region_id: { type: count, doc: "The policy's region." },
    user_id: { type: count, output: true, inEveryRecord: true, doc: "The user who made the policy." },
    volumes: {
      type: arrayOf(PolicyVolume),
      output: true,
      inEveryRecord: true,
      doc: "Every volume the policy snapshots, the stack's and others', with their names.",
    },
  },
  paths: {
    collection: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}",
    item: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}",
    addSchedules: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}/add_schedules",
    removeSchedules: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}/remove_schedules",
    /** PUT `{volume_ids}` (the calls are SnapshotPolicyVolume's, whose emulator serves them). */
    addVolumes: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}/add_volumes_to_policy",
    removeVolumes: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}/remove_volumes_from_policy",
    /** POST a policy's create body: the most its schedules could keep of its volumes (the vendor SDK's `estimate_max_usage`). */
    estimate: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/estimate_max_policy_usage",
  },
  operations: {
    create: {
      method: "POST",
      path: "collection",
      request: `${SDK}.snapshot_schedule_create_params.SnapshotScheduleCreateParams`,
      response: POLICY_MODEL,
    },
    list: { method: "GET", path: "collection", response: POLICY_MODEL },
    get: { method: "GET", path: "item", response: POLICY_MODEL },
    update: {
      method: "PATCH",
      path: "item",
      request: `${SDK}.snapshot_schedule_update_params.SnapshotScheduleUpdateParams`,
      response: POLICY_MODEL,
    },
    delete: { method: "DELETE", path: "item" },
    more: {
      addSchedules: {
        method: "POST",
        path: "addSchedules",
        request: `${SDK}.snapshot_schedule_add_schedules_params.SnapshotScheduleAddSchedulesParams`,
        response: POLICY_MODEL,
      },
      removeSchedules: {
        method: "POST",
        path: "removeSchedules",
        request: `${SDK}.snapshot_schedule_remove_schedules_params.SnapshotScheduleRemoveSchedulesParams`,
        response: POLICY_MODEL,
      },
      estimateMaxUsage: {
        method: "POST",
        path: "estimate",
        request: `${SDK}.snapshot_schedule_estimate_max_usage_params.SnapshotScheduleEstimateMaxUsageParams`,
        response: `${SDK}.snapshot_schedule_estimate_max_usage_response.SnapshotScheduleEstimateMaxUsageResponse`,
      },
    },
  },
  vendorLeftOut: {
    schedule_ids: "The schedules a remove names: the ids the stack's own adds answered, kept in its state, never an input.",
  },
  terraform: [{ type: "gcore_lifecyclepolicy", generation: 1 }],
} as const satisfies Contract;

/** The bodies of the calls on a policy's parts, as tables (the emulator checks them, the provider writes them). */
export const ScheduleAdditions = {
  fields: { schedules: { type: arrayOf(SnapshotSchedule), required: true, set: "update", doc: "The schedules to add." } },
} as const;
export const ScheduleRemovals = {
  fields: { scheduleIds: { type: arrayOf(text), required: true, set: "update", doc: "The schedules to remove, by id." } },
} as const;

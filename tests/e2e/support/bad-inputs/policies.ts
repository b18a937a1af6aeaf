// Bad-input catalogue, part 5: SnapshotPolicy and SnapshotPolicyVolume.
import { type BadCase, withField } from "./catalogue";

const schedule = (fields: string) => withField("snapshots", "schedules", `[{ ${fields} }]`);

export const POLICIES: BadCase[] = [
  {
    what: "snapshot policy: a schedule of no known type",
    resource: "SnapshotPolicy",
    args: schedule('type: "weekly", maxQuantity: 4'),
    property: "schedules[0].type",
    rule: /one of: cron, interval/,
  },
  {
    what: "snapshot policy: an interval schedule with cron fields",
    resource: "SnapshotPolicy",
    args: schedule('type: "interval", hours: 6, minute: "30", maxQuantity: 4'),
    property: "schedules[0].minute",
    rule: /is for cron schedules/,
  },
  {
    what: "snapshot policy: maxQuantity 0",
    resource: "SnapshotPolicy",
    args: schedule('type: "interval", hours: 6, maxQuantity: 0'),
    property: "schedules[0].maxQuantity",
    rule: /at least 1 \(an integer from 1 to 10000\)/,
  },
  {
    what: "snapshot policy volume: volumeId not a uuid4",
    resource: "SnapshotPolicyVolume",
    args: withField("policyVolume", "volumeId", '"data"'),
    property: "volumeId",
    rule: /must be a UUID \(version 4\)/,
  },
  {
    what: "snapshot policy volume: policyId missing",
    resource: "SnapshotPolicyVolume",
    args: `{ volumeId: "2b3c4d5e-6f70-4a81-9b2c-3d4e5f6a7b8c" }`,
    property: "policyId",
    rule: /is required/,
  },
];

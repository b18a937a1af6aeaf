// The docs example of SnapshotPolicy (docs/resources/snapshot-policy.md), in every language from this one model.
import { type ExampleProgram, output } from "./program-model";

export const snapshotPolicyExample: ExampleProgram = {
  doc: "A snapshot policy the stack makes: a nightly cron schedule keeping a week of snapshots, and one every six hours keeping the last four. The stack exports the policy's id.",
  declarations: [
    {
      type: "SnapshotPolicy",
      name: "db-snapshots",
      args: {
        name: "db-snapshots",
        schedules: [
          {
            type: "cron",
            hour: "2",
            minute: "30",
            maxQuantity: 7,
            retentionTime: { days: 7 },
            resourceNameTemplate: "nightly {volume_id}",
          },
          { type: "interval", hours: 6, maxQuantity: 4 },
        ],
      },
    },
  ],
  outputs: { snapshotPolicyId: output("db-snapshots", "id") },
};

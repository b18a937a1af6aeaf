// The docs example of SnapshotPolicyVolume (docs/resources/snapshot-policy-volume.md), in every language from this one model.
import { config, type ExampleProgram, output } from "./program-model";

export const snapshotPolicyVolumeExample: ExampleProgram = {
  doc: "An application team's volume (its id from the stack's config) attached to a snapshot policy another team owns (its id from the stack's config too): destroy detaches only this volume. The stack exports the volume's name, as the policy lists it.",
  declarations: [
    {
      type: "SnapshotPolicyVolume",
      name: "app-data-snapshots",
      args: { policyId: config("policyId", "integer"), volumeId: config("appVolumeId") },
    },
  ],
  outputs: { snapshottedVolume: output("app-data-snapshots", "volumeName") },
};

// The docs example of SnapshotPolicyVolume (docs/resources/snapshot-policy-volume.md), in every language from this one model.
import { type ExampleProgram, lookup, output } from "./program-model";

export const snapshotPolicyVolumeExample: ExampleProgram = {
  doc: "An application team's volume (found by its name, `app-data`) attached to a snapshot policy another team owns (found by its name, `nightly-snapshots`): destroy detaches only this volume. The stack exports the volume's name, as the policy lists it.",
  declarations: [
    {
      type: "SnapshotPolicyVolume",
      name: "app-data-snapshots",
      args: {
        policyId: lookup("getSnapshotPolicy", { name: "nightly-snapshots" }, "id"),
        volumeId: lookup("getVolume", { name: "app-data" }, "id"),
      },
    },
  ],
  outputs: { snapshottedVolume: output("app-data-snapshots", "volumeName") },
};

// The docs example of SnapshotPolicyState (docs/resources/snapshot-policy-state.md), in every language from this one model.
import { type ExampleProgram, lookup, output } from "./program-model";

export const snapshotPolicyStateExample: ExampleProgram = {
  doc: "The name and status of a snapshot policy that already exists (found by its name, `nightly-snapshots`): paused, its name kept, as the program finds the policy by that name each run (to rename it, look it up by id). The stack exports what the policy does, as the service says.",
  declarations: [
    {
      type: "SnapshotPolicyState",
      name: "nightly-policy",
      args: { policyId: lookup("getSnapshotPolicy", { name: "nightly-snapshots" }, "id"), name: "nightly-snapshots", status: "paused" },
    },
  ],
  outputs: { policyAction: output("nightly-policy", "action") },
};

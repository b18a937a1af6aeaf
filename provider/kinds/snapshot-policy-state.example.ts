// The docs example of SnapshotPolicyState (docs/resources/snapshot-policy-state.md), in every language from this one model.
import { config, type ExampleProgram, output } from "./program-model";

export const snapshotPolicyStateExample: ExampleProgram = {
  doc: "The name and status of a snapshot policy that already exists (its id from the stack's config): renamed and paused. The stack exports what the policy does, as the service says.",
  declarations: [
    {
      type: "SnapshotPolicyState",
      name: "nightly-policy",
      args: { policyId: config("policyId", "integer"), name: "nightly-db", status: "paused" },
    },
  ],
  outputs: { policyAction: output("nightly-policy", "action") },
};

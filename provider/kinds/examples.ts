// Every kind's docs example (its <kind>.example.ts), by kind: scripts/gen.ts renders each into
// its docs page in every language, and tests/e2e/tools/docs-examples.test.ts deploys them all.
import type { ExampleProgram } from "./program-model";
import type { Kind } from "./registry";
import { baremetalImageExample } from "./baremetal-image.example";
import { lbPoolMemberExample } from "./lb-pool-member.example";
import { lbPoolSettingsExample } from "./lb-pool-settings.example";
import { quotaThresholdExample } from "./quota-threshold.example";
import { snapshotPolicyExample } from "./snapshot-policy.example";
import { snapshotPolicyStateExample } from "./snapshot-policy-state.example";
import { snapshotPolicyVolumeExample } from "./snapshot-policy-volume.example";
import { subnetExample } from "./subnet.example";

export const EXAMPLES: Readonly<Record<Kind, ExampleProgram>> = {
  Subnet: subnetExample,
  BaremetalImage: baremetalImageExample,
  LbPoolSettings: lbPoolSettingsExample,
  LbPoolMember: lbPoolMemberExample,
  SnapshotPolicy: snapshotPolicyExample,
  SnapshotPolicyState: snapshotPolicyStateExample,
  QuotaThreshold: quotaThresholdExample,
  SnapshotPolicyVolume: snapshotPolicyVolumeExample,
};

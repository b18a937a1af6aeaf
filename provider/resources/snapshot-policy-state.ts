// SnapshotPolicyState as a program sees it: its arguments and the resource class. The
// provider methods are in ../kinds/snapshot-policy-state.ts.
import type * as pulumi from "@pulumi/pulumi";
import { SnapshotPolicyState as SnapshotPolicyStateContract } from "../../api/contract";
import type { ObjectOf } from "../../api/contract";
import { outputKeys, withOutputs } from "./outputs";
import { snapshotPolicyStateShim } from "./shim";

export interface SnapshotPolicyStateArgs {
  /** The policy's integer id. Changing it replaces (manages another policy). */
  readonly policyId: pulumi.Input<number>;
  /** New policy name, not empty. Omitted: left as it is. Updates in place. */
  readonly name?: pulumi.Input<string>;
  /** `active` or `paused`. Omitted: left as it is. Updates in place. */
  readonly status?: pulumi.Input<"active" | "paused">;
  /** Also read the policy's volumes (`volumes` output). Default false. */
  readonly includeVolumes?: pulumi.Input<boolean>;
  /** Project; default `cims:projectId`. Replaces. */
  readonly projectId?: pulumi.Input<number>;
  /** Region; default `cims:regionId`. Replaces. */
  readonly regionId?: pulumi.Input<number>;
}

export interface RetentionTime {
  days?: number;
  hours?: number;
  minutes?: number;
  weeks?: number;
}

/** A cron or interval schedule of the policy, camelCased from the API. */
export interface PolicySchedule {
  id?: string;
  type?: string;
  maxQuantity?: number;
  owner?: string;
  ownerId?: number;
  userId?: number;
  retentionTime?: RetentionTime;
  day?: string;
  dayOfWeek?: string;
  hour?: string;
  minute?: string;
  month?: string;
  week?: string;
  timezone?: string;
  resourceNameTemplate?: string;
  [field: string]: unknown;
}

/**
 * The state of SnapshotPolicyState: `name` and `status` as the service has them, the
 * policy's `action`, `userId`, `schedules` (camelCase), and `volumes` (`{volumeId,
 * volumeName}` of each; only with `includeVolumes: true`). `taskIds` is always [] (the
 * call is synchronous).
 */
export type SnapshotPolicyStateState = Required<ObjectOf<typeof SnapshotPolicyStateContract.fields>> & {
  policyId: number;
  action: string;
  userId: number;
  schedules: PolicySchedule[];
  volumes: Array<{ volumeId: string; volumeName: string }> | undefined;
  includeVolumes: boolean;
  projectId: number;
  regionId: number;
  taskIds: string[];
};

export const OUTPUTS = [
  "policyId",
  ...Object.keys(SnapshotPolicyStateContract.fields),
  "action",
  "userId",
  "schedules",
  "volumes",
  "includeVolumes",
  "projectId",
  "regionId",
  "taskIds",
];

/**
 * The name and status of an existing snapshot lifecycle policy (e.g. pause it in dev).
 * Synchronous; destroy leaves the policy as it is.
 */
export class SnapshotPolicyState extends withOutputs<SnapshotPolicyStateState>() {
  constructor(name: string, args: SnapshotPolicyStateArgs, opts?: pulumi.CustomResourceOptions) {
    super(snapshotPolicyStateShim, name, { ...outputKeys(OUTPUTS), ...args }, opts, "cims", "SnapshotPolicyState");
  }
}

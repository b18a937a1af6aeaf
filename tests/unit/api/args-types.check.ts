// A compile-time test, checked by `npm run typecheck` (which `npm test` runs first), not by
// jest: each resource's Args interface and its field table are kept in step. A field added
// to the contract (api/contract) but not to the Args, or with another type or optionality,
// fails the build. (Outputs need no check: each class's state type and output keys are
// made from the same table.)
import type * as pulumi from "@pulumi/pulumi";
import type { ObjectOf } from "../../../api/contract";
import type { BaremetalImage } from "../../../api/contract/baremetal-image";
import type { LbPoolMember } from "../../../api/contract/lb-pool-member";
import type { LbPoolSettings } from "../../../api/contract/lb-pool-settings";
import type { QuotaThreshold } from "../../../api/contract/quota-threshold";
import type { SnapshotPolicyState } from "../../../api/contract/snapshot-policy-state";
import type { Subnet } from "../../../api/contract/subnet";
import type {
  BaremetalImageArgs,
  LbPoolMemberArgs,
  LbPoolSettingsArgs,
  QuotaThresholdArgs,
  SnapshotPolicyStateArgs,
  SubnetArgs,
  Timeouts,
} from "pulumi-cims";

/** Mutually assignable, with the same keys (an optional key is assignable to its absence). */
type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;
type Assert<T extends true> = T;
type Refute<T extends false> = T;
type Plain<Args> = pulumi.Unwrap<Args>;
type Scope = { projectId?: number; regionId?: number };
/** What a kind that adopts records by id takes. */
type Adopts = { importId?: string; deleteAdopted?: boolean };

type Checks = [
  Assert<Same<Plain<SubnetArgs>, ObjectOf<typeof Subnet.fields> & Scope & Adopts & { timeouts?: Timeouts }>>,
  Assert<Same<Plain<BaremetalImageArgs>, ObjectOf<typeof BaremetalImage.fields> & Scope & Adopts & { timeouts?: Timeouts }>>,
  Assert<
    Same<
      Plain<LbPoolSettingsArgs>,
      ObjectOf<typeof LbPoolSettings.fields> &
        Scope & { poolId: string; timeouts?: Timeouts; membersOwnership?: "declared" | "exclusive"; adoptMembers?: string[] }
    >
  >,
  Assert<
    Same<
      Plain<SnapshotPolicyStateArgs>,
      ObjectOf<typeof SnapshotPolicyState.fields> & Scope & { policyId: number; includeVolumes?: boolean }
    >
  >,
  Assert<Same<Plain<QuotaThresholdArgs>, ObjectOf<typeof QuotaThreshold.fields> & { clientId: number }>>,
  Assert<Same<Plain<LbPoolMemberArgs>, ObjectOf<typeof LbPoolMember.fields> & Scope & Adopts & { poolId: string; timeouts?: Timeouts }>>,
  // The check can fail: a field missing from the Args, a wrong type, a lost `?`.
  Refute<Same<Plain<SubnetArgs>, ObjectOf<typeof Subnet.fields> & Scope & Adopts & { timeouts?: Timeouts; notInTheContract?: number }>>,
  Refute<
    Same<Omit<Plain<SubnetArgs>, "enableDhcp"> & { enableDhcp?: string }, ObjectOf<typeof Subnet.fields> & Scope & { timeouts?: Timeouts }>
  >,
  Refute<
    Same<Omit<Plain<SubnetArgs>, "name"> & { name?: string }, ObjectOf<typeof Subnet.fields> & Scope & Adopts & { timeouts?: Timeouts }>
  >,
];
export const typeChecks: Checks = [true, true, true, true, true, true, false, false, false];

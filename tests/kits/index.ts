// Every kind's test kit (./kit.ts), one line each, typed by the registry: a kind added to
// provider/kinds/index.ts fails the typecheck here until its kit exists.
import type { Kind } from "../../provider/kinds/registry";
import { BaremetalImage } from "./baremetal-image";
import type { KindKit } from "./kit";
import { LbPoolMember } from "./lb-pool-member";
import { LbPoolSettings } from "./lb-pool-settings";
import { QuotaThreshold } from "./quota-threshold";
import { SnapshotPolicy } from "./snapshot-policy";
import { SnapshotPolicyState } from "./snapshot-policy-state";
import { SnapshotPolicyVolume } from "./snapshot-policy-volume";
import { Subnet } from "./subnet";

export const KITS: { readonly [K in Kind]: KindKit } = {
  Subnet,
  BaremetalImage,
  LbPoolSettings,
  SnapshotPolicy,
  SnapshotPolicyState,
  QuotaThreshold,
  LbPoolMember,
  SnapshotPolicyVolume,
};

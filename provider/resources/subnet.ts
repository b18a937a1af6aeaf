// Subnet as a program sees it: its arguments and the resource class. The provider methods
// (check, diff, create...) are in ../kinds/subnet.ts, loaded only by the provider process.
import type * as pulumi from "@pulumi/pulumi";
import { HostRoute as HostRouteContract, Subnet as SubnetContract } from "../../api/contract";
import type { ObjectOf } from "../../api/contract";
import { outputKeys, withOutputs } from "./outputs";
import { subnetShim } from "./shim";
import type { Timeouts } from "./timeouts";

/** A static route advertised via DHCP: `destination` (CIDR) through `nexthop` (an IP address of the same version). */
export type HostRoute = ObjectOf<typeof HostRouteContract.fields>;

export interface SubnetArgs {
  /** Subnet name, not empty. Updates in place. */
  readonly name: pulumi.Input<string>;
  /** Network in CIDR form, no host bits set (`10.0.0.0/24`). Changing it replaces the subnet. */
  readonly cidr: pulumi.Input<string>;
  /** Network the subnet belongs to (uuid4). Changing it replaces the subnet. */
  readonly networkId: pulumi.Input<string>;
  /** Give the network's router a gateway in this subnet. Default true; must be false when `gatewayIp` is null. Replaces. */
  readonly connectToNetworkRouter?: pulumi.Input<boolean>;
  /** DNS servers advertised via DHCP, no duplicates. Omitted: the service's default; null or []: none. Updates in place. */
  readonly dnsNameservers?: pulumi.Input<pulumi.Input<string>[] | null>;
  /** DHCP on or off. Default true (false is sent, never dropped). Updates in place. */
  readonly enableDhcp?: pulumi.Input<boolean>;
  /**
   * Gateway IP, inside `cidr` and of its IP version. Omitted: the service allocates one (see
   * the `gatewayIp` output); null: no gateway. Updates in place.
   */
  readonly gatewayIp?: pulumi.Input<string | null>;
  /** Static routes advertised via DHCP. Omitted: none managed; null or []: none. Updates in place. */
  readonly hostRoutes?: pulumi.Input<pulumi.Input<{ destination: pulumi.Input<string>; nexthop: pulumi.Input<string> }>[] | null>;
  /** 4 or 6; default: the version of `cidr`, which it must match. Replaces. */
  readonly ipVersion?: pulumi.Input<4 | 6>;
  /** Router to connect to (uuid4); requires `connectToNetworkRouter` not false. Omitted: the network's router. Replaces. */
  readonly routerIdToConnect?: pulumi.Input<string | null>;
  /**
   * Your key-value tags, keys and values up to 255 characters. Default {}. Updates in place.
   * The service's own read-only tags are not here but in the `readOnlyTags` output: they are
   * never diffed or changed, and their keys cannot be used.
   */
  readonly tags?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Project; default `cims:projectId` / CIMS_PROJECT_ID. Replaces. */
  readonly projectId?: pulumi.Input<number>;
  /** Region; default `cims:regionId` / CIMS_REGION_ID. Replaces. */
  readonly regionId?: pulumi.Input<number>;
  /**
   * Adopt the existing subnet with this id (uuid4) instead of creating one: `up` reads it,
   * refuses if a field that cannot change in place differs (preview already says so), and
   * PATCHes only the in-place fields that differ. It never causes a diff: once adopted, the
   * subnet is managed like any other (destroy deletes it; `retainOnDelete: true` keeps it).
   */
  readonly importId?: pulumi.Input<string>;
  /** Deadlines for waiting on this subnet's tasks. */
  readonly timeouts?: pulumi.Input<Timeouts>;
}

/**
 * The state of a Subnet: its arguments as the service holds them (`gatewayIp` the one in
 * effect: given, allocated, or null for none), plus `totalIps` (usable addresses, a decimal
 * string: it can exceed 2^53 for IPv6), `createdAt`, and `taskIds` (tasks of the last
 * operation; [] after an in-place update, which is synchronous).
 */
export type SubnetState = Required<ObjectOf<typeof SubnetContract.fields>> & {
  readOnlyTags: Record<string, string>;
  totalIps: string;
  createdAt: string;
  projectId: number;
  regionId: number;
  taskIds: string[];
};

export const OUTPUTS = [...Object.keys(SubnetContract.fields), "readOnlyTags", "totalIps", "createdAt", "projectId", "regionId", "taskIds"];

/**
 * A subnet of a CIMS network. Created asynchronously: `pulumi up` waits for the service's
 * task and reads the new id from it. See SubnetArgs for which changes update in place and
 * which replace; destroy deletes the subnet.
 */
export class Subnet extends withOutputs<SubnetState>() {
  constructor(name: string, args: SubnetArgs, opts?: pulumi.CustomResourceOptions) {
    super(subnetShim, name, { ...outputKeys(OUTPUTS), ...args }, opts, "cims", "Subnet");
  }
}

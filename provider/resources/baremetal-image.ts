// BaremetalImage as a program sees it: its arguments and the resource class. The provider
// methods are in ../kinds/baremetal-image.ts, loaded only by the provider process.
import type * as pulumi from "@pulumi/pulumi";
import { BaremetalImage as BaremetalImageContract } from "../../api/contract";
import type { ObjectOf } from "../../api/contract";
import { outputKeys, withOutputs } from "./outputs";
import { baremetalImageShim } from "./shim";
import type { Timeouts } from "./timeouts";

export interface BaremetalImageArgs {
  /** Image name, not empty. Updates in place. */
  readonly name: pulumi.Input<string>;
  /** Volume to make the image from (uuid4). Changing it replaces the image. */
  readonly volumeId: pulumi.Input<string>;
  /** `aarch64` or `x86_64` (default). Replaces. */
  readonly architecture?: pulumi.Input<"aarch64" | "x86_64">;
  /** `bios`, `uefi`, or null (default: none). Updates in place. */
  readonly hwFirmwareType?: pulumi.Input<"bios" | "uefi" | null>;
  /**
   * `pc`, `q35`, or null (default: none). Updates in place. `i440` is the same as `pc` (the
   * vendor's SDK and the service's records spell it so): either spelling, no diff.
   */
  readonly hwMachineType?: pulumi.Input<"pc" | "q35" | "i440" | null>;
  /** Whether bare metal servers will use the image. Default false. Updates in place. */
  readonly isBaremetal?: pulumi.Input<boolean>;
  /** `linux` (default) or `windows`. Updates in place. */
  readonly osType?: pulumi.Input<"linux" | "windows">;
  /** Only `volume` (default). Replaces. */
  readonly source?: pulumi.Input<"volume">;
  /** `allow` (default), `deny` or `required`: SSH key support. Updates in place. */
  readonly sshKey?: pulumi.Input<"allow" | "deny" | "required">;
  /**
   * Your key-value tags, keys and values up to 255 characters. Default {}. Updates in place.
   * The service's own read-only tags are not here but in the `readOnlyTags` output: they are
   * never diffed or changed, and their keys cannot be used.
   */
  readonly tags?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Project; default `cims:projectId`. Replaces. */
  readonly projectId?: pulumi.Input<number>;
  /** Region; default `cims:regionId`. Replaces. */
  readonly regionId?: pulumi.Input<number>;
  /**
   * Adopt the existing image with this id (uuid4) instead of creating one: `up` reads it,
   * refuses if a field that cannot change in place differs (preview already says so), and
   * PATCHes only the in-place fields that differ. It never causes a diff: once adopted, the
   * image is managed like any other (destroy deletes it; `retainOnDelete: true` keeps it).
   */
  readonly importId?: pulumi.Input<string>;
  /** Deadlines for waiting on this image's tasks. */
  readonly timeouts?: pulumi.Input<Timeouts>;
}

/**
 * The state of a BaremetalImage: its arguments as the service holds them, plus `status`
 * (the service's image status, e.g. `active`), `createdAt` and `taskIds` (tasks of the last
 * operation; [] after an in-place update).
 */
export type BaremetalImageState = Required<ObjectOf<typeof BaremetalImageContract.fields>> & {
  readOnlyTags: Record<string, string>;
  status: string;
  createdAt: string;
  projectId: number;
  regionId: number;
  taskIds: string[];
};

export const OUTPUTS = [
  ...Object.keys(BaremetalImageContract.fields),
  "readOnlyTags",
  "status",
  "createdAt",
  "projectId",
  "regionId",
  "taskIds",
];

/**
 * A bare metal-capable image made from a volume. Created asynchronously: `pulumi up` waits
 * for the service's task and reads the new id from it. Destroy deletes the image.
 */
export class BaremetalImage extends withOutputs<BaremetalImageState>() {
  constructor(name: string, args: BaremetalImageArgs, opts?: pulumi.CustomResourceOptions) {
    super(baremetalImageShim, name, { ...outputKeys(OUTPUTS), ...args }, opts, "cims", "BaremetalImage");
  }
}

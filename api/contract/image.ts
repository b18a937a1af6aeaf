// Bare-metal image: POST bmimages (spec: the creation fields); PATCH images/{id}
// (reference) for the fields marked `update`.
import { boolean, name, oneOf, tags, uuid4 } from "./common";
import type { BodyContract } from "./types";

export const IMAGE = {
  fields: {
    name: { type: name, required: true, set: "update" },
    volumeId: { type: uuid4, required: true, set: "create" },
    architecture: { type: oneOf(["aarch64", "x86_64"]), set: "create", default: "x86_64" },
    hwFirmwareType: { type: oneOf(["bios", "uefi"]), nullable: true, set: "update", default: null },
    hwMachineType: { type: oneOf(["pc", "q35"]), nullable: true, set: "update", default: null },
    isBaremetal: { type: boolean, set: "update", default: false },
    osType: { type: oneOf(["linux", "windows"]), set: "update", default: "linux" },
    source: { type: oneOf(["volume"]), set: "create", default: "volume" },
    sshKey: { type: oneOf(["allow", "deny", "required"]), set: "update", default: "allow" },
    tags: { type: tags, set: "update", default: {} },
  },
} as const satisfies BodyContract;

/** Fields only the service writes, in the records it returns. */
export const IMAGE_RECORD = [
  "id",
  "status",
  "visibility",
  "disk_format",
  "min_disk",
  "size",
  "creator_task_id",
  "task_id",
  "created_at",
  "updated_at",
  "project_id",
  "region_id",
] as const;

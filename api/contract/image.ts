// Bare-metal image: POST bmimages (spec: the creation fields); PATCH images/{id}
// (reference) for the fields marked `update`.
import { boolean, name, oneOf, oneOfSpelled, tags, uuid4 } from "./common";
import type { BodyContract } from "./types";

export const IMAGE = {
  fields: {
    name: { type: name, required: true, set: "update" },
    volumeId: { type: uuid4, required: true, set: "create" },
    architecture: { type: oneOf(["aarch64", "x86_64"]), set: "create", default: "x86_64" },
    hwFirmwareType: { type: oneOf(["bios", "uefi"]), nullable: true, set: "update", default: null },
    // The spec's `pc` is the vendor SDK's `i440`: records (and the reference's image update) spell it so.
    hwMachineType: {
      type: oneOfSpelled(["pc", "q35"], { aliases: { i440: "pc" }, recordSpelling: { pc: "i440" } }),
      nullable: true,
      set: "update",
      default: null,
    },
    isBaremetal: { type: boolean, set: "update", default: false },
    osType: { type: oneOf(["linux", "windows"]), set: "update", default: "linux" },
    source: { type: oneOf(["volume"]), set: "create", default: "volume" },
    sshKey: { type: oneOf(["allow", "deny", "required"]), set: "update", default: "allow" },
    // Requests send `tags` (an object; a merge patch on update); records carry `tags_v2`.
    tags: { type: tags, set: "update", default: {}, recordName: "tags_v2" },
  },
} as const satisfies BodyContract;

/** Fields only the service writes, in the records it returns. */
export const IMAGE_RECORD = [
  "id",
  "status",
  "visibility",
  "disk_format",
  "min_disk",
  "min_ram",
  "size",
  "os_distro",
  "os_version",
  "region",
  "creator_task_id",
  "task_id",
  "created_at",
  "updated_at",
  "project_id",
  "region_id",
] as const;

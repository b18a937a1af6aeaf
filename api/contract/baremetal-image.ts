// Bare-metal image: POST bmimages (spec: the creation fields); PATCH images/{id}
// (reference) for the fields marked `update`.
import { boolean, count, dateTime, name, oneOf, oneOfSpelled, tags, text, uuid4 } from "./common";
import type { Contract } from "./types";

export const BaremetalImage = {
  name: "BaremetalImage",
  doc: "A bare metal-capable image made from a volume. Created asynchronously: `pulumi up` waits for the service's task and reads the new id from it; destroy deletes the image.",
  fields: {
    name: { type: name, required: true, set: "update", doc: "Image name, not empty." },
    volumeId: { type: uuid4, required: true, set: "create", doc: "Volume to make the image from (uuid4)." },
    architecture: {
      type: oneOf("ImageArchitecture", ["aarch64", "x86_64"]),
      set: "create",
      default: "x86_64",
      doc: "The image's CPU architecture.",
    },
    hwFirmwareType: {
      type: oneOf("ImageHwFirmwareType", ["bios", "uefi"]),
      nullable: true,
      set: "update",
      default: null,
      doc: "The firmware the image boots with, or null for none.",
    },
    // The spec's `pc` is the vendor SDK's `i440`: records (and the reference's image update) spell it so.
    hwMachineType: {
      type: oneOfSpelled("ImageHwMachineType", ["pc", "q35"], { aliases: { i440: "pc" }, recordSpelling: { pc: "i440" } }),
      nullable: true,
      set: "update",
      default: null,
      doc: "The virtual machine type, or null for none. `i440` is the same as `pc` (the vendor's SDK and the service's records spell it so): either spelling, no diff.",
    },
    isBaremetal: { type: boolean, set: "update", default: false, doc: "Whether bare metal servers will use the image." },
    osType: {
      type: oneOf("ImageOsType", ["linux", "windows"]),
      set: "update",
      default: "linux",
      doc: "The image's operating system family.",
    },
    source: {
      type: oneOf("ImageSource", ["volume"]),
      set: "create",
      default: "volume",
      doc: "What the image is made from: only a volume.",
    },
    sshKey: {
      type: oneOf("ImageSshKey", ["allow", "deny", "required"]),
      set: "update",
      default: "allow",
      doc: "Whether servers from the image take an SSH key.",
    },
    // Requests send `tags` (an object; a merge patch on update); records carry `tags_v2`.
    tags: {
      type: tags,
      set: "update",
      default: {},
      recordName: "tags_v2",
      doc: "Your key-value tags, keys and values up to 255 characters. The service's own read-only tags are not here but in the `readOnlyTags` output: they are never diffed or changed, and their keys cannot be used.",
    },
  },
  record: {
    id: { type: uuid4, doc: "The image's id." },
    status: { type: text, output: true, inEveryRecord: true, doc: "The service's image status, e.g. `active`." },
    visibility: { type: text, output: true, doc: "Who may use the image (`private` for an image made from a volume)." },
    disk_format: { type: text, output: true, doc: "The image's disk format (`raw`, `qcow2`, ...)." },
    min_disk: { type: count, output: true, doc: "The smallest disk, in GiB, the image needs." },
    min_ram: { type: count, output: true, doc: "The least memory, in MiB, the image needs." },
    size: { type: count, output: true, doc: "The image's size in bytes." },
    os_distro: { type: text, output: true, doc: "The operating system's distribution." },
    os_version: { type: text, output: true, doc: "The operating system's version." },
    region: { type: text, output: true, doc: "The name of the image's region." },
    creator_task_id: { type: uuid4, doc: "The task that created the image." },
    task_id: { type: uuid4, doc: "The image's last task." },
    created_at: { type: dateTime, output: true, inEveryRecord: true, doc: "When the service created the image (ISO 8601)." },
    updated_at: { type: dateTime, output: true, doc: "When the service last changed the image (ISO 8601); never a diff." },
    project_id: { type: count, doc: "The image's project." },
    region_id: { type: count, doc: "The image's region." },
  },
  paths: {
    /** POST (spec): create from a volume; GET (reference): list, `limit`/`offset` paging. */
    create: "/cloud/v1/bmimages/{project_id}/{region_id}",
    /** POST (the vendor SDK's create from a volume, beside the spec's bmimages) and GET (list). */
    collection: "/cloud/v1/images/{project_id}/{region_id}",
    /** GET, PATCH, DELETE (reference). */
    item: "/cloud/v1/images/{project_id}/{region_id}/{image_id}",
  },
  operations: {
    create: {
      method: "POST",
      path: "create",
      task: "create_image",
      created: "images",
      request: "gcore.types.cloud.instances.image_create_from_volume_params.ImageCreateFromVolumeParams",
    },
    list: { method: "GET", path: "create", response: "gcore.types.cloud.instances.image.Image" },
    get: { method: "GET", path: "item", response: "gcore.types.cloud.instances.image.Image" },
    update: {
      method: "PATCH",
      path: "item",
      spelling: "record",
      request: "gcore.types.cloud.instances.image_update_params.ImageUpdateParams",
    },
    delete: { method: "DELETE", path: "item", task: "delete_image" },
    more: {
      /** The vendor SDK's create from a volume and list, on images rather than bmimages. */
      createFromVolume: {
        method: "POST",
        path: "collection",
        task: "create_image",
        created: "images",
        request: "gcore.types.cloud.instances.image_create_from_volume_params.ImageCreateFromVolumeParams",
      },
      listImages: { method: "GET", path: "collection", response: "gcore.types.cloud.instances.image.Image" },
    },
  },
  vendorLeftOut: {
    creator_task_id:
      "Read as the evidence that a create of the stack's made the image; a task id is bookkeeping, and `taskIds` shows the last operation's tasks.",
    task_id: "The service's last task on the image, bookkeeping that changes with others' calls; `taskIds` shows the stack's own.",
    currency_code: "Billing: the price list's currency, which changes with the account and not with the image.",
    price_per_hour: "Billing: the price list's, which changes without any write to the image.",
    price_per_month: "Billing: the price list's, which changes without any write to the image.",
    price_status: "Billing: whether the price list shows a price, not a fact of the image.",
    display_order: "The order of the service's own catalogue images; an image made from a volume has none.",
    description: "Set by the service on its own catalogue images only; no call of this kind takes or changes it.",
    gpu_driver: "Set by the service on its GPU catalogue images only; an image made from a volume has none.",
    gpu_driver_type: "Set by the service on its GPU catalogue images only; an image made from a volume has none.",
    gpu_driver_version: "Set by the service on its GPU catalogue images only; an image made from a volume has none.",
  },
  terraform: [{ type: "gcore_cloud_instance_image", generation: 2 }],
} as const satisfies Contract;

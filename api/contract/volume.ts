// Volume: a scope's volumes (the vendor SDK's volumes.list and volumes.get), read only. A
// BaremetalImage is made from one and a snapshot policy holds some; getVolume finds one in the
// list by id, name or whether it boots.
import type { ReadOnlyContract } from "./types";

const MODEL = "gcore.types.cloud.volume.Volume";

export const Volume = {
  name: "Volume",
  doc: "A volume of a project and region, which a BaremetalImage is made from and a snapshot policy snapshots. No stack of this provider creates one.",
  paths: {
    /** GET (the vendor SDK): a scope's volumes, `limit`/`offset` paging. */
    collection: "/cloud/v1/volumes/{project_id}/{region_id}",
    /** GET (the vendor SDK). */
    item: "/cloud/v1/volumes/{project_id}/{region_id}/{volume_id}",
  },
  operations: {
    list: { method: "GET", path: "collection", response: MODEL },
    get: { method: "GET", path: "item", response: MODEL },
  },
  vendorLeftOut: {
    attachments: "The servers the volume is attached to; no resource of this provider attaches a volume.",
    creator_task_id: "The task that made the volume, someone else's: no stack of this provider creates a volume.",
    limiter_stats: "The volume's IOPS and bandwidth limits, which no resource of this provider sets or reads.",
    snapshot_ids: "The volume's snapshots, which its snapshot policies make and the service deletes; no stack names one.",
    tags: "The volume's tags, which no lookup filters on: getVolume finds a volume by id, name or bootable.",
    task_id: "The service's last task on the volume, bookkeeping that changes with others' calls.",
    updated_at: "When the volume last changed, which changes with others' calls and no program refers to.",
    volume_image_metadata:
      "What the volume's data holds (its operating system): an image made from it carries os_distro and os_version, which getImage answers.",
  },
} as const satisfies ReadOnlyContract;

// One volume's membership of a snapshot lifecycle policy (the vendor SDK's snapshot_schedules
// add_volumes / remove_volumes, synchronous PUTs that answer the policy). Membership is the
// policy's: the record is the policy's `volumes` entry for the volume, read with the policy's
// GET (need_volumes=true), and the calls name the volumes to add or remove in a list.
import { positiveId, text, uuid4 } from "./common";
import type { Contract } from "./types";

export const SnapshotPolicyVolume = {
  name: "SnapshotPolicyVolume",
  doc: "One volume's membership of an existing snapshot lifecycle policy, managed alone (a policy shared between stacks): create adds only this volume to the policy, destroy removes only it; the policy's other volumes are never touched.",
  fields: {
    volumeId: {
      type: uuid4,
      required: true,
      set: "create",
      doc: "The volume the policy snapshots (uuid4), in the policy's project and region.",
    },
  },
  record: {
    id: { type: text, doc: "The membership's id: `<policyId>/<volumeId>`." },
    policy_id: { type: positiveId, doc: "The policy that holds the volume." },
    project_id: { type: positiveId, doc: "The policy's project." },
    region_id: { type: positiveId, doc: "The policy's region." },
    volume_name: { type: text, output: true, inEveryRecord: true, doc: "The volume's name, as the policy lists it." },
  },
  paths: {
    /** GET with need_volumes=true: the policy, its volumes listed (reference). */
    item: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}",
    /** PUT `{volume_ids}`: adds them; answers the policy (vendor SDK). */
    add: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}/add_volumes_to_policy",
    /** PUT `{volume_ids}`: removes them; answers the policy (vendor SDK). */
    remove: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}/remove_volumes_from_policy",
  },
  operations: {
    get: { method: "GET", path: "item", response: "gcore.types.cloud.lifecycle_policy.LifecyclePolicy" },
    create: {
      method: "PUT",
      path: "add",
      request: "gcore.types.cloud.snapshot_schedule_add_volumes_params.SnapshotScheduleAddVolumesParams",
      response: "gcore.types.cloud.lifecycle_policy.LifecyclePolicy",
    },
    delete: {
      method: "PUT",
      path: "remove",
      request: "gcore.types.cloud.snapshot_schedule_remove_volumes_params.SnapshotScheduleRemoveVolumesParams",
      response: "gcore.types.cloud.lifecycle_policy.LifecyclePolicy",
    },
  },
  identity: { policyId: { type: positiveId, doc: "The snapshot lifecycle policy's id." } },
  recordModel: "gcore.types.cloud.lifecycle_policy.Volume",
  vendorLeftOut: {
    volume_ids: "The add and remove calls take a list; each membership sends its one `volumeId` as a list of one.",
  },
} as const satisfies Contract;

// Snapshot lifecycle policy: PATCH lifecycle_policy (spec: name and status).
import { name, oneOf } from "./common";
import type { BodyContract } from "./types";

export const POLICY = {
  fields: {
    name: { type: name, set: "update" },
    status: { type: oneOf(["active", "paused"]), set: "update" },
  },
  omitted: "unmanaged",
} as const satisfies BodyContract;

/** Fields only the service writes, in the records it returns. */
export const POLICY_RECORD = ["id", "action", "project_id", "region_id", "user_id", "schedules", "volumes"] as const;

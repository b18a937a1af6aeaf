// Pool members made one by one, by an LbPoolMember's create. A member is known as such by
// evidence only: the member create task (`create_lbmember`) whose `created_resources` names
// it, never by its address. A pool holding one has its members managed one by one, so its
// whole list is no program's to own: LbPoolSettings' check refuses `membersOwnership:
// "exclusive"` then (it would remove that member, whose resource would make it again), and
// cims-import leaves `members` out of the pool's program.
import { PATHS } from "../../api/paths";
import type { CimsClient } from "../client/http";
import { listAll } from "../client/list";
import { recordsIn, stringsIn } from "../../api/guards";

/**
 * The members of `members` (a pool's list) that a member create task of the scope made: member
 * id (lowercase) -> that task's id. A pool with no members asks nothing. Throws what the task
 * list throws.
 */
export async function membersMadeAlone(
  client: CimsClient,
  scope: { projectId: number; regionId: number },
  members: unknown,
): Promise<Map<string, string>> {
  const held = new Set(recordsIn(members).map((m) => String(m.id).toLowerCase()));
  const made = new Map<string, string>();
  if (held.size === 0) return made;
  const query = { task_type: "create_lbmember", project_id: String(scope.projectId), region_id: String(scope.regionId) };
  for (const task of await listAll(client, PATHS.tasks, query)) {
    const created = recordsIn([task.created_resources])[0]?.members;
    for (const id of stringsIn(created).map((s) => s.toLowerCase())) if (held.has(id)) made.set(id, String(task.id));
  }
  return made;
}

// Pool members made one by one, by a member create (an LbPoolMember's, or an LbPoolSettings'
// member add, of any stack). A member is known as such by evidence only: the member create
// task (`create_lbmember`) whose `created_resources` names it, never by its address. Such a
// member is some stack's own: LbPoolSettings' check refuses `membersOwnership: "exclusive"`
// over it (it would remove that member, whose resource would make it again), and no import
// (`pulumi import`, cims-import, a Terraform state) writes it into a program.
import { PATHS } from "../../api/paths";
import type { CimsClient } from "../client/http";
import { listAll } from "../client/list";
import { type ApiRecord, recordsIn, stringsIn } from "../../api/guards";
import type { Prepared } from "../methods/descriptor";

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

/**
 * A pool's record as an import may take it: without the members a member create made (some
 * stack's own, which a second stack must not adopt), each named in a note with its task.
 */
export async function withoutMembersMadeAlone(
  client: CimsClient,
  pool: ApiRecord,
  scope: { projectId: number; regionId: number },
): Promise<Prepared> {
  const made = await membersMadeAlone(client, scope, pool.members);
  if (made.size === 0) return { record: pool, notes: [] };
  const kept = recordsIn(pool.members).filter((m) => !made.has(String(m.id).toLowerCase()));
  const left = [...made].map(([member, task]) => `${member} (task ${task})`).join(", ");
  const note =
    `pool ${String(pool.id).toLowerCase()}: member(s) ${left} were made by a member create (an LbPoolMember's, or another ` +
    "LbPoolSettings'), so they are some stack's own: left out of `members`, and not adopted";
  // None left: `members` is left out (unmanaged) rather than written as [].
  const { members: _all, ...rest } = pool;
  return { record: kept.length > 0 ? { ...pool, members: kept } : rest, notes: [note] };
}

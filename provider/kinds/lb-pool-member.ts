// LbPoolMember: one member of an existing pool, owned alone (owned.ts): POST .../members
// (a task; the id comes from its created_resources.members), PATCH in place (a task), DELETE
// (a task), GET for refresh. Members carry no tags and no creator, so the create's own task
// is the only evidence of what it made: a member at the same address and port may be
// another stack's, and is never taken for ours. The service refuses a second member at one
// address and port, so one already in the pool fails at preview and before the POST, naming it.
import { LbPoolMember as contract } from "../../api/contract/lb-pool-member";
import { memberKey } from "../../api/members";
import { apiPath } from "../client/path";
import type { OwnedDescriptor, Scoped } from "../methods/descriptor";
import type { KindEntry } from "../methods/kind-entry";
import type { Survey } from "../methods/evidence";
import { ownedResource } from "../methods/owned";
import { OWN } from "../methods/inputs";
import { type Inputs, isUnknown } from "../methods/schema";
import type { ApiRecord } from "../../api/guards";

const params = (i: Scoped) => ({ project_id: i.projectId, region_id: i.regionId, pool_id: String(i.poolId) });

/** The pool's members: where a member at the program's address and port would already be. */
const survey = (i: Scoped): Survey => ({ path: apiPath(contract.paths.collection, params(i)) });

const known = (...values: unknown[]) => values.every((v) => v !== undefined && !isUnknown(v));

function takenMessage(inputs: Inputs, taken: ApiRecord): string {
  return (
    `address: pool ${String(inputs.poolId)} already has member ${String(taken.id)} at ${memberKey(taken.address, taken.protocol_port)}, ` +
    `and the service refuses a second member at one address and port, so nothing was created. To manage that member, adopt it: ` +
    `set \`importId: "${String(taken.id)}"\`; otherwise pick another address or protocolPort`
  );
}

export const memberDescriptor: OwnedDescriptor = {
  contract,
  own: {
    poolId: OWN.poolId,
    projectId: OWN.projectId,
    regionId: OWN.regionId,
    timeouts: OWN.timeouts,
    importId: OWN.importId,
    deleteAdopted: OWN.deleteAdopted,
  },
  scoped: true,
  label: (i, id) => `LbPoolMember ${memberKey(i.address, i.protocolPort)} of pool ${String(i.poolId)}${id ? ` (${id})` : ""}`,
  noun: "pool member",
  created: "members",
  createTask: "create_lbmember",
  paths: { create: contract.paths.collection, list: contract.paths.collection, one: contract.paths.item, idParam: "member_id" },
  pathInputs: ["poolId"],
  evidence: "task",
  // The service refuses a second member at one address and port, and check() says so.
  meanwhile: "otherwise stops at preview while a member is at that address and port",
  updateByTask: true,
  recordPath: (s, id, named) => apiPath(contract.paths.item, { ...params({ ...s, poolId: named?.poolId }), member_id: id }),
  importIdParts: ["poolId"],
  survey,
  findHint: (i) =>
    `GET ${survey(i).path} lists the pool's members: one at ${memberKey(i.address, i.protocolPort)} may be the one it made, or may be another's (members carry no mark to tell)`,
  // cims-import does not list members (they live under a pool); `pulumi import` reads one by
  // `<poolId>/<memberId>` (importIdParts). A member a Terraform state names is adopted by its
  // pool (the state's `pool_id`, which cims-import puts on the record) and id.
  import: {
    nouns: ["pool member", "pool members"],
    prefix: "member",
    id: (r) => String(r.id).toLowerCase(),
    name: (r) => `${String(r.address)}-${String(r.protocol_port)}`,
    args: (r, fields, scope) => ({
      ...(typeof r.pool_id === "string" ? { poolId: r.pool_id } : {}),
      ...fields,
      ...scope,
      importId: String(r.id),
    }),
  },
  hooks: {
    exclusive: {
      holds: (i) =>
        known(i.poolId, i.address, i.protocolPort)
          ? { place: `pool ${String(i.poolId).toLowerCase()}`, value: memberKey(i.address, i.protocolPort), property: "address" }
          : undefined,
      heldBy: (m) => memberKey(m.address, m.protocol_port),
      clash: (a, b) => a === b,
      rule: "the service refuses a second member at one address and port",
      taken: takenMessage,
    },
  },
};

const member = ownedResource(memberDescriptor);

/** LbPoolMember: its descriptor, field table and methods, as the registry (./index.ts) lists it. */
export const LbPoolMember: KindEntry = { descriptor: memberDescriptor, table: member.table, methods: member.methods };

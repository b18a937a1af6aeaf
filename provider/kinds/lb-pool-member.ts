// LbPoolMember: one member of an existing pool, owned alone (owned.ts): POST .../members
// (a task; the id comes from its created_resources.members), PATCH in place (a task), DELETE
// (a task), GET for refresh. Members carry no tags and no creator, so the create's own task
// is the only evidence of what it made: a member at the same address and port may be
// another stack's, and is never taken for ours. The service refuses a second member at one
// address and port, so one already in the pool fails at preview and before the POST, naming it.
import { LbPoolMember as contract } from "../../api/contract/lb-pool-member";
import { memberKey } from "../../api/members";
import { ownedKind } from "../methods/owned";
import { callPath } from "../methods/describe";
import { allKnown, type Inputs } from "../methods/schema";
import type { ApiRecord } from "../../api/guards";
import { lbPoolMemberExample } from "./lb-pool-member.example";

function takenMessage(inputs: Inputs, taken: ApiRecord): string {
  return (
    `address: pool ${String(inputs.poolId)} already has member ${String(taken.id)} at ${memberKey(taken.address, taken.protocol_port)}, ` +
    `and the service refuses a second member at one address and port, so nothing was created. To manage that member, adopt it: ` +
    `set \`importId: "${String(taken.id)}"\`; otherwise pick another address or protocolPort`
  );
}

export const LbPoolMember = {
  example: lbPoolMemberExample,
  ...ownedKind({
    contract,
    label: (i, id) => `LbPoolMember ${memberKey(i.address, i.protocolPort)} of pool ${String(i.poolId)}${id ? ` (${id})` : ""}`,
    noun: "pool member",
    evidence: "task",
    // The service refuses a second member at one address and port, and check() says so.
    meanwhile: "otherwise stops at preview while a member is at that address and port",
    findHint: (i) =>
      `GET ${callPath(contract, "list", i)} lists the pool's members: one at ${memberKey(i.address, i.protocolPort)} may be the one it made, or may be another's (members carry no mark to tell)`,
    // cims-import does not list members (they live under a pool); `pulumi import` reads one by
    // `<poolId>/<memberId>` (importIdParts). A member a Terraform state names is adopted by its
    // pool (the state's `pool_id`, which cims-import puts on the record) and id.
    import: {
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
          allKnown(i.poolId, i.address, i.protocolPort)
            ? { place: `pool ${String(i.poolId).toLowerCase()}`, value: memberKey(i.address, i.protocolPort), property: "address" }
            : undefined,
        heldBy: (m) => memberKey(m.address, m.protocol_port),
        clash: (a, b) => a === b,
        rule: "the service refuses a second member at one address and port",
        taken: takenMessage,
      },
    },
  }),
};

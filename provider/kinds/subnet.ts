// Subnet: POST subnets (asynchronous; the id comes from the task), PATCH for the fields the
// service can change in place, DELETE (asynchronous), GET for refresh (owned.ts). What is a
// subnet's own: the service refuses overlapping CIDRs on one network, so a CIDR already taken
// fails at preview and before the POST (naming the subnet that holds it), and a replacement
// whose new CIDR overlaps the old deletes the old first. A subnet is its create's only by
// evidence (evidence.ts), never by its name and CIDR: another team may make the same a second later.
import { Subnet as contract } from "../../api/contract/subnet";
import { overlaps } from "../../api/net";
import { ownedKind } from "../methods/owned";
import { callPath, exclusiveIn } from "../methods/describe";
import type { Inputs } from "../methods/schema";
import type { ApiRecord } from "../../api/guards";
import { subnetExample } from "./subnet.example";

function overlapMessage(inputs: Inputs, taken: ApiRecord): string {
  return (
    `cidr: ${String(inputs.cidr)} overlaps subnet "${String(taken.name)}" (${String(taken.id)}, ${String(taken.cidr)}) on network ` +
    `${String(inputs.networkId)}, and the service refuses overlapping subnets on one network, so nothing was created. To manage that subnet, adopt it: set \`importId: "${String(taken.id)}"\` and the program's cidr to ` +
    `${String(taken.cidr)}; otherwise pick a cidr that overlaps no subnet of the network`
  );
}

export const Subnet = {
  example: subnetExample,
  ...ownedKind({
    contract,
    noun: "subnet",
    // Its create is looked for among its network's subnets, which are also the CIDRs already
    // taken; cims-import's --network imports only the subnets of the networks it names.
    listedBy: "networkId",
    findHint: (i) =>
      `GET ${callPath(contract, "list", i)}?network_id=${String(i.networkId)} lists the network's subnets: look for one named "${String(i.name)}" with cidr ${String(i.cidr)}`,
    // No gateway needs `connectToNetworkRouter: false` (api/rules.ts), written next to networkId.
    import: { argsAfter: { networkId: (r) => (r.gateway_ip === null ? { connectToNetworkRouter: false } : {}) } },
    hooks: {
      exclusive: exclusiveIn(contract, {
        per: "networkId",
        value: "cidr",
        clash: overlaps,
        rule: "the service refuses overlapping subnets on one network",
        taken: overlapMessage,
      }),
    },
  }),
};

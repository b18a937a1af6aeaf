// Subnet: POST subnets (asynchronous; the id comes from the task), PATCH for the fields the
// service can change in place, DELETE (asynchronous), GET for refresh (owned.ts). What is a
// subnet's own: the service refuses overlapping CIDRs on one network, so a CIDR already taken
// fails at preview and before the POST (naming the subnet that holds it), and a replacement
// whose new CIDR overlaps the old deletes the old first. A subnet is its create's only by
// evidence (evidence.ts), never by its name and CIDR: another team may make the same a second later.
import { Subnet as contract } from "../../api/contract/subnet";
import { canonical, overlaps } from "../../api/net";
import type { Scoped } from "../methods/descriptor";
import type { Survey } from "../methods/evidence";
import { ownedKind } from "../methods/owned";
import { callPath } from "../methods/describe";
import { allKnown, type Inputs } from "../methods/schema";
import type { ApiRecord } from "../../api/guards";
import { subnetExample } from "./subnet.example";

/** The network's subnets: where one a create made is listed, and the CIDRs already taken. */
const survey = (i: Scoped): Survey => ({ path: callPath(contract, "list", i), query: { network_id: String(i.networkId) } });

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
    survey,
    findHint: (i) =>
      `GET ${callPath(contract, "list", i)}?network_id=${String(i.networkId)} lists the network's subnets: look for one named "${String(i.name)}" with cidr ${String(i.cidr)}`,
    import: {
      filter: {
        flag: "network",
        query: "network_id",
        value: "<uuid>",
        help: "import only the subnets of this network (repeatable; default: every\nsubnet of the project and region)",
      },
      // No gateway needs `connectToNetworkRouter: false` (api/rules.ts), written next to networkId.
      args: (r, fields, scope) => {
        const args: Inputs = {};
        for (const [name, value] of Object.entries(fields)) {
          args[name] = value;
          if (name === "networkId" && r.gateway_ip === null) args.connectToNetworkRouter = false;
        }
        return { ...args, ...scope, importId: String(r.id) };
      },
    },
    hooks: {
      exclusive: {
        holds: (i) =>
          allKnown(i.networkId, i.cidr) && typeof i.cidr === "string"
            ? { place: `network ${canonical("uuid4", i.networkId)}`, value: i.cidr, property: "cidr" }
            : undefined,
        heldBy: (r) => (typeof r.cidr === "string" ? r.cidr : undefined),
        clash: overlaps,
        rule: "the service refuses overlapping subnets on one network",
        taken: overlapMessage,
      },
    },
  }),
};

// The docs example of LbPoolMember (docs/resources/lb-pool-member.md), in every language from this one model.
import { config, type ExampleProgram, output } from "./program-model";

export const lbPoolMemberExample: ExampleProgram = {
  doc: "A member of a pool that already exists (its id from the stack's config), on a subnet the program makes on an existing network: the member uses the subnet's id, so it is created after the subnet and deleted before it. The stack exports the member's id.",
  declarations: [
    { type: "Subnet", name: "backend-subnet", args: { name: "backend", cidr: "10.40.0.0/24", networkId: config("networkId") } },
    {
      type: "LbPoolMember",
      name: "backend-member",
      args: { poolId: config("poolId"), address: "10.40.0.10", protocolPort: 8080, subnetId: output("backend-subnet", "id"), weight: 5 },
    },
  ],
  outputs: { memberId: output("backend-member", "id") },
};

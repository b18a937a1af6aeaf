// The docs example of LbPoolMember (docs/resources/lb-pool-member.md), in every language from this one model.
import { type ExampleProgram, lookup, output } from "./program-model";

export const lbPoolMemberExample: ExampleProgram = {
  doc: "A member of a pool that already exists (found by its name, `web-pool`), on a subnet the program makes on an existing network (found by its name, `demo-net`): the member uses the subnet's id, so it is created after the subnet and deleted before it. The stack exports the member's id.",
  declarations: [
    {
      type: "Subnet",
      name: "backend-subnet",
      args: { name: "backend", cidr: "10.40.0.0/24", networkId: lookup("getNetwork", { name: "demo-net" }, "id") },
    },
    {
      type: "LbPoolMember",
      name: "backend-member",
      args: {
        poolId: lookup("getPool", { name: "web-pool" }, "id"),
        address: "10.40.0.10",
        protocolPort: 8080,
        subnetId: output("backend-subnet", "id"),
        weight: 5,
      },
    },
  ],
  outputs: { memberId: output("backend-member", "id") },
};

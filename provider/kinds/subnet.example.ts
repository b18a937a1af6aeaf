// The docs example of Subnet (docs/resources/subnet.md), in every language from this one model.
import { type ExampleProgram, lookup, output } from "./program-model";

export const subnetExample: ExampleProgram = {
  doc: "A subnet on a network that already exists (found by its name, `demo-net`), with DNS servers and a tag; the stack exports its id and the gateway address the service gave it.",
  declarations: [
    {
      type: "Subnet",
      name: "app-subnet",
      args: {
        name: "app",
        cidr: "10.30.0.0/24",
        networkId: lookup("getNetwork", { name: "demo-net" }, "id"),
        dnsNameservers: ["10.30.0.2"],
        tags: { team: "web" },
      },
    },
  ],
  outputs: { subnetId: output("app-subnet", "id"), gatewayIp: output("app-subnet", "gatewayIp") },
};

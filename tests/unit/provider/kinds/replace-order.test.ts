// A replacement's order, as the engine reads it from the diff on either face (the plugin's
// DiffResponse, the DiffResult the dynamic-provider host passes on): create first, as Pulumi
// does, so that what uses the old record moves before it goes; delete first only where the
// service cannot hold both, a subnet's CIDR overlapping the old one on its network, a member at
// the old one's address and port in its pool. No class sets the option any more, so the diff's
// answer is the order.
import type { FaceName, Props } from "../faults/faces";
import { providerOn } from "../faults/faces";

const NET = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01";
const OTHER_NET = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
const POOL = "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
// Diff sends nothing: the URL is never reached.
const CONFIG = { "cims:apiUrl": "http://127.0.0.1:9", "cims:apiKey": "unit-order-key", "cims:skipCredentialsValidation": "true" };

const subnet: Props = {
  name: "app",
  cidr: "10.0.1.0/24",
  networkId: NET,
  connectToNetworkRouter: true,
  enableDhcp: true,
  ipVersion: 4,
  gatewayIp: "10.0.1.1",
  dnsNameservers: [],
  hostRoutes: [],
  routerIdToConnect: null,
  tags: {},
  projectId: 1,
  regionId: 1,
};
const member: Props = {
  poolId: POOL,
  address: "10.0.1.10",
  protocolPort: 8080,
  subnetId: "2c3d4e5f-6071-4b2c-9d3e-4f5a6b7c8d9e",
  weight: 1,
  adminStateUp: true,
  backup: false,
  monitorAddress: null,
  monitorPort: null,
  projectId: 1,
  regionId: 1,
};

describe.each<FaceName>(["dynamic", "native"])("%s face", (face) => {
  test("Subnet: a CIDR that does not overlap the old one, or another network, creates first; an overlapping one on its network deletes first", async () => {
    const p = await providerOn(face, "Subnet", CONFIG);
    const order = (change: Props) => p.deleteFirst("s", subnet, { ...subnet, ...change });
    // The README's move: a member on the subnet moves to the new one before the old one goes.
    expect(await order({ cidr: "10.0.2.0/24", gatewayIp: "10.0.2.1" })).toBe(false);
    expect(await order({ networkId: OTHER_NET })).toBe(false);
    expect(await order({ cidr: "10.0.0.0/23", gatewayIp: "10.0.0.1" })).toBe(true);
    expect(await order({ connectToNetworkRouter: false })).toBe(true);
    // Nothing changed: a replacement the engine still makes (replaceOnChanges over a partly
    // created resource, a pending replacement) clashes with its own old record all the same.
    expect(await p.deleteFirst("s", subnet, subnet)).toBe(true);
    // A replacement that adopts creates nothing, and may adopt the very record the old one holds.
    expect(await order({ cidr: "10.0.0.0/23", importId: "5d6e7f80-9a1b-4c2d-8e3f-405162738495" })).toBe(false);
  });

  test("LbPoolMember: the same address and port in the same pool deletes first; another address, port or pool creates first", async () => {
    const p = await providerOn(face, "LbPoolMember", CONFIG);
    const order = (change: Props) => p.deleteFirst("m", member, { ...member, ...change });
    expect(await order({ subnetId: "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70" })).toBe(true);
    expect(await order({ address: "10.0.2.10", subnetId: "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70" })).toBe(false);
    expect(await order({ protocolPort: 8081 })).toBe(false);
    expect(await order({ poolId: "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70" })).toBe(false);
  });
});

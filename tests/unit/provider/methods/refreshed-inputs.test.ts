// The inputs a refresh records (the old side of the dynamic face's `preview --diff`): what the
// program gave, as the service now has it. No argument a refresh would drop, no field a pool
// member's service fills, no bookkeeping; states written before `__given` keep working.
import { poolTable } from "../../../../provider/kinds/lb-pool-settings";
import { Subnet } from "../../../../provider/kinds/subnet";
import { refreshedInputs } from "../../../../provider/methods/table";
import { NET, POOL } from "../../../support/check-diff";

const member = (address: string, id: string, weight: number) => ({
  address,
  protocol_port: 8080,
  weight,
  subnet_id: null,
  id,
  operating_status: "NO_MONITOR",
  admin_state_up: true,
  backup: false,
  provisioning_status: "ACTIVE",
});
const A = "7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e";
const B = "8c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f";
const C = "9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a";

test("a pool member's service-filled fields stay out; a member added outside shows what a program could give", () => {
  const inputs = {
    poolId: POOL,
    projectId: 1,
    regionId: 1,
    members: [
      { address: "10.0.0.10", protocolPort: 8080, weight: 2 },
      { address: "10.0.0.11", protocolPort: 8080 },
    ],
  };
  const state = poolTable.outputs(inputs, { members: [member("10.0.0.10", A, 2), member("10.0.0.11", B, 1)] }, []);
  expect(Object.keys(state)).not.toContain("managedOptional");
  // Outside Pulumi: the first member's weight changed, a third added.
  const now = {
    ...state,
    ...poolTable.fromRecord({ members: [member("10.0.0.10", A, 7), member("10.0.0.11", B, 1), member("10.0.0.12", C, 1)] }, state),
  };
  expect(refreshedInputs(now, poolTable.rules, true)).toEqual({
    poolId: POOL,
    projectId: 1,
    regionId: 1,
    members: [
      { address: "10.0.0.10", protocolPort: 8080, weight: 7 },
      { address: "10.0.0.11", protocolPort: 8080 },
      { address: "10.0.0.12", protocolPort: 8080, weight: 1, adminStateUp: true, backup: false },
    ],
  });
});

test("a subnet keeps the optional arguments the program gave (dnsNameservers) and leaves out those it did not", () => {
  const inputs = {
    name: "app",
    cidr: "10.0.0.0/24",
    networkId: NET,
    dnsNameservers: ["8.8.8.8"],
    projectId: 1,
    regionId: 1,
    importId: undefined,
  };
  const record = {
    name: "by-hand",
    cidr: "10.0.0.0/24",
    network_id: NET,
    dns_nameservers: ["8.8.8.8"],
    gateway_ip: "10.0.0.1",
    host_routes: [],
  };
  const state = Subnet.table.outputs(inputs, record, []);
  const refreshed = refreshedInputs(state, Subnet.table.rules);
  expect(refreshed).toMatchObject({ name: "by-hand", dnsNameservers: ["8.8.8.8"] });
  expect(Object.keys(refreshed).sort()).toEqual(["cidr", "dnsNameservers", "name", "networkId", "projectId", "regionId"]);
});

test("a state written before __given: the optional arguments it listed as given are kept", () => {
  const legacy = {
    name: "app",
    cidr: "10.0.0.0/24",
    dnsNameservers: ["8.8.8.8"],
    gatewayIp: "10.0.0.1",
    managedOptional: ["dnsNameservers"],
  };
  expect(refreshedInputs(legacy, Subnet.table.rules)).toEqual({ name: "app", cidr: "10.0.0.0/24", dnsNameservers: ["8.8.8.8"] });
});

// What the engine derives for an owned kind from a line of its file: a list narrowed to a
// place (`listedBy`: where its create is looked for, cims-import's filter flag, and what it
// reads there), arguments a
// record implies after a field (`argsAfter`), and what it holds alone in a place (`exclusiveIn`).
import { Subnet as contract } from "../../../../api/contract/subnet";
import { overlaps } from "../../../../api/net";
import { describeOwned, exclusiveIn } from "../../../../provider/methods/describe";

const taken = () => "taken";
const described = describeOwned({
  contract,
  noun: "subnet",
  listedBy: "networkId",
  findHint: () => "",
  import: { argsAfter: { networkId: (r) => (r.gateway_ip === null ? { connectToNetworkRouter: false } : {}) } },
});
const NETWORK = "0F1E2D3C-4B5A-4968-8776-655443322110";

test("listedBy: the create is looked for in the list narrowed by the input's wire name, and cims-import filters by it", () => {
  expect(described.survey({ projectId: 1, regionId: 2, networkId: NETWORK })).toEqual({
    path: "/cloud/v1/subnets/1/2",
    query: { network_id: NETWORK },
    // What a create reads there besides id, name and mark: the record's fields only a replacement changes.
    reads: ["cidr", "network_id", "ip_version"],
  });
  expect(described.import.filter).toEqual({
    flag: "network",
    query: "network_id",
    value: "<uuid>",
    help: "import only the subnets of this network (repeatable; default: every\nsubnet of the project and region)",
  });
});

test("argsAfter: what a record implies is written right after its field, the scope and importId last", () => {
  const args = described.import.args(
    { id: "s1", gateway_ip: null },
    { name: "a", networkId: "n", cidr: "c" },
    { projectId: 1, regionId: 2 },
  );
  expect(Object.keys(args)).toEqual(["name", "networkId", "connectToNetworkRouter", "cidr", "projectId", "regionId", "importId"]);
  expect(described.import.args({ id: "s1", gateway_ip: "10.0.0.1" }, { networkId: "n" }, { projectId: 1, regionId: 2 })).toEqual({
    networkId: "n",
    projectId: 1,
    regionId: 2,
    importId: "s1",
  });
});

test("exclusiveIn: the value held in the place the other input names, canonical, unknown while either is", () => {
  const ex = exclusiveIn(contract, { per: "networkId", value: "cidr", clash: overlaps, rule: "r", taken });
  expect(ex.holds({ networkId: NETWORK, cidr: "10.0.0.0/24" })).toEqual({
    place: `network ${NETWORK.toLowerCase()}`,
    value: "10.0.0.0/24",
    property: "cidr",
  });
  expect(ex.holds({ networkId: NETWORK, cidr: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" })).toBeUndefined();
  expect(ex.heldBy({ cidr: "10.0.1.0/24" })).toBe("10.0.1.0/24");
  expect(ex.heldBy({ cidr: null })).toBeUndefined();
});

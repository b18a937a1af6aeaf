// check() and diff() of Subnet, and its mapping to and from the wire (no engine, no network).
import { UNKNOWN } from "../../../../provider/methods/schema";
import { Subnet } from "../../../../provider/kinds/subnet";
import { setConfig } from "../../../../provider/methods/context";
import { NET, SUB, props, withScopeConfig } from "../../../support/check-diff";

withScopeConfig();

describe("Subnet check", () => {
  const ok = { name: "app", cidr: "10.0.0.0/24", networkId: NET };

  test("fills defaults from the spec and from cims: config, so state is explicit", async () => {
    const { inputs, failures } = await Subnet.methods.check({}, ok);
    expect(failures).toEqual([]);
    // ipVersion omitted is the service's: the CIDR's version (outputs show it), never a diff.
    expect(inputs).toEqual({ ...ok, projectId: 1, regionId: 2, connectToNetworkRouter: true, enableDhcp: true, tags: {} });
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    ["empty name", { name: " " }, ["name"]],
    ["CIDR with host bits", { cidr: "10.0.0.1/24" }, ["cidr"]],
    ["networkId not uuid4", { networkId: "6ba7b810-9dad-11d1-80b4-00c04fd430c8" }, ["networkId"]],
    ["gatewayIp null without connectToNetworkRouter false", { gatewayIp: null }, ["connectToNetworkRouter"]],
    ["router with connectToNetworkRouter false", { routerIdToConnect: NET, connectToNetworkRouter: false }, ["routerIdToConnect"]],
    ["ipVersion not matching the cidr", { ipVersion: 6 }, ["ipVersion"]],
    ["a bad DNS server and a duplicate", { dnsNameservers: ["8.8.8.8", "nope", "8.8.8.8"] }, ["dnsNameservers[1]", "dnsNameservers[2]"]],
    ["a host route with a bad next hop", { hostRoutes: [{ destination: "10.1.0.0/16", nexthop: "x" }] }, ["hostRoutes[0].nexthop"]],
    ["a 256-character tag value", { tags: { k: "v".repeat(256) } }, ["tags.k"]],
    ["a 256-character tag key", { tags: { ["k".repeat(256)]: "v" } }, [`tags.${"k".repeat(256)}`]],
    ["a misspelled argument", { cidrBlock: "10.0.0.0/24" }, ["cidrBlock"]],
    ["enableDhcp as a string", { enableDhcp: "false" }, ["enableDhcp"]],
  ])("%s fails naming %j", async (_case, change, expected) => {
    const { failures } = await Subnet.methods.check({}, { ...ok, ...change });
    expect(props(failures)).toEqual(expected);
    for (const f of failures ?? []) expect(f.reason).toContain(f.property);
    if (_case.includes("tag key")) expect(failures?.[0].reason).toContain("tag keys must be 1 to 255 characters");
  });

  test("gatewayIp null with connectToNetworkRouter false, and a 255-character tag, pass", async () => {
    const { failures } = await Subnet.methods.check(
      {},
      { ...ok, gatewayIp: null, connectToNetworkRouter: false, tags: { ["k".repeat(255)]: "v".repeat(255) } },
    );
    expect(failures).toEqual([]);
  });

  // YAML, Python, Go and Java programs cannot give null (their SDKs drop it): "disable", the
  // vendor's word, stands for it, and the checked inputs hold the null every later step reads.
  test('gatewayIp "disable" is null: checked as null, in the state as null, and refused as null is without connectToNetworkRouter false', async () => {
    const disabled = await Subnet.methods.check({}, { ...ok, gatewayIp: "disable", connectToNetworkRouter: false });
    expect(disabled.failures).toEqual([]);
    expect(disabled.inputs).toEqual((await Subnet.methods.check({}, { ...ok, gatewayIp: null, connectToNetworkRouter: false })).inputs);
    expect(disabled.inputs.gatewayIp).toBeNull();
    const refused = await Subnet.methods.check({}, { ...ok, gatewayIp: "disable" });
    expect(props(refused.failures)).toEqual(["connectToNetworkRouter"]);
    // Only the whole word: another text is an address that is not one.
    expect(props((await Subnet.methods.check({}, { ...ok, gatewayIp: "Disable", connectToNetworkRouter: false })).failures)).toEqual([
      "gatewayIp",
    ]);
  });

  test("unknown values (preview) are not failures, anywhere", async () => {
    const { failures } = await Subnet.methods.check(
      {},
      { ...ok, networkId: UNKNOWN, cidr: UNKNOWN, dnsNameservers: [UNKNOWN], tags: UNKNOWN },
    );
    expect(failures).toEqual([]);
  });

  test("a missing projectId with no default names cims:projectId", async () => {
    setConfig(() => undefined);
    const prev = process.env.CIMS_PROJECT_ID;
    delete process.env.CIMS_PROJECT_ID;
    try {
      const { failures } = await Subnet.methods.check({}, { ...ok, regionId: 1 });
      expect(failures).toEqual([expect.objectContaining({ property: "projectId", reason: expect.stringContaining("cims:projectId") })]);
    } finally {
      if (prev !== undefined) process.env.CIMS_PROJECT_ID = prev;
      setConfig((key) => ({ "cims:projectId": "1", "cims:regionId": "2" })[key]);
    }
  });
});

describe("Subnet diff", () => {
  const olds = {
    name: "app",
    cidr: "10.0.0.0/24",
    networkId: NET,
    connectToNetworkRouter: true,
    enableDhcp: true,
    ipVersion: 4,
    gatewayIp: "10.0.0.1",
    dnsNameservers: [],
    hostRoutes: [],
    routerIdToConnect: null,
    tags: { a: "1", b: "2" },
    projectId: 1,
    regionId: 2,
  };
  const news = {
    name: "app",
    cidr: "10.0.0.0/24",
    networkId: NET,
    connectToNetworkRouter: true,
    enableDhcp: true,
    ipVersion: 4,
    tags: { b: "2", a: "1" },
    projectId: 1,
    regionId: 2,
  };

  // deleteBeforeReplace holds whenever old and new overlap on one network, also with nothing
  // to replace: `pulumi up --replace` replaces a subnet whose diff is empty, in the diff's order.
  test("nothing changed after normalisation: tag order, omitted gateway (allocated), omitted DNS", async () => {
    expect(await Subnet.methods.diff("id", olds, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: true, diffs: [] });
  });
  test("in-place fields update; enableDhcp false is a change", async () => {
    const d = await Subnet.methods.diff("id", olds, { ...news, enableDhcp: false, tags: { a: "1" }, name: "web" });
    expect(d).toEqual({ changes: true, replaces: [], deleteBeforeReplace: true, diffs: ["name", "enableDhcp", "tags"] });
  });
  test("a CIDR change replaces; deleting first when the new CIDR overlaps on the same network", async () => {
    expect(await Subnet.methods.diff("id", olds, { ...news, cidr: "10.0.0.0/23" })).toEqual({
      changes: true,
      replaces: ["cidr"],
      deleteBeforeReplace: true,
      diffs: ["cidr"],
    });
    expect(await Subnet.methods.diff("id", olds, { ...news, cidr: "10.9.0.0/24" })).toEqual({
      changes: true,
      replaces: ["cidr"],
      deleteBeforeReplace: false,
      diffs: ["cidr"],
    });
    expect((await Subnet.methods.diff("id", olds, { ...news, connectToNetworkRouter: false, gatewayIp: null })).deleteBeforeReplace).toBe(
      true,
    );
  });
  test("an unknown value for a replacing field is a replacement in preview", async () => {
    expect((await Subnet.methods.diff("id", olds, { ...news, networkId: UNKNOWN })).replaces).toEqual(["networkId"]);
  });
  test("gatewayIp null (no gateway) differs from the allocated one", async () => {
    expect((await Subnet.methods.diff("id", olds, { ...news, gatewayIp: null })).changes).toBe(true);
  });
  test("outputs the service changes with no write of the stack's (free addresses, last change) are never a diff", async () => {
    const held = { ...olds, availableIps: "253", updatedAt: "2026-05-23T05:07:31", region: "Luxembourg", hasRouter: false };
    const later = { ...held, availableIps: "250", updatedAt: "2026-05-24T08:00:00" };
    expect(await Subnet.methods.diff("id", held, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: true, diffs: [] });
    expect(await Subnet.methods.diff("id", later, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: true, diffs: [] });
  });
});

describe("Subnet mapping", () => {
  test("create body: snake_case, omitted stays omitted, null and false are sent", () => {
    expect(
      Subnet.table.body({
        name: "a",
        cidr: "10.0.0.0/24",
        networkId: NET,
        connectToNetworkRouter: false,
        enableDhcp: false,
        ipVersion: 4,
        tags: {},
        gatewayIp: null,
      }),
    ).toEqual({
      name: "a",
      cidr: "10.0.0.0/24",
      network_id: NET,
      connect_to_network_router: false,
      enable_dhcp: false,
      ip_version: 4,
      tags: {},
      gateway_ip: null,
    });
    expect(Subnet.table.body({ name: "a", cidr: "10.0.0.0/24", networkId: NET, enableDhcp: true, tags: {} })).not.toHaveProperty(
      "gateway_ip",
    );
  });
  test("record -> outputs", () => {
    const out = Subnet.table.fromRecord({
      id: SUB,
      name: "a",
      cidr: "10.0.0.0/24",
      network_id: NET,
      enable_dhcp: true,
      gateway_ip: "10.0.0.1",
      dns_nameservers: ["1.1.1.1"],
      host_routes: [{ destination: "10.1.0.0/16", nexthop: "10.0.0.254" }],
      ip_version: 4,
      tags: [
        { key: "e", value: "x", read_only: false },
        { key: "creator_task_id", value: "t-1", read_only: true },
      ],
      total_ips: 9223372036854775807n,
      available_ips: 9223372036854775806n,
      has_router: false,
      created_at: "2026-05-23T05:07:31",
      updated_at: "2026-05-24T08:00:00",
      project_id: 1,
      region_id: 2,
      region: "Luxembourg",
    });
    expect(out).toMatchObject({
      networkId: NET,
      tags: { e: "x" },
      readOnlyTags: { creator_task_id: "t-1" },
      gatewayIp: "10.0.0.1",
      dnsNameservers: ["1.1.1.1"],
      totalIps: "9223372036854775807",
      availableIps: "9223372036854775806",
      hasRouter: false,
      createdAt: "2026-05-23T05:07:31",
      updatedAt: "2026-05-24T08:00:00",
      region: "Luxembourg",
    });
    expect(out.hostRoutes).toEqual([{ destination: "10.1.0.0/16", nexthop: "10.0.0.254" }]);
    // Create-only instructions are not in records: the program's values stand.
    expect(out).not.toHaveProperty("connectToNetworkRouter");
    expect(out).not.toHaveProperty("routerIdToConnect");
  });
});

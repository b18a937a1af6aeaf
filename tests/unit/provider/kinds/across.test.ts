// check() and diff() of every resource, and its mapping to and from the wire (no engine, no network).
import { parseJson } from "../../../../api/json";
import { BaremetalImage } from "../../../../provider/kinds/baremetal-image";
import { lbPoolSettingsMethods } from "../../../../provider/kinds/lb-pool-settings";
import { quotaThresholdMethods } from "../../../../provider/kinds/quota-threshold";
import { UNKNOWN } from "../../../../provider/methods/schema";
import { snapshotPolicyStateMethods } from "../../../../provider/kinds/snapshot-policy-state";
import { Subnet } from "../../../../provider/kinds/subnet";
import { camelKeys, plain } from "../../../../api/wire";
import { NET, POOL, withScopeConfig } from "../../../support/check-diff";

withScopeConfig();

describe("unknown values during preview, in every resource", () => {
  test.each([
    ["BaremetalImage", () => BaremetalImage.methods.check({}, { name: "img", volumeId: UNKNOWN, tags: { a: UNKNOWN } })],
    [
      "LbPoolSettings: two members with unknown addresses and the same port are not duplicates",
      () =>
        lbPoolSettingsMethods.check(
          {},
          {
            poolId: POOL,
            members: [
              { address: UNKNOWN, protocolPort: 80 },
              { address: UNKNOWN, protocolPort: 80, subnetId: UNKNOWN },
            ],
          },
        ),
    ],
    [
      "LbPoolSettings nested",
      () =>
        lbPoolSettingsMethods.check({}, { poolId: UNKNOWN, healthmonitor: { type: "HTTP", delay: UNKNOWN, timeout: 5, maxRetries: 3 } }),
    ],
    ["SnapshotPolicyState", () => snapshotPolicyStateMethods.check({}, { policyId: UNKNOWN, name: UNKNOWN, status: UNKNOWN })],
    [
      "QuotaThreshold: unknowns inside lastMessage",
      () =>
        quotaThresholdMethods.check(
          {},
          {
            clientId: 1,
            threshold: UNKNOWN,
            lastMessage: { globalQuotas: { keypairCountLimit: { limit: UNKNOWN, usage: "1" } }, regionalQuotas: UNKNOWN },
          },
        ),
    ],
    [
      "QuotaThreshold: unknown globalQuotas",
      () => quotaThresholdMethods.check({}, { clientId: 1, threshold: 75, lastMessage: { globalQuotas: UNKNOWN } }),
    ],
  ])("%s: check passes and keeps the unknowns", async (_name, run) => {
    const { failures, inputs } = await run();
    expect(failures).toEqual([]);
    expect(JSON.stringify(inputs)).toContain(UNKNOWN);
  });
});

describe("values the service re-spells or reorders are not changes", () => {
  const subnetOlds = {
    name: "v6",
    cidr: "2001:db8::/64",
    networkId: NET,
    connectToNetworkRouter: true,
    enableDhcp: true,
    ipVersion: 6,
    gatewayIp: "2001:db8::1",
    dnsNameservers: ["2001:4860:4860::8888"],
    hostRoutes: [
      { destination: "2001:db8:1::/48", nexthop: "2001:db8::fd" },
      { destination: "2001:db8:ff::/48", nexthop: "2001:db8::fe" },
    ],
    tags: { a: "1" },
    readOnlyTags: { creator_task_id: "t-1" },
    projectId: 1,
    regionId: 2,
  };
  test("canonical CIDR, addresses and uuids; host routes in any order; read-only tags never diffed", async () => {
    const news = {
      ...subnetOlds,
      cidr: "2001:DB8:0:0::/64",
      networkId: NET.toUpperCase(),
      gatewayIp: "2001:DB8::1",
      dnsNameservers: ["2001:4860:4860:0:0:0:0:8888"],
      hostRoutes: [
        { destination: "2001:db8:ff::/48", nexthop: "2001:DB8::FE" },
        { destination: "2001:db8:1::/48", nexthop: "2001:db8::fd" },
      ],
    };
    delete (news as Record<string, unknown>).readOnlyTags;
    expect(await Subnet.methods.diff("id", subnetOlds, news)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: true,
      diffs: [],
    });
    expect((await Subnet.methods.diff("id", subnetOlds, { ...news, cidr: "2001:db9::/64" })).replaces).toEqual(["cidr"]);
    // DNS order is the resolver order: it matters.
    expect(
      (
        await Subnet.methods.diff(
          "id",
          { ...subnetOlds, dnsNameservers: ["1.1.1.1", "8.8.8.8"] },
          { ...news, dnsNameservers: ["8.8.8.8", "1.1.1.1"] },
        )
      ).changes,
    ).toBe(true);
  });
  test("members in any order and spelling; lastSending with a zone is the zone-less instant", async () => {
    const members = [
      { id: "m1", address: "2001:db8::a", protocolPort: 80, weight: 1 },
      { id: "m2", address: "10.0.0.1", protocolPort: 81, weight: 1 },
    ];
    const poolOlds = { poolId: POOL, projectId: 1, regionId: 2, members };
    expect(
      (
        await lbPoolSettingsMethods.diff(POOL, poolOlds, {
          poolId: POOL,
          projectId: 1,
          regionId: 2,
          members: [
            { address: "10.0.0.1", protocolPort: 81 },
            { address: "2001:DB8:0::A", protocolPort: 80 },
          ],
        })
      ).changes,
    ).toBe(false);
    const quota = { clientId: 1, threshold: 80, lastSending: "2026-05-23T05:07:31" };
    expect((await quotaThresholdMethods.diff("1", quota, { ...quota, lastSending: "2026-05-23T07:07:31+02:00" })).changes).toBe(false);
    expect((await quotaThresholdMethods.diff("1", quota, { ...quota, lastSending: "2026-05-23T05:07:31Z" })).changes).toBe(false);
    expect((await quotaThresholdMethods.diff("1", quota, { ...quota, lastSending: "2026-05-23T05:07:32Z" })).changes).toBe(true);
  });
  test("tags: a read-only key is refused at preview, naming it", async () => {
    const { failures } = await Subnet.methods.check({}, { name: "s", cidr: "10.0.0.0/24", networkId: NET, tags: { creator_task_id: "x" } });
    expect(failures).toEqual([{ property: "tags.creator_task_id", reason: expect.stringContaining("tag creator_task_id is read-only") }]);
  });
});

test("a float-form number beyond 2^53 from the service reaches state as its exact text, not an object", () => {
  const record = parseJson('{"total_ips": 1e19, "size": 9007199254740993.0}') as Record<string, unknown>;
  expect(plain(camelKeys(record))).toEqual({ totalIps: "1e19", size: "9007199254740993.0" });
});

test("a state whose tags are a record's list (written by an older provider) compares and patches by the users' tags only", async () => {
  const olds = {
    name: "a",
    cidr: "10.0.0.0/24",
    networkId: NET,
    connectToNetworkRouter: true,
    enableDhcp: true,
    ipVersion: 4,
    projectId: 1,
    regionId: 2,
    tags: [
      { key: "env", value: "dev", read_only: false },
      { key: "creator_task_id", value: "t-1", read_only: true },
    ],
  };
  const news = { ...olds, tags: { env: "dev" } };
  expect((await Subnet.methods.diff("id", olds, news)).changes).toBe(false);
  expect(Subnet.table.patch(olds, { ...news, tags: { team: "a" } }, ["tags"])).toEqual({ tags: { team: "a", env: null } });
});

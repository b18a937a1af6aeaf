// The provider's check() and the emulator's request checks are built from one contract
// (api/contract): an input the provider refuses at preview is one the service would refuse,
// at the same field (camelCase there, snake_case here), with the same rule. The first rows
// are the disagreements that once passed preview and failed at `up` with a 400.
import { toSnake } from "../../../api/names";
import { setConfig } from "../../../provider/methods/context";
import { BaremetalImage } from "../../../provider/kinds/baremetal-image";
import { lbPoolSettingsMethods, poolTable } from "../../../provider/kinds/lb-pool-settings";
import { Subnet } from "../../../provider/kinds/subnet";
import { quotaTable, quotaThresholdMethods } from "../../../provider/kinds/quota-threshold";
import { validateQuotaPut } from "../../../emulator/collections/quota-threshold";
import { requestCheck } from "../../../emulator/serve";
import { BaremetalImage as imageContract } from "../../../api/contract/baremetal-image";
import { LbPoolSettings as poolContract } from "../../../api/contract/lb-pool-settings";
import { Subnet as subnetContract } from "../../../api/contract/subnet";

const validateSubnetCreate = requestCheck(subnetContract, "create");
const validateImageCreate = requestCheck(imageContract, "create");
const validatePoolPatch = requestCheck(poolContract, "update");

const NET = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01";
const VOL = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const POOL = "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f";

beforeAll(() => setConfig((key) => ({ "cims:projectId": "1", "cims:regionId": "1" })[key]));

type Case = [what: string, resource: keyof typeof SIDES, inputs: Record<string, unknown>, property: string, rule: RegExp];

const subnet = (extra: Record<string, unknown>) => ({ name: "s", cidr: "10.0.0.0/24", networkId: NET, ...extra });
const v6 = (extra: Record<string, unknown>) => subnet({ cidr: "2001:db8::/64", ...extra });
const hm = (extra: Record<string, unknown>) => ({
  poolId: POOL,
  healthmonitor: { type: "HTTP", delay: 5, timeout: 5, maxRetries: 3, ...extra },
});

const SIDES = {
  Subnet: { provider: Subnet.methods, body: (i: Record<string, unknown>) => Subnet.table.body(i), service: validateSubnetCreate },
  BaremetalImage: {
    provider: BaremetalImage.methods,
    body: (i: Record<string, unknown>) => BaremetalImage.table.body(i),
    service: validateImageCreate,
  },
  LbPoolSettings: {
    provider: lbPoolSettingsMethods,
    body: (i: Record<string, unknown>) => poolTable.patch({}, i, Object.keys(i)),
    service: validatePoolPatch,
  },
  QuotaThreshold: { provider: quotaThresholdMethods, body: (i: Record<string, unknown>) => quotaTable.body(i), service: validateQuotaPut },
};

const CASES: Case[] = [
  [
    "gatewayIp of the other IP version than cidr",
    "Subnet",
    subnet({ gatewayIp: "2001:db8::1" }),
    "gatewayIp",
    /must be an IPv4 address, like cidr/,
  ],
  ["an IPv6 gatewayIp outside an IPv6 cidr", "Subnet", v6({ gatewayIp: "2001:db9::1" }), "gatewayIp", /must be inside cidr 2001:db8::\/64/],
  [
    "a host route's nexthop of the other IP version",
    "Subnet",
    subnet({ hostRoutes: [{ destination: "10.1.0.0/16", nexthop: "2001:db8::1" }] }),
    "hostRoutes[0].nexthop",
    /must be an IPv4 address, like destination/,
  ],
  [
    "duplicate DNS servers spelled differently",
    "Subnet",
    v6({ dnsNameservers: ["2001:db8::1", "2001:DB8::1"] }),
    "dnsNameservers[1]",
    /duplicates dnsNameservers\[0\]/,
  ],
  [
    "expectedCodes with a code past 599",
    "LbPoolSettings",
    hm({ expectedCodes: "200,999" }),
    "healthmonitor.expectedCodes",
    /HTTP status codes \(100-599\)/,
  ],
  [
    "expectedCodes that are not codes",
    "LbPoolSettings",
    hm({ expectedCodes: "banana" }),
    "healthmonitor.expectedCodes",
    /HTTP status codes/,
  ],
  [
    "gatewayIp at the network address of cidr",
    "Subnet",
    subnet({ gatewayIp: "10.0.0.0" }),
    "gatewayIp",
    /must not be the network address of cidr 10\.0\.0\.0\/24 \(10\.0\.0\.0\), which no host may hold: give a host address, like 10\.0\.0\.1/,
  ],
  [
    "gatewayIp at the broadcast address of cidr",
    "Subnet",
    subnet({ gatewayIp: "10.0.0.255" }),
    "gatewayIp",
    /must not be the broadcast address of cidr 10\.0\.0\.0\/24 \(10\.0\.0\.255\)/,
  ],
  ["ipVersion not matching cidr", "Subnet", subnet({ ipVersion: 6 }), "ipVersion", /must match cidr 10\.0\.0\.0\/24 \(IPv4\)/],
  [
    "gatewayIp null with a router connection",
    "Subnet",
    subnet({ gatewayIp: null }),
    "connectToNetworkRouter",
    /must be false when gatewayIp is null/,
  ],
  [
    "a router with connectToNetworkRouter false",
    "Subnet",
    subnet({ connectToNetworkRouter: false, routerIdToConnect: NET }),
    "routerIdToConnect",
    /requires connectToNetworkRouter to be true/,
  ],
  ["a cidr with host bits", "Subnet", subnet({ cidr: "10.0.0.1/24" }), "cidr", /no host bits/],
  ["a 256-character tag value", "Subnet", subnet({ tags: { k: "v".repeat(256) } }), "tags.k", /at most 255 characters/],
  ["architecture arm64", "BaremetalImage", { name: "i", volumeId: VOL, architecture: "arm64" }, "architecture", /one of: aarch64, x86_64/],
  [
    "a volume id that is a uuid v1",
    "BaremetalImage",
    { name: "i", volumeId: "6ba7b810-9dad-11d1-80b4-00c04fd430c8" },
    "volumeId",
    /UUID \(version 4\)/,
  ],
  [
    "a member port past 65535",
    "LbPoolSettings",
    { poolId: POOL, members: [{ address: "10.0.0.1", protocolPort: 65536 }] },
    "members[0].protocolPort",
    /from 1 to 65535/,
  ],
  [
    "duplicate members spelled differently",
    "LbPoolSettings",
    {
      poolId: POOL,
      members: [
        { address: "2001:db8::a", protocolPort: 80 },
        { address: "2001:DB8:0::A", protocolPort: 80 },
      ],
    },
    "members[1]",
    /duplicates members\[0\]/,
  ],
  [
    "a pool timeout past a day",
    "LbPoolSettings",
    { poolId: POOL, timeoutClientData: 86400001 },
    "timeoutClientData",
    /from 0 to 86400000 milliseconds/,
  ],
  ["threshold 59", "QuotaThreshold", { clientId: 1, threshold: 59 }, "threshold", /at least 60/],
  [
    "a regional quota in the global quotas",
    "QuotaThreshold",
    { clientId: 1, threshold: 80, lastMessage: { globalQuotas: { cpuCountLimit: { limit: 1, usage: 0 } } } },
    "lastMessage.globalQuotas.cpuCountLimit",
    /not a global quota/,
  ],
  [
    "a quota limit past int64",
    "QuotaThreshold",
    { clientId: 1, threshold: 80, lastMessage: { globalQuotas: { keypairCountLimit: { limit: "9223372036854775808", usage: 0 } } } },
    "lastMessage.globalQuotas.keypairCountLimit.limit",
    /signed 64-bit/,
  ],
  [
    "lastSending on February 30th",
    "QuotaThreshold",
    { clientId: 1, threshold: 80, lastSending: "2026-02-30T00:00:00" },
    "lastSending",
    /ISO 8601/,
  ],
];

const wirePath = (property: string) =>
  property
    .split(".")
    .map((part) => part.replace(/^[^[]+/, toSnake))
    .join(".");

test.each(CASES)(
  "%s: refused by check() and by the service, at the same field, by the same rule",
  async (_what, resource, inputs, property, rule) => {
    const side = SIDES[resource];
    const { failures } = await side.provider.check({}, inputs);
    expect(failures).toEqual([{ property, reason: expect.stringMatching(rule) }]);
    const refused = side.service(side.body(inputs));
    expect(Object.keys(refused)).toEqual([wirePath(property)]);
    // The service says field names its own way: gatewayIp is gateway_ip there.
    expect(refused[wirePath(property)].join(" ")).toMatch(new RegExp(rule.source.replace(/[a-z]+[A-Z][A-Za-z]*/g, toSnake), "i"));
  },
);

test("what the provider accepts, the service accepts: the same bodies pass both", async () => {
  const good: Array<[keyof typeof SIDES, Record<string, unknown>]> = [
    [
      "Subnet",
      v6({
        gatewayIp: "2001:DB8::1",
        dnsNameservers: ["2001:db8::53", "2001:4860:4860::8888"],
        hostRoutes: [{ destination: "2001:db8:1::/48", nexthop: "2001:db8::fe" }],
      }),
    ],
    ["LbPoolSettings", hm({ expectedCodes: "200,202-204", urlPath: "/healthz" })],
    [
      "QuotaThreshold",
      {
        clientId: 1,
        threshold: 100,
        lastMessage: { globalQuotas: { keypairCountLimit: { limit: "9223372036854775807", usage: 1 } } },
        lastSending: "2026-05-23T05:07:31Z",
      },
    ],
  ];
  for (const [resource, inputs] of good) {
    const side = SIDES[resource];
    const { failures, inputs: checked } = await side.provider.check({}, inputs);
    expect(failures).toEqual([]);
    expect(side.service(side.body(checked))).toEqual({});
  }
});

// cims-import's generator and names on hand-made records (no network): arguments from the
// contract tables, exactly as the service holds them; names valid, unique and stable; the
// module type-checks against the package's own types.
import * as path from "node:path";
import * as ts from "typescript";
import type { BodyContract, FieldTable } from "../../../../api/contract";
import { BaremetalImage } from "../../../../api/contract/baremetal-image";
import { Subnet } from "../../../../api/contract/subnet";
import { declarations, generateModule, type ImportRecords, printValue } from "../../../../provider/import/generate";
import { argsFromRecord, argsOf } from "../../../../provider/kinds/program-args";
import { fromWire } from "../../../../api/wire";
import { resourceNames, slug } from "../../../../provider/import/names";
import { toSnake } from "../../../../api/names";
import { main, parseOptions, readRecords, USAGE } from "../../../../provider/import/cli";
import { CimsClient } from "../../../../provider/client/http";
import { closeAllPools } from "../../../../provider/client/transport";
import { DEFAULTS } from "../../../../provider/config";
import { startEmulator } from "pulumi-cims/emulator";
import { parseJson } from "../../../../api/json";
import { SEED, SEED_FILE } from "../../../support/cims";
import { FOREIGN_TASK, imageRecord, subnetRecord } from "../../../support/records";

const ROOT = path.resolve(__dirname, "../../../..");
const scope = { projectId: 1, regionId: 1 };
const NET = SEED.networkId;
const TASK = FOREIGN_TASK;

// The fixture module's records, with what these tests read of them: a name to slug, a DNS
// server, a user's tag, and an image holding every field its contract table names.
const subnet = (over: Record<string, unknown> = {}) => ({
  ...subnetRecord({ id: "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", name: "app net!", dns_nameservers: ["8.8.8.8"], tags: { team: "net" } }),
  ...over,
});

const image = (over: Record<string, unknown> = {}) => ({
  ...imageRecord({ id: "5b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e", hw_machine_type: "q35", os_distro: "debian", os_version: "12", min_ram: 0 }),
  creator_task_id: TASK,
  tags_v2: [{ key: "creator_task_id", value: TASK, read_only: true }],
  ...over,
});

const pool = {
  id: "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
  name: "web-pool",
  lb_algorithm: "ROUND_ROBIN",
  protocol: "HTTP",
  members: [
    {
      id: "7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e",
      address: "10.0.0.10",
      protocol_port: 8080,
      weight: 1,
      subnet_id: null,
      operating_status: "NO_MONITOR",
    },
    {
      id: "8b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e",
      address: "10.0.0.11",
      protocol_port: 8080,
      weight: 3,
      subnet_id: NET,
      operating_status: "ONLINE",
    },
  ],
  healthmonitor: {
    id: "9c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f",
    type: "HTTP",
    delay: 5,
    timeout: 3,
    max_retries: 3,
    max_retries_down: 3,
    http_method: "GET",
    url_path: "/",
    expected_codes: "200",
    operating_status: "ONLINE",
    provisioning_status: "ACTIVE",
  },
  session_persistence: { type: "APP_COOKIE", cookie_name: "sid", persistence_granularity: null, persistence_timeout: null },
  ca_secret_id: null,
  crl_secret_id: null,
  secret_id: null,
  timeout_client_data: 50000,
  timeout_member_connect: 5000,
  timeout_member_data: 50000,
  provisioning_status: "ACTIVE",
  operating_status: "ONLINE",
  listeners: [{ id: "8c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f" }],
  loadbalancers: [],
  project_id: 1,
  region_id: 1,
};

const policy = {
  id: 101,
  name: "nightly-snapshots",
  action: "volume_snapshot",
  status: "paused",
  project_id: 1,
  region_id: 1,
  user_id: 7,
  schedules: [{ id: "sch-cron-1", type: "cron" }],
};

// As the client parses it: int64 numbers beyond 2^53 are bigints.
const threshold = parseJson(`{
  "client_id": 1,
  "threshold": 80,
  "last_message": {
    "global_quotas": {
      "project_count_limit": { "limit": 9223372036854775807, "usage": 3 },
      "keypair_count_usage": { "limit": 100, "usage": 12 }
    },
    "regional_quotas": [
      { "region_id": 1, "region_name": "Luxembourg", "volume_size_limit": { "limit": 9223372036854775807, "usage": 9223372036854775806 } }
    ]
  },
  "last_sending": "2026-05-23T05:07:31"
}`) as Record<string, unknown>;

// Every kind (exhaustive by type): a kind without records here fails to compile.
const records = (over: ImportRecords = {}): Required<ImportRecords> => ({
  Subnet: [subnet()],
  BaremetalImage: [image()],
  LbPoolSettings: [pool],
  SnapshotPolicy: [],
  SnapshotPolicyState: [policy],
  QuotaThreshold: [threshold],
  // Members live under a pool: cims-import does not list them.
  LbPoolMember: [],
  // A policy's volumes live under the policy: cims-import does not list them.
  SnapshotPolicyVolume: [],
  ...over,
});
const subnetArgs = (r: Record<string, unknown>, sc: typeof scope) => argsOf("Subnet", r, sc);
const imageArgs = (r: Record<string, unknown>, sc: typeof scope) => argsOf("BaremetalImage", r, sc);
const poolArgs = (r: Record<string, unknown>, sc: typeof scope) => argsOf("LbPoolSettings", r, sc);
const thresholdArgs = (r: Record<string, unknown>) => argsOf("QuotaThreshold", r, scope);

describe("arguments from records", () => {
  test("a subnet: every contract field the record holds, users' tags only, scope and importId", () => {
    expect(subnetArgs(subnet(), scope)).toEqual({
      name: "app net!",
      cidr: "10.60.0.0/24",
      networkId: NET,
      dnsNameservers: ["8.8.8.8"],
      enableDhcp: true,
      gatewayIp: "10.60.0.1",
      hostRoutes: [],
      ipVersion: 4,
      tags: { team: "net" },
      projectId: 1,
      regionId: 1,
      importId: "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
    });
  });

  test("every contract field a subnet record holds is written: none is listed by hand", () => {
    const held = (record: Record<string, unknown>, fields: FieldTable) =>
      Object.entries(fields).filter(([name, f]) => !f.notInRecord && (f.recordName ?? toSnake(name)) in record);
    const record = subnet();
    const args = subnetArgs(record, scope);
    expect(held(record, Subnet.fields).length).toBeGreaterThan(8);
    for (const [name] of held(record, Subnet.fields)) expect(args).toHaveProperty(name);
    const imageRecord = image();
    const imageFields = imageArgs(imageRecord, scope);
    expect(held(imageRecord, BaremetalImage.fields).length).toBe(Object.keys(BaremetalImage.fields).length);
    for (const [name] of held(imageRecord, BaremetalImage.fields)) expect(imageFields).toHaveProperty(name);
    // A field added to a table is imported with no other change; one only the service sets is not.
    const grown: BodyContract = {
      fields: {
        ...Subnet.fields,
        mtuBytes: { type: { kind: "integer", min: 68, max: 9000 }, set: "update", doc: "MTU." },
        usedIps: { type: { kind: "integer", min: 0, max: 9000 }, set: "read", doc: "Used addresses." },
      },
    };
    expect(argsFromRecord(grown, subnet({ mtu_bytes: 1450, used_ips: 3 }))).toMatchObject({ mtuBytes: 1450 });
    expect(argsFromRecord(grown, subnet({ mtu_bytes: 1450, used_ips: 3 }))).not.toHaveProperty("usedIps");
  });

  test("a gateway-less subnet gets connectToNetworkRouter: false (gatewayIp null needs it), others none", () => {
    const args = subnetArgs(subnet({ gateway_ip: null }), scope);
    expect(args.gatewayIp).toBeNull();
    expect(args.connectToNetworkRouter).toBe(false);
    expect(Object.keys(args).indexOf("connectToNetworkRouter")).toBe(Object.keys(args).indexOf("networkId") + 1);
    expect(subnetArgs(subnet(), scope)).not.toHaveProperty("connectToNetworkRouter");
    expect(subnetArgs(subnet(), scope)).not.toHaveProperty("routerIdToConnect");
  });

  test("an IPv6 subnet with host routes keeps the service's spelling and order", () => {
    const routes = [
      { destination: "2001:db8:1::/64", nexthop: "2001:db8::2" },
      { destination: "2001:db8:2::/64", nexthop: "2001:db8::3" },
    ];
    const args = subnetArgs(subnet({ cidr: "2001:db8::/64", ip_version: 6, gateway_ip: "2001:db8::1", host_routes: routes }), scope);
    expect(args).toMatchObject({ cidr: "2001:db8::/64", ipVersion: 6, gatewayIp: "2001:db8::1", hostRoutes: routes });
  });

  test("tags: read-only tags excluded, an image with only the service's tag has {}", () => {
    expect(imageArgs(image(), scope).tags).toEqual({});
    expect(imageArgs(image({ tags_v2: [{ key: "os", value: "debian", read_only: false }] }), scope).tags).toEqual({ os: "debian" });
    const tags = [
      { key: "a b", value: "1", read_only: false },
      { key: "creator_task_id", value: TASK, read_only: true },
      { key: "owner", value: "x", read_only: true },
    ];
    expect(subnetArgs(subnet({ tags }), scope).tags).toEqual({ "a b": "1" });
  });

  test("an image: nulls where the contract allows them, scope and importId", () => {
    expect(imageArgs(image(), scope)).toEqual({
      name: "golden",
      volumeId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
      architecture: "x86_64",
      hwFirmwareType: null,
      hwMachineType: "q35",
      isBaremetal: true,
      osType: "linux",
      source: "volume",
      sshKey: "allow",
      tags: {},
      projectId: 1,
      regionId: 1,
      importId: "5b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e",
    });
  });

  test("a pool: members by their settings only, health monitor and persistence by the contract's fields", () => {
    const args = poolArgs(pool, scope);
    expect(args.members).toEqual([
      { address: "10.0.0.10", protocolPort: 8080, weight: 1 },
      { address: "10.0.0.11", protocolPort: 8080, weight: 3, subnetId: NET },
    ]);
    expect(args.healthmonitor).toEqual({
      type: "HTTP",
      delay: 5,
      timeout: 3,
      maxRetries: 3,
      maxRetriesDown: 3,
      httpMethod: "GET",
      urlPath: "/",
      expectedCodes: "200",
    });
    expect(args.sessionPersistence).toEqual({ type: "APP_COOKIE", cookieName: "sid" });
    expect(args).toMatchObject({ poolId: pool.id, projectId: 1, regionId: 1, caSecretId: null, timeoutMemberConnect: 5000 });
    expect(args).not.toHaveProperty("listeners");
    expect(args).not.toHaveProperty("provisioningStatus");
  });

  test("a pool without a health monitor says null", () => {
    expect(poolArgs({ ...pool, healthmonitor: null }, scope).healthmonitor).toBeNull();
  });

  test("a quota threshold: the client and its threshold only; the service's last message and sending stay the service's", () => {
    // Written into the program they would be pinned: a newer last_sending would be reverted
    // by the next up, and members the contract does not know would be erased.
    expect(thresholdArgs(threshold)).toEqual({ clientId: 1, threshold: 80 });
    const unknown = { ...threshold, last_message: { global_quotas: { bogus_limit: { limit: 1, usage: 1 } }, regional_quotas: [] } };
    expect(thresholdArgs(unknown)).toEqual({ clientId: 1, threshold: 80 });
  });

  test("values of the table's types: int64 past 2^53 exact, other integers numbers, tags a map", () => {
    const valueFromRecord = (value: unknown, type: Parameters<typeof fromWire>[1]) => fromWire(value, type, { notes: [], where: "" });
    expect(valueFromRecord(2n ** 63n - 1n, { kind: "integer", min: 0, max: 0, int64: true })).toBe("9223372036854775807");
    expect(valueFromRecord(5, { kind: "integer", min: 0, max: 0, int64: true })).toBe("5");
    expect(valueFromRecord(5, { kind: "integer", min: 0, max: 10 })).toBe(5);
    expect(valueFromRecord([{ key: "k", value: "v", read_only: false }], { kind: "tags" })).toEqual({ k: "v" });
  });

  test("a policy: name and status, with its id and scope", () => {
    const decl = declarations(records({ Subnet: [], BaremetalImage: [], LbPoolSettings: [], QuotaThreshold: [] }), scope)[0];
    expect(decl).toEqual({
      type: "SnapshotPolicyState",
      name: "policy-nightly-snapshots",
      args: { policyId: 101, projectId: 1, regionId: 1, name: "nightly-snapshots", status: "paused" },
    });
  });
});

describe("names", () => {
  test("slugs: lowercase letters, digits and dashes; accents dropped; empty when nothing is left", () => {
    expect(slug("app net!")).toBe("app-net");
    expect(slug("  Prod__DB (eu-west) ")).toBe("prod-db-eu-west");
    expect(slug("café/Ärger")).toBe("cafe-arger");
    expect(slug("日本")).toBe("");
    expect(slug(null)).toBe("");
    expect(slug("x".repeat(200))).toHaveLength(48);
  });

  test("derived from record names, prefixed by kind", () => {
    const names = resourceNames("subnet", [{ id: "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", name: "app net!" }]);
    expect([...names.values()]).toEqual(["subnet-app-net"]);
  });

  test("a collision suffixes every record that shares the name with its short id, whatever the input order", () => {
    const a = { id: "bbbbbbbb-0000-4000-8000-000000000000", name: "App" };
    const b = { id: "aaaaaaaa-0000-4000-8000-000000000000", name: "app" };
    const c = { id: "cccccccc-0000-4000-8000-000000000000", name: "other" };
    const one = resourceNames("subnet", [a, b, c]);
    const two = resourceNames("subnet", [c, b, a]);
    expect(Object.fromEntries(one)).toEqual(Object.fromEntries(two));
    expect(one.get(a.id)).toBe("subnet-app-bbbbbbbb");
    expect(one.get(b.id)).toBe("subnet-app-aaaaaaaa");
    expect(one.get(c.id)).toBe("subnet-other");
  });

  test("short ids that collide too fall back to the whole id; names stay unique in every case", () => {
    const a = { id: "aaaaaaaa-0000-4000-8000-000000000001", name: "x" };
    const b = { id: "aaaaaaaa-0000-4000-8000-000000000002", name: "x" };
    const blank = { id: "dddddddd-0000-4000-8000-000000000000", name: "!!!" };
    const tricky = { id: "eeeeeeee-0000-4000-8000-000000000000", name: "x aaaaaaaa 0000 4000 8000 000000000001" };
    const names = resourceNames("image", [a, b, blank, tricky]);
    expect(names.get(a.id)).toBe("image-x-aaaaaaaa-0000-4000-8000-000000000001");
    expect(names.get(b.id)).toBe("image-x-aaaaaaaa-0000-4000-8000-000000000002");
    expect(names.get(blank.id)).toBe("image-dddddddd");
    expect(new Set(names.values()).size).toBe(4);
    for (const n of names.values()) expect(n).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test("integer ids (policies) sort by value and suffix as they are", () => {
    const names = resourceNames("policy", [
      { id: 20, name: "p" },
      { id: 3, name: "p" },
    ]);
    expect([...names.entries()]).toEqual([
      [3, "policy-p-3"],
      [20, "policy-p-20"],
    ]);
  });
});

describe("the module", () => {
  test("one statement per record, in a fixed order, with the package imported; the same records give the same text", () => {
    const input = records({ Subnet: [subnet({ id: "ffffffff-0000-4000-8000-000000000000", name: "app net!" }), subnet()] });
    const source = generateModule(input, scope, { header: ["cims-import --project 1 --region 1"] });
    expect(source).toContain('import * as cims from "pulumi-cims";');
    expect(source.match(/^new cims\.\w+\(/gm)).toEqual([
      "new cims.Subnet(",
      "new cims.Subnet(",
      "new cims.BaremetalImage(",
      "new cims.LbPoolSettings(",
      "new cims.SnapshotPolicyState(",
      "new cims.QuotaThreshold(",
    ]);
    expect(source).toContain('new cims.Subnet("subnet-app-net-4a1b2c3d", {');
    expect(source).toContain('new cims.Subnet("subnet-app-net-ffffffff", {');
    expect(source).not.toContain("lastMessage");
    expect(source).not.toContain("creator_task_id");
    const reversed = { ...input, Subnet: [...input.Subnet!].reverse() };
    expect(generateModule(reversed, scope, { header: ["cims-import --project 1 --region 1"] })).toBe(source);
  });

  test("every resource is protected unless told not to, and the head says how to unprotect one later", () => {
    const protectedSource = generateModule(records(), scope);
    const statements = protectedSource.match(/^new cims\.\w+\(/gm) ?? [];
    expect(statements).toHaveLength(5);
    expect(protectedSource.match(/^}, \{ protect: true \}\);$/gm)).toHaveLength(statements.length);
    expect(protectedSource).toContain("`pulumi state unprotect <urn>`");
    expect(protectedSource).toContain("cims-import --no-protect");
    const open = generateModule(records(), scope, { protect: false });
    expect(open).not.toContain("protect");
    expect(open.match(/^}\);$/gm)).toHaveLength(statements.length);
  });

  test("an argument left out of one record's statement: gone from it alone, with a comment above it saying why", () => {
    const why = "pool holds members made one by one; `members` here would remove them.";
    const source = generateModule(records(), scope, { omit: [{ type: "LbPoolSettings", id: pool.id, arg: "members", why }] });
    const statement = source.slice(source.indexOf("new cims.LbPoolSettings("));
    expect(statement.slice(0, statement.indexOf("});"))).not.toContain("members:");
    expect(source).toContain(`// members left out: ${why}\nnew cims.LbPoolSettings(`);
    expect(generateModule(records(), scope)).toContain("members:");
  });

  test("printing: odd keys quoted, strings escaped, long values over several lines", () => {
    expect(printValue({ a: 1, "b c": 'x"y', d: null, e: [] })).toBe('{ a: 1, "b c": "x\\"y", d: null, e: [] }');
    expect(printValue(12345678901234567890n)).toBe('"12345678901234567890"');
    const long = printValue({ list: Array.from({ length: 12 }, (_, i) => `10.0.${i}.1`) });
    expect(long.split("\n").length).toBeGreaterThan(3);
    expect(eval(`(${long})`)).toEqual({ list: Array.from({ length: 12 }, (_, i) => `10.0.${i}.1`) });
  });

  test("type-checks against the package (odd names, no gateway, IPv6, int64 strings, enums as literals)", () => {
    const source = generateModule(
      records({
        Subnet: [
          subnet({ name: "app net!" }),
          subnet({ id: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", name: "", gateway_ip: null }),
          subnet({
            id: "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
            name: "v6",
            cidr: "2001:db8::/64",
            ip_version: 6,
            gateway_ip: "2001:db8::1",
            host_routes: [{ destination: "2001:db8:1::/64", nexthop: "2001:db8::2" }],
          }),
        ],
      }),
      scope,
    );
    const diagnostics = typeErrors("__cims-import-generated__.ts", source);
    expect(diagnostics).toEqual([]);
  }, 60_000);

  test("the type check catches a wrong value (the check above can fail)", () => {
    const source =
      'import * as cims from "pulumi-cims";\nnew cims.BaremetalImage("x", { name: "x", volumeId: "v", architecture: "sparc" });\n';
    expect(typeErrors("__cims-import-bad__.ts", source).length).toBeGreaterThan(0);
  }, 60_000);
});

test("--ignore-tags: the tags a stack leaves to others are not written, by key or by prefix; a bad value names the flag", () => {
  const tagged = records({
    Subnet: [subnet({ tags: { team: "net", "k8s.io/cluster": "a", owner: "ops" } })],
    BaremetalImage: [
      image({
        tags_v2: [
          { key: "owner", value: "ops", read_only: false },
          { key: "os", value: "debian", read_only: false },
        ],
      }),
    ],
  });
  const ignoreTags = parseOptions([
    "--project",
    "1",
    "--region",
    "1",
    "--ignore-tags",
    '{"keys": ["owner"], "keyPrefixes": ["k8s.io/"]}',
  ])?.ignoreTags;
  expect(ignoreTags).toEqual({ keys: ["owner"], keyPrefixes: ["k8s.io/"] });
  const written = declarations(tagged, scope, [], [], ignoreTags);
  expect(written.filter((d) => d.type === "Subnet").map((d) => d.args.tags)).toEqual([{ team: "net" }]);
  expect(written.find((d) => d.type === "BaremetalImage")?.args.tags).toEqual({ os: "debian" });
  // Without the flag every tag the record holds is written, as before.
  expect(declarations(tagged, scope).find((d) => d.type === "Subnet")?.args.tags).toEqual({
    team: "net",
    "k8s.io/cluster": "a",
    owner: "ops",
  });
  expect(() => parseOptions(["--project", "1", "--region", "1", "--ignore-tags", '{"prefixes": ["x"]}'])).toThrow(
    "--ignore-tags takes `keys` and `keyPrefixes` only",
  );
});

describe("command line", () => {
  test("repeatable flags, ids checked, --help", () => {
    const o = parseOptions([
      "--project",
      "1",
      "--region",
      "2",
      "--network",
      NET.toUpperCase(),
      "--network",
      NET,
      "--pool",
      pool.id,
      "--policy",
      "101",
      "--policy",
      "7",
      "--client",
      "1",
    ]);
    expect(o).toMatchObject({
      scope: { projectId: 1, regionId: 2 },
      filters: { network: [NET] },
      named: { pool: [pool.id], policy: [101, 7], client: [1] },
    });
    expect(o?.protect).toBe(true);
    expect(parseOptions(["--project", "1", "--region", "1", "--no-protect"])?.protect).toBe(false);
    expect(parseOptions(["--help"])).toBeUndefined();
    expect(USAGE).toMatch(/--no-protect +write no `protect: true`[\s\S]*`pulumi state unprotect <urn>`/);
    expect(() => parseOptions(["--region", "1"])).toThrow("--project and --region are required");
    expect(() => parseOptions(["--project", "1e3", "--region", "1"])).toThrow("--project must be an integer");
    expect(() => parseOptions(["--project", "1", "--region", "1", "--network", "nope"])).toThrow("--network must be a uuid4");
    expect(() => parseOptions(["--project", "1", "--region", "1", "--bogus"])).toThrow("--bogus");
  });
});

test("no URL or no key is a usage error (exit 2) naming the flag and the variable; the key is never printed", async () => {
  const err: string[] = [];
  const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  try {
    expect(await main(["--project", "1", "--region", "1"], {})).toBe(2);
    expect(err.join("")).toContain("no API URL: give --api-url <url> or set CIMS_API_URL");
    err.length = 0;
    expect(await main(["--project", "1", "--region", "1"], { CIMS_API_URL: "http://127.0.0.1:9" })).toBe(2);
    expect(err.join("")).toContain("no API key: set CIMS_API_KEY (or give --api-key <key>)");
    err.length = 0;
    expect(await main(["--project", "1", "--region", "1", "--api-url", "ftp://x", "--api-key", "sekrit-key-1"], {})).toBe(2);
    expect(err.join("")).toContain("--api-url must use http or https");
    expect(err.join("")).not.toContain("sekrit-key-1");
  } finally {
    spy.mockRestore();
  }
});

test("a key too short to be hidden in messages is said, once, before the first request", async () => {
  const emulator = await startEmulator({ apiKey: "abc" });
  const err: string[] = [];
  const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  try {
    // An empty scope: nothing to import (exit 1), after the warning and the reads.
    expect(await main(["--project", "1", "--region", "1", "--api-url", emulator.url, "--api-key", "abc"], {})).toBe(1);
    const warnings = err.filter((line) => line.includes("too short to be hidden"));
    expect(warnings).toEqual([expect.stringContaining("cims-import: warning: the API key is shorter than 8 characters")]);
    expect(err[0]).toBe(warnings[0]);
  } finally {
    spy.mockRestore();
    await emulator.close();
  }
});

describe("reading (against an in-process emulator on loopback)", () => {
  test("every page of the lists: 1005 subnets in two pages of 1000, sorted by id in the module", async () => {
    const subnets = Array.from({ length: 1005 }, (_, i) =>
      subnet({
        id: `${(0xa0000000 + i).toString(16)}-0000-4000-8000-000000000000`,
        name: `net ${1004 - i}`,
        cidr: `10.${i >> 8}.${i & 255}.0/24`,
      }),
    );
    const emulator = await startEmulator({ apiKey: "unit-import-key", seed: { subnets } });
    try {
      const client = new CimsClient({ ...DEFAULTS, apiUrl: new URL(emulator.url), apiKey: "unit-import-key" });
      const lines: string[] = [];
      const read = await readRecords(client, { scope, filters: {}, named: {} }, (l) => lines.push(l));
      expect(read.Subnet!).toHaveLength(1005);
      expect(new Set(read.Subnet!.map((s) => s.id)).size).toBe(1005);
      expect(emulator.metrics.snapshot().requests).toMatchObject({ "GET /cloud/v1/subnets/:project_id/:region_id 200": 2 });
      expect(lines).toContain("project 1, region 1: 1005 subnets, 0 bare-metal images, 0 snapshot policies");
      const names = declarations(read, scope).map((d) => d.name);
      expect(names[0]).toBe("subnet-net-1004");
      expect(new Set(names).size).toBe(1005);
    } finally {
      await closeAllPools();
      await emulator.close();
    }
  }, 60_000);

  test("the scope's snapshot policies as SnapshotPolicy, adopting each; one named by --policy is SnapshotPolicyState only", async () => {
    const emulator = await startEmulator({ apiKey: "unit-import-key", seed: SEED_FILE });
    try {
      const client = new CimsClient({ ...DEFAULTS, apiUrl: new URL(emulator.url), apiKey: "unit-import-key" });
      const lines: string[] = [];
      const read = await readRecords(client, { scope, filters: {}, named: {} }, (l) => lines.push(l));
      expect(read.SnapshotPolicy!.map((p) => p.id)).toEqual([101]);
      const policy = declarations(read, scope).find((d) => d.type === "SnapshotPolicy");
      expect(policy?.args).toMatchObject({
        name: "nightly-snapshots",
        status: "active",
        importId: 101,
        schedules: [{ type: "cron", hour: "2", minute: "30", maxQuantity: 7 }],
      });
      expect(policy?.args).not.toHaveProperty("volumeIds");
      const named = await readRecords(client, { scope, filters: {}, named: { policy: [101] } }, () => undefined);
      expect(named.SnapshotPolicy).toEqual([]);
      expect(named.SnapshotPolicyState!.map((p) => p.id)).toEqual([101]);
    } finally {
      await closeAllPools();
      await emulator.close();
    }
  }, 60_000);
});

/** What the compiler says of `source`, a module of tests/unit/ named `name`, against the package's own types. */
function typeErrors(name: string, source: string): string[] {
  const file = path.join(ROOT, "tests/unit", name);
  const host = ts.createCompilerHost({});
  const readFile = host.readFile.bind(host);
  host.readFile = (f) => (path.resolve(f) === file ? source : readFile(f));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => path.resolve(f) === file || fileExists(f);
  const program = ts.createProgram(
    [file],
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      types: ["node"],
      skipLibCheck: true,
      baseUrl: ROOT,
      paths: { "pulumi-cims": ["provider/index.ts"] },
    },
    host,
  );
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

// The emulator's request-body rules, validator by validator: valid bodies (with the edge
// values) answer {}, and each invalid body is reported under exactly the expected paths.
import { isIpAddress, isUuid4, parseCidr } from "../../../api/net";
import type { InvalidFields } from "../../../emulator/validation";
import { validateQuotaPut } from "../../../emulator/collections/quota-threshold";
import { requestCheck } from "../../../emulator/serve";
import { BaremetalImage } from "../../../api/contract/baremetal-image";
import { LbPoolSettings } from "../../../api/contract/lb-pool-settings";
import { SnapshotPolicyState } from "../../../api/contract/snapshot-policy-state";
import { Subnet } from "../../../api/contract/subnet";

// The checks the emulator attaches to each operation with a body (emulator/serve.ts).
const validateSubnetCreate = requestCheck(Subnet, "create");
const validateSubnetPatch = requestCheck(Subnet, "update");
const validateImageCreate = requestCheck(BaremetalImage, "create");
const validateImagePatch = requestCheck(BaremetalImage, "update");
const validatePoolPatch = requestCheck(LbPoolSettings, "update");
const validatePolicyPatch = requestCheck(SnapshotPolicyState, "update");

type Validator = (body: unknown) => InvalidFields;

const NET = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01";
const ROUTER = "5e2a8f1d-3c4b-4a6e-9d7f-1b2c3d4e5f60";
const VOLUME = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const SECRET = "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
const UUID1 = "c232ab00-9414-11ec-b3c8-9f6bdeced846"; // a version 1 uuid: well-formed, not uuid4
const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
const chars = (n: number, c = "k") => c.repeat(n);

const SUBNET = { name: "app", cidr: "10.1.0.0/24", network_id: NET };
const IMAGE = { name: "golden", volume_id: VOLUME };
const HM = { type: "HTTP", delay: 10, timeout: 5, max_retries: 3 };
const MEMBER = { address: "10.0.0.10", protocol_port: 8080 };
const entry = (limit: number | bigint, usage: number | bigint) => ({ limit, usage });
const REGION = { region_id: 1, region_name: "Luxembourg" };

// ---------------------------------------------------------------------------------------
// Valid bodies
// ---------------------------------------------------------------------------------------

interface ValidCase {
  title: string;
  validate: Validator;
  body: unknown;
}

const valid =
  (validate: Validator) =>
  (title: string, body: unknown): ValidCase => ({ title: `${validate.name}: ${title}`, validate, body });

const subnetOk = valid(validateSubnetCreate);
const subnetPatchOk = valid(validateSubnetPatch);
const imageOk = valid(validateImageCreate);
const imagePatchOk = valid(validateImagePatch);
const poolOk = valid(validatePoolPatch);
const policyOk = valid(validatePolicyPatch);
const quotaOk = valid(validateQuotaPut);

const VALID: ValidCase[] = [
  subnetOk("required fields only", SUBNET),
  subnetOk("every field", {
    ...SUBNET,
    connect_to_network_router: true,
    dns_nameservers: ["8.8.8.8", "1.1.1.1"],
    enable_dhcp: false,
    gateway_ip: "10.1.0.1",
    host_routes: [{ destination: "10.2.0.0/16", nexthop: "10.1.0.254" }],
    ip_version: 4,
    router_id_to_connect: ROUTER,
    tags: { env: "dev" },
  }),
  subnetOk("IPv6", {
    ...SUBNET,
    cidr: "2001:db8::/64",
    gateway_ip: "2001:db8::1",
    ip_version: 6,
    dns_nameservers: ["2001:4860:4860::8888"],
  }),
  subnetOk("no gateway, connect false, nulls", {
    ...SUBNET,
    gateway_ip: null,
    connect_to_network_router: false,
    dns_nameservers: null,
    host_routes: null,
    router_id_to_connect: null,
  }),
  subnetOk("whole space and a single host", {
    ...SUBNET,
    cidr: "0.0.0.0/0",
    host_routes: [{ destination: "192.168.7.7/32", nexthop: "10.1.0.9" }],
  }),
  subnetOk("255-character tag key and value", { ...SUBNET, tags: { [chars(255)]: chars(255, "v") } }),
  subnetOk("255 characters counted as characters, not UTF-16 units", { ...SUBNET, tags: { e: chars(255, "😀") } }),
  subnetOk("empty arrays and tags", { ...SUBNET, dns_nameservers: [], host_routes: [], tags: {} }),
  subnetPatchOk("empty body", {}),
  subnetPatchOk("every updatable field; tags merge with null", {
    name: "renamed",
    enable_dhcp: false,
    dns_nameservers: ["9.9.9.9"],
    gateway_ip: null,
    host_routes: [{ destination: "2001:db8:1::/48", nexthop: "2001:db8::fe" }],
    tags: { gone: null, kept: "1" },
  }),
  imageOk("required fields only", IMAGE),
  imageOk("every field", {
    ...IMAGE,
    architecture: "aarch64",
    hw_firmware_type: "uefi",
    hw_machine_type: "q35",
    is_baremetal: true,
    os_type: "windows",
    source: "volume",
    ssh_key: "required",
    tags: { os: "win" },
  }),
  imageOk("null firmware and machine types", {
    ...IMAGE,
    hw_firmware_type: null,
    hw_machine_type: null,
    architecture: "x86_64",
    ssh_key: "deny",
  }),
  imagePatchOk("empty body", {}),
  imagePatchOk("every updatable field", {
    name: "g2",
    hw_firmware_type: "bios",
    hw_machine_type: "pc",
    is_baremetal: false,
    os_type: "linux",
    ssh_key: "allow",
    tags: { t: null, u: "v" },
  }),
  poolOk("empty body", {}),
  poolOk("timeouts at 0 and 86400000, and null", { timeout_client_data: 0, timeout_member_connect: 86400000, timeout_member_data: null }),
  poolOk("every field", {
    name: "web",
    lb_algorithm: "LEAST_CONNECTIONS",
    protocol: "HTTPS",
    ca_secret_id: SECRET,
    crl_secret_id: null,
    secret_id: SECRET,
    members: [
      { address: "10.0.0.10", protocol_port: 1, weight: 1, subnet_id: NET, id: SECRET, operating_status: "NO_MONITOR" },
      { address: "10.0.0.10", protocol_port: 65535, weight: 256 },
      { address: "2001:db8::10", protocol_port: 80 },
    ],
    healthmonitor: {
      ...HM,
      max_retries: 10,
      max_retries_down: 1,
      http_method: "HEAD",
      url_path: "/healthz",
      expected_codes: "200,202-204",
    },
    session_persistence: { type: "APP_COOKIE", cookie_name: "sid", persistence_granularity: "255.255.255.255", persistence_timeout: 0 },
  }),
  poolOk("members null empties the pool", { members: null }),
  poolOk("session_persistence null removes it", { session_persistence: null }),
  poolOk("minimal health monitor and persistence", {
    healthmonitor: { type: "TCP", delay: 1, timeout: 1, max_retries: 1 },
    session_persistence: { type: "SOURCE_IP" },
  }),
  policyOk("empty body", {}),
  policyOk("name and status", { name: "nightly", status: "paused" }),
  policyOk("status active", { status: "active" }),
  quotaOk("threshold 60", { threshold: 60 }),
  quotaOk("threshold 100", { threshold: 100, last_sending: null }),
  quotaOk("full message with int64 extremes", {
    threshold: 80,
    last_message: {
      global_quotas: {
        keypair_count_limit: entry(INT64_MAX, INT64_MIN),
        project_count_usage: entry(0, 0),
        inference_gpu_l40s_count_limit: entry(2, 1),
      },
      regional_quotas: [
        { ...REGION, cpu_count_limit: entry(INT64_MAX, 3), volume_snapshots_size_usage: entry(10, 1), ram_limit: entry(1, 0) },
      ],
    },
    last_sending: "2026-05-23T05:07:31",
  }),
  quotaOk("empty message parts", { threshold: 75, last_message: { global_quotas: {}, regional_quotas: [] } }),
  quotaOk("date-time with zone Z", { threshold: 75, last_sending: "2026-05-23T05:07:31Z" }),
  quotaOk("date-time with offset and fraction", { threshold: 75, last_sending: "2024-02-29T23:59:59.123456+05:30" }),
];

test.each(VALID)("$title", ({ validate, body }) => {
  expect(validate(body)).toEqual({});
});

// ---------------------------------------------------------------------------------------
// Invalid bodies: each lists exactly the paths reported
// ---------------------------------------------------------------------------------------

interface InvalidCase {
  title: string;
  validate: Validator;
  body: unknown;
  paths: string[];
}

const invalid =
  (validate: Validator) =>
  (title: string, body: unknown, ...paths: string[]): InvalidCase => ({
    title: `${validate.name}: ${title} -> ${paths.join(", ")}`,
    validate,
    body,
    paths,
  });

const subnet = invalid(validateSubnetCreate);
const subnetPatch = invalid(validateSubnetPatch);
const image = invalid(validateImageCreate);
const imagePatch = invalid(validateImagePatch);
const pool = invalid(validatePoolPatch);
const policy = invalid(validatePolicyPatch);
const quota = invalid(validateQuotaPut);

const SUBNET_INVALID: InvalidCase[] = [
  subnet("an array body", [SUBNET], "non_field_errors"),
  subnet("a null body", null, "non_field_errors"),
  subnet("camelCase networkId leak", { name: "s", cidr: "10.1.0.0/24", networkId: NET }, "networkId", "network_id"),
  subnet("cidr missing", { name: "s", network_id: NET }, "cidr"),
  subnet("blank name", { ...SUBNET, name: "" }, "name"),
  subnet("whitespace name", { ...SUBNET, name: "   " }, "name"),
  subnet("name a number", { ...SUBNET, name: 42 }, "name"),
  subnet("network_id a uuid v1", { ...SUBNET, network_id: UUID1 }, "network_id"),
  subnet("network_id not a uuid", { ...SUBNET, network_id: "net-1" }, "network_id"),
  subnet("cidr with host bits set", { ...SUBNET, cidr: "10.1.0.1/24" }, "cidr"),
  subnet("cidr IPv4 prefix 33", { ...SUBNET, cidr: "10.1.0.0/33" }, "cidr"),
  subnet("cidr IPv6 prefix 129", { ...SUBNET, cidr: "2001:db8::/129" }, "cidr"),
  subnet("cidr without prefix", { ...SUBNET, cidr: "10.1.0.0" }, "cidr"),
  subnet("cidr prefix with a leading zero", { ...SUBNET, cidr: "10.0.0.0/08" }, "cidr"),
  subnet("cidr IPv6 host bits set", { ...SUBNET, cidr: "2001:db8::1/64" }, "cidr"),
  subnet("enable_dhcp a string", { ...SUBNET, enable_dhcp: "true" }, "enable_dhcp"),
  subnet("connect_to_network_router a number", { ...SUBNET, connect_to_network_router: 1 }, "connect_to_network_router"),
  subnet("a bad DNS address", { ...SUBNET, dns_nameservers: ["8.8.8.8", "999.1.1.1"] }, "dns_nameservers[1]"),
  subnet("a duplicate DNS address", { ...SUBNET, dns_nameservers: ["8.8.8.8", "1.1.1.1", "8.8.8.8"] }, "dns_nameservers[2]"),
  subnet(
    "a duplicate DNS address spelled differently",
    { ...SUBNET, dns_nameservers: ["2001:db8::1", "2001:DB8:0::1"] },
    "dns_nameservers[1]",
  ),
  subnet("dns_nameservers a string", { ...SUBNET, dns_nameservers: "8.8.8.8" }, "dns_nameservers"),
  subnet("IPv6 gateway in an IPv4 cidr", { ...SUBNET, gateway_ip: "2001:db8::1" }, "gateway_ip"),
  subnet("gateway with a zone id", { ...SUBNET, cidr: "fe80::/64", gateway_ip: "fe80::1%eth0" }, "gateway_ip"),
  subnet("gateway_ip not an address", { ...SUBNET, gateway_ip: "gateway" }, "gateway_ip"),
  subnet("gateway_ip null, connect omitted", { ...SUBNET, gateway_ip: null }, "connect_to_network_router"),
  subnet("gateway_ip null, connect true", { ...SUBNET, gateway_ip: null, connect_to_network_router: true }, "connect_to_network_router"),
  subnet(
    "router_id_to_connect with connect false",
    { ...SUBNET, router_id_to_connect: ROUTER, connect_to_network_router: false },
    "router_id_to_connect",
  ),
  subnet("router_id_to_connect a uuid v1", { ...SUBNET, router_id_to_connect: UUID1 }, "router_id_to_connect"),
  subnet("ip_version 5", { ...SUBNET, ip_version: 5 }, "ip_version"),
  subnet("ip_version 6 for an IPv4 cidr", { ...SUBNET, ip_version: 6 }, "ip_version"),
  subnet("ip_version a string", { ...SUBNET, ip_version: "4" }, "ip_version"),
  subnet(
    "route destination with host bits",
    { ...SUBNET, host_routes: [{ destination: "10.2.0.1/16", nexthop: "10.1.0.1" }] },
    "host_routes[0].destination",
  ),
  subnet(
    "route nexthop not an address",
    { ...SUBNET, host_routes: [{ destination: "10.2.0.0/16", nexthop: "router" }] },
    "host_routes[0].nexthop",
  ),
  subnet("route nexthop missing", { ...SUBNET, host_routes: [{ destination: "10.2.0.0/16" }] }, "host_routes[0].nexthop"),
  subnet(
    "route camelCase nextHop",
    { ...SUBNET, host_routes: [{ destination: "10.2.0.0/16", nextHop: "10.1.0.1" }] },
    "host_routes[0].nextHop",
    "host_routes[0].nexthop",
  ),
  subnet(
    "route nexthop of the other IP version",
    {
      ...SUBNET,
      host_routes: [
        { destination: "10.2.0.0/16", nexthop: "10.1.0.1" },
        { destination: "10.3.0.0/16", nexthop: "2001:db8::1" },
      ],
    },
    "host_routes[1].nexthop",
  ),
  subnet("host_routes an object", { ...SUBNET, host_routes: { destination: "10.2.0.0/16", nexthop: "10.1.0.1" } }, "host_routes"),
  subnet("tag key of 256 characters", { ...SUBNET, tags: { [chars(256)]: "v" } }, "tags"),
  subnet("tag value of 256 characters", { ...SUBNET, tags: { env: chars(256, "v") } }, "tags.env"),
  subnet("tag value a number", { ...SUBNET, tags: { count: 3 } }, "tags.count"),
  subnet("tag value null on create", { ...SUBNET, tags: { env: null } }, "tags.env"),
  subnet("blank tag key", { ...SUBNET, tags: { "": "v" } }, "tags"),
  subnet("tags an array", { ...SUBNET, tags: ["env"] }, "tags"),
  subnet("tags null", { ...SUBNET, tags: null }, "tags"),
  subnet(
    "fields named like Object.prototype members",
    JSON.parse(`{"name":"s","cidr":"10.1.0.0/24","network_id":"${NET}","constructor":1,"__proto__":{},"tags":{"toString":3}}`),
    "constructor",
    "__proto__",
    "tags.toString",
  ),
  subnet("several errors at once", { name: "", cidr: "10.1.0.1/24", network_id: UUID1, extra: 1 }, "name", "cidr", "network_id", "extra"),
];

const SUBNET_PATCH_INVALID: InvalidCase[] = [
  subnetPatch("a string body", "name", "non_field_errors"),
  subnetPatch("cidr", { cidr: "10.9.0.0/24" }, "cidr"),
  subnetPatch("network_id", { network_id: NET }, "network_id"),
  subnetPatch("connect_to_network_router", { connect_to_network_router: false }, "connect_to_network_router"),
  subnetPatch("camelCase enableDhcp", { enableDhcp: false }, "enableDhcp"),
  subnetPatch("enable_dhcp null", { enable_dhcp: null }, "enable_dhcp"),
  subnetPatch("tag value of 256 characters", { tags: { k: chars(256, "v") } }, "tags.k"),
  subnetPatch("tag value a number", { tags: { k: 5 } }, "tags.k"),
  subnetPatch("tag key of 256 characters", { tags: { [chars(256)]: null } }, "tags"),
  subnetPatch("blank name", { name: "" }, "name"),
  subnetPatch("bad DNS address", { dns_nameservers: ["8.8.8"] }, "dns_nameservers[0]"),
];

const IMAGE_INVALID: InvalidCase[] = [
  image("a number body", 7, "non_field_errors"),
  image("volume_id missing", { name: "g" }, "volume_id"),
  image("name missing", { volume_id: VOLUME }, "name"),
  image("camelCase volumeId", { name: "g", volumeId: VOLUME }, "volumeId", "volume_id"),
  image("volume_id a uuid v1", { ...IMAGE, volume_id: UUID1 }, "volume_id"),
  image("blank name", { ...IMAGE, name: "" }, "name"),
  image("architecture arm64", { ...IMAGE, architecture: "arm64" }, "architecture"),
  image("architecture null", { ...IMAGE, architecture: null }, "architecture"),
  image("hw_firmware_type efi", { ...IMAGE, hw_firmware_type: "efi" }, "hw_firmware_type"),
  image("hw_machine_type i440fx", { ...IMAGE, hw_machine_type: "i440fx" }, "hw_machine_type"),
  image("is_baremetal a string", { ...IMAGE, is_baremetal: "false" }, "is_baremetal"),
  image("os_type macos", { ...IMAGE, os_type: "macos" }, "os_type"),
  image("source url", { ...IMAGE, source: "url" }, "source"),
  image("ssh_key optional", { ...IMAGE, ssh_key: "optional" }, "ssh_key"),
  image("enum in the wrong case", { ...IMAGE, os_type: "Linux" }, "os_type"),
  image("tag key of 256 characters", { ...IMAGE, tags: { [chars(256)]: "v" } }, "tags"),
];

const IMAGE_PATCH_INVALID: InvalidCase[] = [
  imagePatch("volume_id", { volume_id: VOLUME }, "volume_id"),
  imagePatch("architecture", { architecture: "aarch64" }, "architecture"),
  imagePatch("source", { source: "volume" }, "source"),
  imagePatch("camelCase osType", { osType: "linux" }, "osType"),
  imagePatch("tag value a number", { tags: { t: 123 } }, "tags.t"),
  imagePatch("ssh_key bad", { ssh_key: "yes" }, "ssh_key"),
];

const POOL_INVALID: InvalidCase[] = [
  pool("an array body", [], "non_field_errors"),
  pool("timeout_client_data -1", { timeout_client_data: -1 }, "timeout_client_data"),
  pool("timeout_member_connect 86400001", { timeout_member_connect: 86400001 }, "timeout_member_connect"),
  pool("timeout_member_data a float", { timeout_member_data: 1.5 }, "timeout_member_data"),
  pool("timeout_client_data a string", { timeout_client_data: "1000" }, "timeout_client_data"),
  pool("timeout_member_data beyond int64", { timeout_member_data: 2n ** 63n }, "timeout_member_data"),
  pool("lb_algorithm RANDOM", { lb_algorithm: "RANDOM" }, "lb_algorithm"),
  pool("protocol in lower case", { protocol: "http" }, "protocol"),
  pool("ca_secret_id a uuid v1", { ca_secret_id: UUID1 }, "ca_secret_id"),
  pool("secret_id a number", { secret_id: 7 }, "secret_id"),
  pool("blank name", { name: "" }, "name"),
  pool("name null", { name: null }, "name"),
  pool("members an object", { members: MEMBER }, "members"),
  pool("member port 0", { members: [MEMBER, { address: "10.0.0.11", protocol_port: 0 }] }, "members[1].protocol_port"),
  pool("member port 65536", { members: [{ address: "10.0.0.11", protocol_port: 65536 }] }, "members[0].protocol_port"),
  pool("member address missing", { members: [MEMBER, { protocol_port: 80 }] }, "members[1].address"),
  pool("member address not an IP", { members: [{ ...MEMBER, address: "10.0.0.300" }] }, "members[0].address"),
  pool("member weight 0", { members: [{ ...MEMBER, weight: 0 }] }, "members[0].weight"),
  pool("member weight 257", { members: [{ ...MEMBER, weight: 257 }] }, "members[0].weight"),
  pool("member subnet_id a uuid v1", { members: [{ ...MEMBER, subnet_id: UUID1 }] }, "members[0].subnet_id"),
  pool(
    "member camelCase protocolPort",
    { members: [{ address: "10.0.0.11", protocolPort: 80 }] },
    "members[0].protocolPort",
    "members[0].protocol_port",
  ),
  pool("member null", { members: [null] }, "members[0]"),
  pool("duplicate members", { members: [MEMBER, { address: "10.0.0.11", protocol_port: 8080 }, { ...MEMBER, weight: 5 }] }, "members[2]"),
  pool("healthmonitor null", { healthmonitor: null }, "healthmonitor"),
  pool("healthmonitor delay 0", { healthmonitor: { ...HM, delay: 0 } }, "healthmonitor.delay"),
  pool("healthmonitor timeout missing", { healthmonitor: { type: "TCP", delay: 5, max_retries: 3 } }, "healthmonitor.timeout"),
  pool("healthmonitor type missing", { healthmonitor: { delay: 5, timeout: 3, max_retries: 3 } }, "healthmonitor.type"),
  pool("healthmonitor type SCTP", { healthmonitor: { ...HM, type: "SCTP" } }, "healthmonitor.type"),
  pool("healthmonitor max_retries 0", { healthmonitor: { ...HM, max_retries: 0 } }, "healthmonitor.max_retries"),
  pool("healthmonitor max_retries 11", { healthmonitor: { ...HM, max_retries: 11 } }, "healthmonitor.max_retries"),
  pool("healthmonitor max_retries_down 11", { healthmonitor: { ...HM, max_retries_down: 11 } }, "healthmonitor.max_retries_down"),
  pool("healthmonitor http_method FETCH", { healthmonitor: { ...HM, http_method: "FETCH" } }, "healthmonitor.http_method"),
  pool("healthmonitor url_path without slash", { healthmonitor: { ...HM, url_path: "health" } }, "healthmonitor.url_path"),
  pool("healthmonitor expected_codes open range", { healthmonitor: { ...HM, expected_codes: "200-" } }, "healthmonitor.expected_codes"),
  pool(
    "healthmonitor expected_codes descending range",
    { healthmonitor: { ...HM, expected_codes: "204-200" } },
    "healthmonitor.expected_codes",
  ),
  pool(
    "healthmonitor expected_codes not HTTP codes",
    { healthmonitor: { ...HM, expected_codes: "200,99" } },
    "healthmonitor.expected_codes",
  ),
  pool(
    "healthmonitor camelCase maxRetries",
    { healthmonitor: { type: "TCP", delay: 5, timeout: 3, maxRetries: 3 } },
    "healthmonitor.maxRetries",
    "healthmonitor.max_retries",
  ),
  pool("session_persistence type COOKIE", { session_persistence: { type: "COOKIE" } }, "session_persistence.type"),
  pool("session_persistence type missing", { session_persistence: { cookie_name: "sid" } }, "session_persistence.type"),
  pool(
    "session_persistence timeout -1",
    { session_persistence: { type: "SOURCE_IP", persistence_timeout: -1 } },
    "session_persistence.persistence_timeout",
  ),
  pool(
    "session_persistence camelCase cookieName",
    { session_persistence: { type: "APP_COOKIE", cookieName: "sid" } },
    "session_persistence.cookieName",
  ),
  pool("provisioning_status", { provisioning_status: "ACTIVE" }, "provisioning_status"),
];

const POLICY_INVALID: InvalidCase[] = [
  policy("a null body", null, "non_field_errors"),
  policy("status stopped", { status: "stopped" }, "status"),
  policy("status null", { status: null }, "status"),
  policy("blank name", { name: "" }, "name"),
  policy("schedules", { schedules: [] }, "schedules"),
  policy("an unknown field", { retention: 3 }, "retention"),
];

const QUOTA_INVALID: InvalidCase[] = [
  quota("an array body", [{ threshold: 80 }], "non_field_errors"),
  quota("threshold missing", {}, "threshold"),
  quota("threshold 59", { threshold: 59 }, "threshold"),
  quota("threshold 101", { threshold: 101 }, "threshold"),
  quota("threshold a float", { threshold: 75.5 }, "threshold"),
  quota("threshold a string", { threshold: "80" }, "threshold"),
  quota("threshold null", { threshold: null }, "threshold"),
  quota("client_id", { threshold: 80, client_id: 1 }, "client_id"),
  quota("last_message null", { threshold: 80, last_message: null }, "last_message"),
  quota("camelCase globalQuotas", { threshold: 80, last_message: { globalQuotas: {} } }, "last_message.globalQuotas"),
  quota(
    "quota limit a string",
    { threshold: 80, last_message: { global_quotas: { keypair_count_limit: entry(1, 0), project_count_usage: { limit: "1", usage: 0 } } } },
    "last_message.global_quotas.project_count_usage.limit",
  ),
  quota(
    "quota limit beyond int64",
    { threshold: 80, last_message: { global_quotas: { keypair_count_limit: entry(INT64_MAX + 1n, 0) } } },
    "last_message.global_quotas.keypair_count_limit.limit",
  ),
  quota(
    "quota usage below int64",
    { threshold: 80, last_message: { global_quotas: { keypair_count_limit: entry(0, INT64_MIN - 1n) } } },
    "last_message.global_quotas.keypair_count_limit.usage",
  ),
  quota(
    "quota usage missing",
    { threshold: 80, last_message: { global_quotas: { keypair_count_limit: { limit: 1 } } } },
    "last_message.global_quotas.keypair_count_limit.usage",
  ),
  quota(
    "quota entry extra field",
    { threshold: 80, last_message: { global_quotas: { keypair_count_limit: { limit: 1, usage: 0, reserved: 0 } } } },
    "last_message.global_quotas.keypair_count_limit.reserved",
  ),
  quota(
    "a regional base in global quotas",
    { threshold: 80, last_message: { global_quotas: { cpu_count_limit: entry(1, 0) } } },
    "last_message.global_quotas.cpu_count_limit",
  ),
  quota(
    "a quota name without suffix",
    { threshold: 80, last_message: { global_quotas: { keypair_count: entry(1, 0) } } },
    "last_message.global_quotas.keypair_count",
  ),
  quota(
    "regional region_id missing",
    { threshold: 80, last_message: { regional_quotas: [{ region_name: "x" }] } },
    "last_message.regional_quotas[0].region_id",
  ),
  quota(
    "regional region_name a number",
    { threshold: 80, last_message: { regional_quotas: [{ region_id: 1, region_name: 5 }] } },
    "last_message.regional_quotas[0].region_name",
  ),
  quota(
    "a global base in a region",
    { threshold: 80, last_message: { regional_quotas: [{ ...REGION, keypair_count_limit: entry(1, 0) }] } },
    "last_message.regional_quotas[0].keypair_count_limit",
  ),
  quota(
    "regional quota usage a float",
    { threshold: 80, last_message: { regional_quotas: [{ ...REGION }, { ...REGION, cpu_count_usage: entry(4, 1.5) }] } },
    "last_message.regional_quotas[1].cpu_count_usage.usage",
  ),
  quota("regional_quotas an object", { threshold: 80, last_message: { regional_quotas: REGION } }, "last_message.regional_quotas"),
  quota("last_sending not a date", { threshold: 80, last_sending: "yesterday" }, "last_sending"),
  quota("last_sending 30 February", { threshold: 80, last_sending: "2026-02-30T00:00:00" }, "last_sending"),
  quota("last_sending hour 25", { threshold: 80, last_sending: "2026-05-23T25:00:00" }, "last_sending"),
  quota("last_sending a date only", { threshold: 80, last_sending: "2026-05-23" }, "last_sending"),
  quota("last_sending a number", { threshold: 80, last_sending: 1779512851 }, "last_sending"),
];

const INVALID = [
  ...SUBNET_INVALID,
  ...SUBNET_PATCH_INVALID,
  ...IMAGE_INVALID,
  ...IMAGE_PATCH_INVALID,
  ...POOL_INVALID,
  ...POLICY_INVALID,
  ...QUOTA_INVALID,
];

test.each(INVALID)("$title", ({ validate, body, paths }) => {
  const result = validate(body);
  expect(Object.keys(result).sort()).toEqual([...paths].sort());
  for (const messages of Object.values(result)) expect(messages.length).toBeGreaterThan(0);
});

// ---------------------------------------------------------------------------------------
// Messages: short, human, naming the rule
// ---------------------------------------------------------------------------------------

describe("messages", () => {
  test("a non-object body", () => {
    expect(validateSubnetCreate("x")).toEqual({ non_field_errors: ["Expected a JSON object."] });
  });

  test("unknown, missing, blank, fixed, null", () => {
    expect(validateSubnetCreate({ name: "", cidr: "10.1.0.0/24", networkId: NET })).toEqual({
      name: ["Must not be empty."],
      networkId: ["Unknown field."],
      network_id: ["This field is required."],
    });
    expect(validateSubnetPatch({ cidr: "10.9.0.0/24" })).toEqual({ cidr: ["This field cannot be updated."] });
    expect(validatePoolPatch({ healthmonitor: null })).toEqual({ healthmonitor: ["This field may not be null."] });
  });

  test("ranges, integers, enums, uuid4", () => {
    expect(validatePoolPatch({ timeout_member_connect: 86400001 })).toEqual({
      timeout_member_connect: ["Must be at most 86400000 (an integer from 0 to 86400000 milliseconds)."],
    });
    expect(validateQuotaPut({ threshold: 75.5 })).toEqual({ threshold: ["Must be an integer from 60 to 100 percent (no fractions)."] });
    expect(validateImageCreate({ ...IMAGE, architecture: "arm64" })).toEqual({ architecture: ["Must be one of: aarch64, x86_64."] });
    expect(validateImageCreate({ ...IMAGE, volume_id: UUID1 })).toEqual({ volume_id: ["Must be a UUID (version 4)."] });
    expect(validatePoolPatch({ healthmonitor: { ...HM, delay: 0 } })).toEqual({
      "healthmonitor.delay": ["Must be at least 1 (an integer from 1 to 2147483647 seconds)."],
    });
  });

  test("duplicate members name the earlier one", () => {
    expect(validatePoolPatch({ members: [MEMBER, MEMBER] })).toEqual({
      "members[1]": ["Duplicates members[0] (same address and port)."],
    });
  });

  test("the gateway and router cross rules", () => {
    expect(validateSubnetCreate({ ...SUBNET, gateway_ip: null })).toEqual({
      connect_to_network_router: ["Must be false when gateway_ip is null (no gateway, so no router connection)."],
    });
    expect(validateSubnetCreate({ ...SUBNET, connect_to_network_router: false, router_id_to_connect: ROUTER })).toEqual({
      router_id_to_connect: ["Requires connect_to_network_router to be true."],
    });
  });
});

// ---------------------------------------------------------------------------------------
// The exported value checks
// ---------------------------------------------------------------------------------------

describe("value checks", () => {
  test.each([
    [NET, true],
    [NET.toUpperCase(), true],
    [UUID1, false],
    ["0b7d9c9e-4a5f-4d1b-7a57-3c2f6f1e8a01", false], // wrong variant
    ["0b7d9c9e4a5f4d1b9a573c2f6f1e8a01", false],
    [42, false],
    [undefined, false],
  ])("isUuid4(%p) is %p", (value, expected) => {
    expect(isUuid4(value)).toBe(expected);
  });

  test.each([
    ["10.0.0.1", 4],
    ["::ffff:10.0.0.1", 6],
    ["2001:db8::1", 6],
    ["010.0.0.1", 0],
    ["10.0.0.256", 0],
    ["fe80::1%eth0", 0],
    [" 10.0.0.1", 0],
    [167772161, 0],
  ])("isIpAddress(%p) is %p", (value, expected) => {
    expect(isIpAddress(value)).toBe(expected);
  });

  test.each([
    ["10.0.0.0/8", { version: 4, prefix: 8 }],
    ["10.1.2.3/32", { version: 4, prefix: 32 }],
    ["0.0.0.0/0", { version: 4, prefix: 0 }],
    ["2001:db8::/32", { version: 6, prefix: 32 }],
    ["::/0", { version: 6, prefix: 0 }],
    ["2001:db8::1/128", { version: 6, prefix: 128 }],
    ["10.0.0.1/8", undefined],
    ["10.0.0.0/33", undefined],
    ["2001:db8::/129", undefined],
    ["10.0.0.0/-1", undefined],
    ["10.0.0.0/", undefined],
    ["10.0.0.0", undefined],
    ["10.0.0.0/8/8", undefined],
    ["fe80::%eth0/64", undefined],
    [null, undefined],
  ])("parseCidr(%p) is %p", (value, expected) => {
    if (expected === undefined) expect(parseCidr(value)).toBeUndefined();
    else expect(parseCidr(value)).toMatchObject(expected);
  });
});

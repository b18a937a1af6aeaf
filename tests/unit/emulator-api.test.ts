// cims-emulator from the outside, over real HTTP: endpoints, auth, strictness, tasks,
// locks, the member-keeping rule, faults, persistence, exact integers, limits, metrics.
import * as fs from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { parseJson, stringifyJson } from "../../provider/client";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";

const KEY = "emu-test-key-31c9";
const SEED = path.resolve(__dirname, "../../examples/emulator-seed.json");
const NET = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01";
const ROUTER = "5e2a8f1d-3c4b-4a6e-9d7f-1b2c3d4e5f60";
const VOLUME = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const POOL = "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
const KEPT_MEMBER = "7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e";
const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

let emu: RunningEmulator;

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions walk arbitrary JSON
  text: string;
  headers: Headers;
}

async function call(
  method: string,
  p: string,
  body?: unknown,
  opts: { key?: string | null; raw?: string; type?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.key !== null) headers.authorization = `apikey ${opts.key ?? KEY}`;
  const payload = opts.raw ?? (body === undefined ? undefined : stringifyJson(body));
  if (payload !== undefined) headers["content-type"] = opts.type ?? "application/json";
  const res = await fetch(`${emu.url}${p}`, { method, headers, body: payload });
  const text = await res.text();
  return { status: res.status, body: text ? parseJson(text) : undefined, text, headers: res.headers };
}

/** Polls a task until it ends, moving the emulator's clock on 40 ms between looks. */
async function waitTask(id: string): Promise<Answer["body"]> {
  for (;;) {
    const { body } = await call("GET", `/cloud/v1/tasks/${id}`);
    if (body.state === "FINISHED" || body.state === "ERROR") return body;
    jest.advanceTimersByTime(40);
  }
}

async function createSubnet(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET, ...extra });
  expect(res.status).toBe(200);
  const task = await waitTask(res.body.tasks[0]);
  expect(task.state).toBe("FINISHED");
  return task.created_resources.subnets[0];
}

// The emulator runs in this process and reads the time with Date.now(). Only Date is faked:
// its clock stands still unless a test moves it (waitTask, jest.advanceTimersByTime), so "a
// second call while the task still runs" holds however slow the machine is, while timers,
// sockets and fetch stay real.
const REAL = [
  "hrtime",
  "nextTick",
  "performance",
  "queueMicrotask",
  "setImmediate",
  "clearImmediate",
  "setInterval",
  "clearInterval",
  "setTimeout",
  "clearTimeout",
] as const;

beforeEach(async () => {
  jest.useFakeTimers({ doNotFake: [...REAL] });
  emu = await startEmulator({ apiKey: KEY, seed: SEED, taskDurationMs: 250 });
});
afterEach(async () => {
  await emu.close();
  jest.useRealTimers();
});

describe("auth and routing", () => {
  test("no Authorization header: 401 with the service's error body", async () => {
    const res = await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`, undefined, { key: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      exception_class: "NotAuthenticated",
      message: "Authentication credentials were not provided.",
      request_id: expect.any(String),
    });
  });

  test.each([["apikey wrong"], [`Bearer ${KEY}`], [`apikey  ${KEY}`], [`apikey${KEY}`], [`apikey ${KEY.toUpperCase()}`]])(
    "Authorization %j: 401",
    async (header) => {
      const res = await fetch(`${emu.url}/cloud/v1/lbpools/1/1/${POOL}`, { headers: { authorization: header } });
      expect(res.status).toBe(401);
    },
  );

  // RFC 9110 11.1: the scheme is case-insensitive; the vendor's SDK sends `APIKey`.
  test.each([[`APIKey ${KEY}`], [`APIKEY ${KEY}`], [`ApiKey ${KEY}`]])(
    "Authorization %j: the scheme in any case is accepted",
    async (header) => {
      const res = await fetch(`${emu.url}/cloud/v1/lbpools/1/1/${POOL}`, { headers: { authorization: header } });
      expect(res.status).toBe(200);
    },
  );

  test("unknown endpoints are 404, wrong methods 405", async () => {
    expect((await call("GET", "/cloud/v1/nothing")).body.exception_class).toBe("NotFoundError");
    const res = await call("POST", `/cloud/v1/lbpools/1/1/${POOL}`, {});
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("PATCH");
  });

  test("integer path ids are enforced", async () => {
    const res = await call("POST", "/cloud/v1/subnets/one/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET });
    expect(res.status).toBe(400);
    expect(res.body.invalid_fields).toEqual({ project_id: ["A valid integer is required."] });
  });
});

describe("projects and regions (the reads that prove a key)", () => {
  test("GET a seeded project and region: their records; an unknown one: 404 NotFoundError", async () => {
    expect((await call("GET", "/cloud/v1/projects/2")).body).toEqual({
      id: 2,
      client_id: 1,
      name: "prod",
      description: "Production",
      is_default: false,
      state: "ACTIVE",
      created_at: "2026-05-01T08:00:00",
      deleted_at: null,
      task_id: null,
    });
    const region = (await call("GET", "/cloud/v1/regions/3")).body;
    expect(region).toMatchObject({ id: 3, display_name: "Frankfurt", state: "ACTIVE" });
    expect(region).not.toHaveProperty("name");
    for (const p of ["/cloud/v1/projects/99", "/cloud/v1/regions/99"]) {
      const res = await call("GET", p);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ exception_class: "NotFoundError", message: expect.stringMatching(/99 not found/) });
    }
  });

  test("projects list: paged by limit/offset, filtered by name", async () => {
    expect((await call("GET", "/cloud/v1/projects?limit=1")).body).toEqual({ count: 2, results: [expect.objectContaining({ id: 1 })] });
    expect((await call("GET", "/cloud/v1/projects?name=prod")).body).toMatchObject({ count: 1, results: [{ id: 2 }] });
    expect((await call("GET", "/cloud/v1/projects?order_by=id")).status).toBe(400);
  });

  test("no key: 401 NotAuthenticated; a wrong key: 401 AuthenticationFailed, in the service's words", async () => {
    const none = await call("GET", "/cloud/v1/projects/1", undefined, { key: null });
    expect([none.status, none.body.exception_class, none.body.message]).toEqual([
      401,
      "NotAuthenticated",
      "Authentication credentials were not provided.",
    ]);
    const wrong = await call("GET", "/cloud/v1/projects/1", undefined, { key: "wrong" });
    expect([wrong.status, wrong.body.exception_class, wrong.body.message]).toEqual([
      401,
      "AuthenticationFailed",
      "Authentication credentials were not provided.",
    ]);
  });

  test("an account's further keys are accepted beside the first (a rotation); any other key is not", async () => {
    await emu.close();
    emu = await startEmulator({ apiKey: KEY, moreApiKeys: ["rotated-key"], seed: SEED });
    expect((await call("GET", "/cloud/v1/projects/1", undefined, { key: "rotated-key" })).status).toBe(200);
    expect((await call("GET", "/cloud/v1/projects/1")).status).toBe(200);
    expect((await call("GET", "/cloud/v1/projects/1", undefined, { key: "rotated-key2" })).body.exception_class).toBe(
      "AuthenticationFailed",
    );
  });

  test("a seed that lists no projects gets one for each project its records name, and no other", async () => {
    await emu.close();
    emu = await startEmulator({
      apiKey: KEY,
      seed: { networks: [{ id: NET, name: "n", project_id: 7, region_id: 1 }] },
    });
    expect((await call("GET", "/cloud/v1/projects/7")).body).toMatchObject({ id: 7, name: "Project 7", state: "ACTIVE" });
    expect((await call("GET", "/cloud/v1/projects/1")).status).toBe(404);
  });
});

describe("subnets", () => {
  test("create -> task NEW/RUNNING/FINISHED -> GET, with the backend's defaults", async () => {
    const res = await call("POST", "/cloud/v1/subnets/1/1", { name: "app", cidr: "10.1.0.0/24", network_id: NET, tags: { env: "dev" } });
    const taskId = res.body.tasks[0];
    const first = await call("GET", `/cloud/v1/tasks/${taskId}`);
    expect(first.body.state).toBe("NEW");
    expect(first.body.created_resources).toBeNull();
    expect(first.body.created_on).toMatch(TS);
    const task = await waitTask(taskId);
    expect(task).toMatchObject({ state: "FINISHED", task_type: "create_subnet", error: null });
    expect(task.finished_on).toMatch(TS);
    expect(task.created_resources.images).toEqual([]);
    const id = task.created_resources.subnets[0];
    const subnet = (await call("GET", `/cloud/v1/subnets/1/1/${id}`)).body;
    expect(subnet).toMatchObject({
      id,
      name: "app",
      cidr: "10.1.0.0/24",
      network_id: NET,
      ip_version: 4,
      enable_dhcp: true,
      gateway_ip: "10.1.0.1",
      dns_nameservers: [],
      host_routes: [],
      // A list, with the service's own read-only tag: the task that created it.
      tags: [
        { key: "env", value: "dev", read_only: false },
        { key: "creator_task_id", value: taskId, read_only: true },
      ],
      has_router: false,
      creator_task_id: taskId,
      total_ips: 254,
      available_ips: 253,
      project_id: 1,
      region_id: 1,
    });
    // Create-only instructions are not part of the record.
    expect(subnet).not.toHaveProperty("connect_to_network_router");
    expect(subnet).not.toHaveProperty("router_id_to_connect");
    expect((await call("GET", `/v1/tasks/${taskId}`)).body.id).toBe(taskId);
  });

  test("records hold canonical spellings; host routes come back in the service's order; an IPv6 /64 counts 2^64 addresses, exactly", async () => {
    const id = await createSubnet({
      cidr: "2001:DB8:0:0::/64",
      network_id: NET.toUpperCase(),
      gateway_ip: "2001:DB8::1",
      dns_nameservers: ["2001:4860:4860:0:0:0:0:8888"],
      host_routes: [
        { destination: "2001:db8:ff::/48", nexthop: "2001:DB8::FE" },
        { destination: "2001:db8:1::/48", nexthop: "2001:db8::fd" },
      ],
    });
    const res = await call("GET", `/cloud/v1/subnets/1/1/${id}`);
    expect(res.body).toMatchObject({
      cidr: "2001:db8::/64",
      network_id: NET,
      gateway_ip: "2001:db8::1",
      dns_nameservers: ["2001:4860:4860::8888"],
      host_routes: [
        { destination: "2001:db8:1::/48", nexthop: "2001:db8::fd" },
        { destination: "2001:db8:ff::/48", nexthop: "2001:db8::fe" },
      ],
    });
    expect(res.text).toContain('"total_ips":18446744073709551616');
    expect(res.text).toContain('"available_ips":18446744073709551615');
  });

  test("tags: a read-only tag cannot be set, changed or removed (400); users' tags merge around it", async () => {
    expect(
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.7.0.0/24", network_id: NET, tags: { creator_task_id: "x" } }))
        .status,
    ).toBe(400);
    const id = await createSubnet({ tags: { a: "1" } });
    for (const tags of [{ creator_task_id: "mine" }, { creator_task_id: null }]) {
      const res = await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { tags });
      expect(res.status).toBe(400);
      expect(res.body.invalid_fields).toEqual({ tags: ["Tag creator_task_id is read-only: the service sets it."] });
    }
    const res = await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { tags: { a: null, b: "2" } });
    expect(res.body.tags).toEqual([
      { key: "b", value: "2", read_only: false },
      { key: "creator_task_id", value: expect.any(String), read_only: true },
    ]);
  });

  test("gateway_ip null is kept as null (with connect_to_network_router false); enable_dhcp false is kept", async () => {
    const id = await createSubnet({ gateway_ip: null, connect_to_network_router: false, enable_dhcp: false });
    const subnet = (await call("GET", `/cloud/v1/subnets/1/1/${id}`)).body;
    expect(subnet.gateway_ip).toBeNull();
    expect(subnet.enable_dhcp).toBe(false);
  });

  test("a camelCase field is rejected, not ignored", async () => {
    const res = await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", networkId: NET });
    expect(res.status).toBe(400);
    expect(res.body.exception_class).toBe("ValidationError");
    expect(Object.keys(res.body.invalid_fields)).toEqual(expect.arrayContaining(["networkId", "network_id"]));
  });

  test("unknown network or router: 404; another project: 404", async () => {
    expect(
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: "11111111-1111-4111-8111-111111111111" }))
        .status,
    ).toBe(404);
    expect((await call("POST", "/cloud/v1/subnets/2/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET })).status).toBe(404);
    const res = await call("POST", "/cloud/v1/subnets/1/1", {
      name: "s",
      cidr: "10.1.0.0/24",
      network_id: NET,
      router_id_to_connect: "22222222-2222-4222-8222-222222222222",
    });
    expect(res.body.message).toContain("Router");
    expect(
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET, router_id_to_connect: ROUTER }))
        .status,
    ).toBe(200);
  });

  test("an overlapping CIDR ends the task in ERROR with the reason", async () => {
    await createSubnet();
    const res = await call("POST", "/cloud/v1/subnets/1/1", { name: "dup", cidr: "10.1.0.128/25", network_id: NET });
    const task = await waitTask(res.body.tasks[0]);
    expect(task.state).toBe("ERROR");
    expect(task.error).toContain("overlaps with another subnet");
  });

  test("an overlapping CIDR still being created also ends the second task in ERROR", async () => {
    const body = { name: "s", cidr: "10.9.0.0/24", network_id: NET };
    const first = await call("POST", "/cloud/v1/subnets/1/1", body);
    const second = await call("POST", "/cloud/v1/subnets/1/1", { ...body, cidr: "10.9.0.0/16" });
    expect((await waitTask(first.body.tasks[0])).state).toBe("FINISHED");
    const failed = await waitTask(second.body.tasks[0]);
    expect(failed.state).toBe("ERROR");
    expect(failed.error).toContain("overlaps with another subnet");
  });

  test("PATCH updates in place (tags merge, null removes); other fields cannot change", async () => {
    const id = await createSubnet({ tags: { a: "1", b: "2" } });
    const res = await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { name: "renamed", enable_dhcp: false, tags: { b: null, c: "3" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "renamed", enable_dhcp: false });
    expect(res.body.tags.filter((t: { read_only: boolean }) => !t.read_only)).toEqual([
      { key: "a", value: "1", read_only: false },
      { key: "c", value: "3", read_only: false },
    ]);
    expect((await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { cidr: "10.9.0.0/24" })).status).toBe(400);
  });

  test("DELETE returns a task; a second mutation while it runs is 409; then the subnet is gone", async () => {
    const id = await createSubnet();
    const del = await call("DELETE", `/cloud/v1/subnets/1/1/${id}`);
    const again = await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { name: "x" });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(`locked by running task ${del.body.tasks[0]}`);
    await waitTask(del.body.tasks[0]);
    expect((await call("GET", `/cloud/v1/subnets/1/1/${id}`)).status).toBe(404);
  });

  test("DELETE of a subnet a pool member uses is 409 ConflictError, as the service's; once the member is gone it deletes", async () => {
    const id = await createSubnet();
    const member = { address: "10.1.0.10", protocol_port: 8080, subnet_id: id };
    await waitTask((await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { members: [member] })).body.tasks[0]);
    const refused = await call("DELETE", `/cloud/v1/subnets/1/1/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ exception_class: "ConflictError", request_id: expect.any(String) });
    expect(refused.body.message).toMatch(/one or more ports have an IP allocation from this subnet/i);
    expect((await call("GET", `/cloud/v1/subnets/1/1/${id}`)).status).toBe(200); // no task started: still there
    await waitTask((await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { members: [] })).body.tasks[0]);
    const del = await call("DELETE", `/cloud/v1/subnets/1/1/${id}`);
    expect(del.status).toBe(200);
    expect((await waitTask(del.body.tasks[0])).state).toBe("FINISHED");
    expect((await call("GET", `/cloud/v1/subnets/1/1/${id}`)).status).toBe(404);
  });
});

describe("images", () => {
  test("from a seeded volume, with defaults; the volume is locked meanwhile; PATCH and DELETE", async () => {
    const res = await call("POST", "/cloud/v1/bmimages/1/1", { name: "golden", volume_id: VOLUME, is_baremetal: true });
    expect((await call("POST", "/cloud/v1/bmimages/1/1", { name: "golden-2", volume_id: VOLUME })).status).toBe(409);
    const task = await waitTask(res.body.tasks[0]);
    const id = task.created_resources.images[0];
    const image = (await call("GET", `/cloud/v1/images/1/1/${id}`)).body;
    expect(image).toMatchObject({
      name: "golden",
      volume_id: VOLUME,
      architecture: "x86_64",
      os_type: "linux",
      // The vendor's record: the OS of the volume's image metadata, the region's name, tags as tags_v2.
      os_distro: "debian",
      os_version: "12",
      min_ram: 0,
      region: "Luxembourg",
      ssh_key: "allow",
      source: "volume",
      is_baremetal: true,
      hw_firmware_type: null,
    });
    expect(image).not.toHaveProperty("tags");
    const patched = await call("PATCH", `/cloud/v1/images/1/1/${id}`, { ssh_key: "deny", hw_machine_type: "pc", tags: { t: "v" } });
    expect(patched.body).toMatchObject({
      ssh_key: "deny",
      hw_machine_type: "i440", // the spec's pc, as records spell it
      tags_v2: [
        { key: "t", value: "v", read_only: false },
        { key: "creator_task_id", value: task.id, read_only: true },
      ],
    });
    expect((await call("PATCH", `/cloud/v1/images/1/1/${id}`, { architecture: "aarch64" })).status).toBe(400);
    await waitTask((await call("DELETE", `/cloud/v1/images/1/1/${id}`)).body.tasks[0]);
    expect((await call("GET", `/cloud/v1/images/1/1/${id}`)).status).toBe(404);
  });

  test("an unknown volume is 404; a bad enum is 400 naming the field", async () => {
    expect((await call("POST", "/cloud/v1/bmimages/1/1", { name: "x", volume_id: "33333333-3333-4333-8333-333333333333" })).status).toBe(
      404,
    );
    const res = await call("POST", "/cloud/v1/bmimages/1/1", { name: "x", volume_id: VOLUME, os_type: "macos" });
    expect(Object.keys(res.body.invalid_fields)).toEqual(["os_type"]);
  });
});

describe("load balancer pools", () => {
  test("members with the same address and port are kept (same id, untouched); others are created", async () => {
    const res = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, {
      members: [
        { address: "10.0.0.10", protocol_port: 8080, weight: 50 },
        { address: "10.0.0.11", protocol_port: 8080, weight: 2 },
      ],
    });
    expect(res.status).toBe(200);
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.provisioning_status).toBe("PENDING_UPDATE");
    expect((await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { name: "x" })).status).toBe(409);
    const task = await waitTask(res.body.tasks[0]);
    const pool = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body;
    expect(pool.provisioning_status).toBe("ACTIVE");
    expect(pool.members[0]).toEqual({
      id: KEPT_MEMBER,
      address: "10.0.0.10",
      protocol_port: 8080,
      weight: 1,
      subnet_id: null,
      admin_state_up: true,
      backup: false,
      monitor_address: null,
      monitor_port: null,
      operating_status: "NO_MONITOR",
      provisioning_status: "ACTIVE",
    });
    // A new member has every field of the vendor's member record, as the service fills them.
    expect(pool.members[1]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      address: "10.0.0.11",
      protocol_port: 8080,
      weight: 2,
      subnet_id: null,
      admin_state_up: true,
      backup: false,
      monitor_address: null,
      monitor_port: null,
      operating_status: "NO_MONITOR",
      provisioning_status: "ACTIVE",
    });
    expect(task.created_resources.members).toEqual([pool.members[1].id]);
  });

  test("a member's address spelled differently (IPv6 case, zeros) is the same member, kept", async () => {
    const first = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { members: [{ address: "2001:db8::a", protocol_port: 80 }] });
    await waitTask(first.body.tasks[0]);
    const before = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.members[0];
    const again = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { members: [{ address: "2001:DB8:0::A", protocol_port: 80 }] });
    // The same member: nothing changes, so no task (the service answers {"tasks": []}).
    expect(again.body).toEqual({ tasks: [] });
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.members).toEqual([before]);
  });

  test("members come back in the service's order (by address and port), not the request's", async () => {
    const res = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, {
      members: [
        { address: "10.0.0.30", protocol_port: 80 },
        { address: "10.0.0.20", protocol_port: 80 },
      ],
    });
    await waitTask(res.body.tasks[0]);
    const members = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.members;
    expect(members.map((m: { address: string }) => m.address)).toEqual(["10.0.0.20", "10.0.0.30"]);
  });

  test("a PATCH that changes nothing answers {tasks: []}; session_persistence null removes it; DELETE .../healthmonitor removes the monitor", async () => {
    const hm = { type: "TCP", delay: 5, timeout: 5, max_retries: 3 };
    const set = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { healthmonitor: hm, session_persistence: { type: "SOURCE_IP" } });
    await waitTask(set.body.tasks[0]);
    const pool = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body;
    expect(
      (await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { name: pool.name, session_persistence: { type: "SOURCE_IP" } })).body,
    ).toEqual({ tasks: [] });
    const unset = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { session_persistence: null });
    await waitTask(unset.body.tasks[0]);
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.session_persistence).toBeNull();
    expect((await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { healthmonitor: null })).status).toBe(400);
    expect((await call("DELETE", `/cloud/v1/lbpools/1/1/${POOL}/healthmonitor`)).status).toBe(204);
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.healthmonitor).toBeNull();
    expect((await call("DELETE", `/cloud/v1/lbpools/1/1/${POOL}/healthmonitor`)).status).toBe(404);
  });

  test("a seeded member whose address is not an IP does not break PATCHes of its pool", async () => {
    const pool = { ...(await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body };
    pool.members = [{ ...pool.members[0], address: "legacy-host" }];
    expect((await call("POST", "/__emulator/seed", { lbpools: [pool] }, { key: null })).status).toBe(204);
    const res = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { members: [{ address: "10.0.0.99", protocol_port: 80 }] });
    expect(res.status).toBe(200);
    expect((await waitTask(res.body.tasks[0])).state).toBe("FINISHED");
  });

  test("members: null empties the pool; a health monitor and timeouts are set", async () => {
    const res = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, {
      members: null,
      healthmonitor: { type: "HTTP", delay: 10, timeout: 5, max_retries: 3 },
      timeout_client_data: 0,
      timeout_member_data: 86400000,
    });
    await waitTask(res.body.tasks[0]);
    const pool = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body;
    expect(pool.members).toEqual([]);
    expect(pool.healthmonitor).toMatchObject({ type: "HTTP", delay: 10, timeout: 5, max_retries: 3 });
    expect(pool.timeout_client_data).toBe(0);
    expect(pool.timeout_member_data).toBe(86400000);
  });

  test("out-of-range timeouts and malformed pool ids are rejected", async () => {
    const res = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { timeout_member_connect: 86400001 });
    expect(Object.keys(res.body.invalid_fields)).toEqual(["timeout_member_connect"]);
    expect((await call("GET", "/cloud/v1/lbpools/1/1/not-a-uuid")).status).toBe(400);
    expect((await call("GET", "/cloud/v1/lbpools/1/1/44444444-4444-4444-8444-444444444444")).status).toBe(404);
  });
});

describe("lifecycle policies", () => {
  test("PATCH status and name; volumes only with need_volumes=true", async () => {
    const res = await call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", { status: "paused", name: "nightly" });
    expect(res.body).toMatchObject({
      id: 101,
      status: "paused",
      name: "nightly",
      action: "volume_snapshot",
      user_id: 7,
      project_id: 1,
      region_id: 1,
    });
    expect(res.body.schedules[0].resource_name_template).toContain("{volume_id}");
    expect(res.body.volumes).toEqual([]); // the vendor's model requires it; listed only when asked for
    const withVolumes = await call("GET", "/cloud/v1/lifecycle_policy/1/1/101?need_volumes=true");
    expect(withVolumes.body.volumes).toEqual([{ volume_id: VOLUME, volume_name: "golden-root" }]);
    expect((await call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", { status: "stopped" })).status).toBe(400);
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/999")).status).toBe(404);
  });
});

describe("quota notification threshold", () => {
  test("PUT keeps int64 quota numbers digit for digit; GET; DELETE resets to 80", async () => {
    const message = {
      global_quotas: { keypair_count_limit: { limit: 9223372036854775807n, usage: 9223372036854775806n } },
      regional_quotas: [],
    };
    const res = await call("PUT", "/cloud/v2/client_quotas/1/notification_threshold", { threshold: 75, last_message: message });
    expect(res.status).toBe(200);
    expect(res.text).toContain('"limit":9223372036854775807,"usage":9223372036854775806');
    expect(res.body).toMatchObject({ client_id: 1, threshold: 75, last_sending: "2026-05-23T05:07:31" });
    expect((await call("GET", "/cloud/v2/client_quotas/1/notification_threshold")).text).toContain("9223372036854775806");
    expect((await call("DELETE", "/cloud/v2/client_quotas/1/notification_threshold")).status).toBe(204);
    expect((await call("GET", "/cloud/v2/client_quotas/1/notification_threshold")).body.threshold).toBe(80);
  });

  test.each(["9007199254740993.0", "9.007199254740993e15"])(
    "a quota number %s (a rounded double beyond 2^53) is refused, not stored changed",
    async (literal) => {
      const raw = `{"threshold":75,"last_message":{"global_quotas":{"keypair_count_limit":{"limit":${literal},"usage":1}},"regional_quotas":[]}}`;
      const res = await call("PUT", "/cloud/v2/client_quotas/1/notification_threshold", undefined, { raw });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.invalid_fields)).toEqual(["last_message.global_quotas.keypair_count_limit.limit"]);
    },
  );

  test("PUT is an upsert; thresholds outside 60..100 or fractional are refused", async () => {
    expect((await call("GET", "/cloud/v2/client_quotas/77/notification_threshold")).status).toBe(404);
    const created = await call("PUT", "/cloud/v2/client_quotas/77/notification_threshold", { threshold: 60 });
    expect(created.body).toEqual({
      client_id: 77,
      threshold: 60,
      last_message: { global_quotas: {}, regional_quotas: [] },
      last_sending: null,
    });
    for (const threshold of [59, 101, 75.5, "80"]) {
      const res = await call("PUT", "/cloud/v2/client_quotas/77/notification_threshold", { threshold });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.invalid_fields)).toEqual(["threshold"]);
    }
  });
});

describe("bodies the server must survive", () => {
  test("malformed JSON: 400 ParseError; oversized: 413; wrong media type: 415; the server stays up", async () => {
    const bad = await call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", undefined, { raw: '{"name": "x",' });
    expect(bad.status).toBe(400);
    expect(bad.body.exception_class).toBe("ParseError");
    const huge = await call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", undefined, {
      raw: JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    const form = await call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", undefined, {
      raw: "name=x",
      type: "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(415);
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/101")).status).toBe(200);
  });
});

/** A request with a raw request target (fetch would normalise "//[" and "%E0"). */
function rawTarget(target: string): Promise<number> {
  const { port } = new URL(emu.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method: "GET", path: target, headers: { authorization: `apikey ${KEY}` } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("request targets the server must survive", () => {
  test.each([
    ["//[", 400],
    ["//cloud/v1/tasks/x", 400],
    ["http://x:99999/", 400],
    [`/cloud/v1/lbpools/1/1/%E0%A4`, 404],
  ])("%s answers %i and the server stays up", async (target, status) => {
    expect(await rawTarget(target)).toBe(status);
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/101")).status).toBe(200);
  });
});

describe("control API: faults, task duration, metrics, logs", () => {
  const control = (method: string, p: string, body?: unknown) => call(method, `/__emulator/${p}`, body, { key: null });

  test.each([
    [{ count: 0 }, "count must be a whole number >= 1"],
    [{ probability: 2 }, "probability must be a number from 0 to 1"],
    [{ delayMs: "soon" }, "delayMs must be a whole number >= 0"],
    [{ retryAfter: { s: 1 } }, "retryAfter must be a number of seconds or an HTTP date"],
    [{ count: "2" }, 'count must be a whole number >= 1, got "2"'],
    // A misspelt field used to be dropped: the fault then answered at once, with no delay.
    [{ delay_ms: 300 }, 'unknown field "delay_ms"; known: method, path, count'],
    [{ body: "Subnet is in use" }, 'body must be a JSON object (the service\'s error body), got "Subnet is in use"'],
    [{ status: undefined }, 'status is required by action "status": an HTTP status (100-599)'],
  ])("a fault with %p is refused: %s", async (extra, message) => {
    const res = await control("POST", "faults", { method: "GET", path: "/**", action: "status", status: 503, ...extra });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await control("GET", "faults")).body.request_faults).toEqual([]);
  });

  test.each([
    [{ count: 0, message: "x" }, "count must be a whole number >= 1, got 0"],
    [{ count: "1", message: "x" }, 'count must be a whole number >= 1, got "1"'],
    // "no" is truthy: the task used to hang.
    [{ hang: "no", message: "x" }, 'hang must be true or false, got "no"'],
    [{ hang: false }, "message is required (the ERROR's text), unless hang is true"],
    [{ message: "x", keep_created: true }, 'unknown field "keep_created"'],
  ])("a task fault with %p is refused: %s", async (extra, message) => {
    const res = await control("POST", "task-faults", { method: "POST", path: "/**", ...extra });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ exception_class: "ValidationError" });
    expect(res.body.message).toContain(message);
    expect((await control("GET", "faults")).body.task_faults).toEqual([]);
  });

  test.each([
    ["rate-limit", { perSecond: 2 }, 'unknown field "perSecond"; known: per_second'],
    ["rate-limit", { per_second: "2" }, 'per_second must be a whole number >= 1, or null to lift the limit, got "2"'],
    ["task-duration", { duration_ms: 50 }, 'unknown field "duration_ms"; known: ms'],
    ["task-duration", { ms: 1.5 }, "ms must be an integer >= 0, got 1.5"],
    ["task-duration", [50], "Expected a JSON object."],
  ])("PUT %s with %p is refused: %s", async (call, body, message) => {
    const res = await control("PUT", call, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await control("GET", "faults")).body.rate_limit).toBeNull();
  });

  test("status faults with Retry-After apply to the next N matching requests only", async () => {
    await control("POST", "faults", {
      method: "GET",
      path: "/cloud/v1/lbpools/1/1/*",
      count: 2,
      action: "status",
      status: 503,
      retryAfter: "2",
    });
    const first = await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`);
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("2");
    expect(first.body.exception_class).toBe("ServiceUnavailable");
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).status).toBe(503);
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).status).toBe(200);
  });

  test("a rate limit per key answers 429 with Retry-After once a second's requests are spent, and refills", async () => {
    expect((await control("PUT", "rate-limit", { per_second: 0 })).status).toBe(400);
    expect((await control("PUT", "rate-limit", { per_second: 2 })).status).toBe(204);
    const get = () => call("GET", `/cloud/v1/lbpools/1/1/${POOL}`);
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.body.exception_class).toBe("TooManyRequests");
    jest.advanceTimersByTime(500); // one token back at 2 per second
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);
    expect((await control("GET", "faults")).body.rate_limit).toBe(2);
    expect((await control("PUT", "rate-limit", { per_second: null })).status).toBe(204);
    for (let i = 0; i < 5; i++) expect((await get()).status).toBe(200);
  });

  test("close drops the connection; close-after acts first; delay answers late", async () => {
    await control("POST", "faults", { method: "GET", path: "/cloud/v1/tasks/**", count: 1, action: "close" });
    await expect(call("GET", "/cloud/v1/tasks/x")).rejects.toThrow();
    await control("POST", "faults", { method: "PATCH", path: "/cloud/v1/lifecycle_policy/1/1/101", count: 1, action: "close-after" });
    await expect(call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", { name: "acted" })).rejects.toThrow();
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/101")).body.name).toBe("acted");
    await control("POST", "faults", { method: "GET", path: "/cloud/v1/lifecycle_policy/1/1/101", count: 1, action: "delay", delayMs: 300 });
    // A lower bound (a slow machine only adds to it), on the real clock: Date is faked here.
    const started = performance.now();
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/101")).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  test("task faults: the next task for a path ends in ERROR with the message, or never finishes", async () => {
    await control("POST", "task-faults", { method: "POST", path: "/cloud/v1/subnets/1/1", count: 1, message: "No more IPs in the pool" });
    const failed = await waitTask(
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET })).body.tasks[0],
    );
    expect(failed).toMatchObject({ state: "ERROR", error: "No more IPs in the pool" });
    await control("POST", "task-faults", { method: "POST", path: "/cloud/v1/subnets/1/1", count: 1, hang: true });
    const hung = (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET })).body.tasks[0];
    jest.advanceTimersByTime(60 * 60_000); // an hour of emulator time; the task takes 250 ms
    const running = (await call("GET", `/cloud/v1/tasks/${hung}`)).body;
    expect(running.state).toBe("RUNNING");
    // A running create lists the id it allocated; the record appears when it finishes.
    expect(running.created_resources.subnets).toHaveLength(1);
    expect((await call("GET", `/cloud/v1/subnets/1/1/${running.created_resources.subnets[0]}`)).status).toBe(404);
  });

  test("task faults: keepCreated makes the resource, then ERROR; alongside adds a second task that fails beside the first", async () => {
    await control("POST", "task-faults", {
      method: "POST",
      path: "/cloud/v1/subnets/1/1",
      count: 1,
      message: "late failure",
      keepCreated: true,
    });
    const kept = await waitTask(
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET })).body.tasks[0],
    );
    expect(kept).toMatchObject({ state: "ERROR", error: "late failure" });
    expect((await call("GET", `/cloud/v1/subnets/1/1/${kept.created_resources.subnets[0]}`)).status).toBe(200);

    await control("POST", "task-faults", {
      method: "POST",
      path: "/cloud/v1/subnets/1/1",
      count: 1,
      message: "second failed",
      alongside: true,
    });
    const two = (await call("POST", "/cloud/v1/subnets/1/1", { name: "t", cidr: "10.2.0.0/24", network_id: NET })).body.tasks;
    expect(two).toHaveLength(2);
    expect(await waitTask(two[0])).toMatchObject({ state: "FINISHED" });
    expect(await waitTask(two[1])).toMatchObject({ state: "ERROR", error: "second failed" });
    expect((await control("POST", "task-faults", { method: "POST", path: "/x", keepCreated: "yes", message: "m" })).status).toBe(400);
  });

  test("injected faults and 401s are counted under their route in the metrics", async () => {
    await control("POST", "faults", { method: "GET", path: "/cloud/v1/lifecycle_policy/1/1/101", count: 1, action: "status", status: 503 });
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/101")).status).toBe(503);
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/101", undefined, { key: "wrong" })).status).toBe(401);
    const { requests } = (await control("GET", "metrics")).body;
    expect(requests).toMatchObject({
      "GET /cloud/v1/lifecycle_policy/:project_id/:region_id/:policy_id 503": 1,
      "GET /cloud/v1/lifecycle_policy/:project_id/:region_id/:policy_id 401": 1,
    });
    expect(requests["GET (unmatched) 503"]).toBeUndefined();
  });

  test("metrics tell connections opened from connections open at once", async () => {
    await control("POST", "reset");
    const { port } = new URL(emu.url);
    // Each socket completes a request before the snapshot: the answer proves the server has
    // accepted (and counted) that connection, where a sleep would only hope it had.
    const sockets = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<net.Socket>((resolve, reject) => {
            const so = net.connect(Number(port), "127.0.0.1", () => so.write("GET /__emulator/logs HTTP/1.1\r\nHost: emulator\r\n\r\n"));
            so.once("data", () => resolve(so));
            so.once("error", reject);
          }),
      ),
    );
    const during = (await control("GET", "metrics")).body;
    for (const so of sockets) so.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const after = (await control("GET", "metrics")).body;
    expect(during.peak_open_connections).toBeGreaterThanOrEqual(3);
    expect(after.connections).toBeGreaterThanOrEqual(3);
    expect(after.peak_open_connections).toBe(during.peak_open_connections);
  });

  test("task duration is adjustable; metrics count requests by route, connections, GETs per task and lag", async () => {
    expect((await control("PUT", "task-duration", { ms: 50 })).status).toBe(204);
    const id = (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET })).body.tasks[0];
    await waitTask(id);
    const metrics = (await control("GET", "metrics")).body;
    expect(metrics.requests["POST /cloud/v1/subnets/:project_id/:region_id 200"]).toBe(1);
    expect(metrics.requests["GET /cloud/v1/tasks/:task_id 200"]).toBeGreaterThanOrEqual(1);
    expect(metrics.connections).toBeGreaterThanOrEqual(1);
    const task = metrics.tasks.find((t: { id: string }) => t.id === id);
    expect(task.duration_ms).toBe(50);
    expect(task.gets).toBeGreaterThanOrEqual(1);
    expect(task.lag_ms).toBeGreaterThanOrEqual(0);
  });

  test.each([
    [{ networks: [{ id: "n1", projectId: 1, regionId: 1 }] }, "networks[0].project_id must be an integer"],
    [{ volumes: [{ name: "v", project_id: 1, region_id: 1 }] }, 'volumes[0] has no "id"'],
    [{ client_quotas: [{ threshold: 80 }] }, 'client_quotas[0] has no "client_id"'],
    [{ ports: [] }, 'unknown seed collection "ports"'],
    [{ networks: { n1: { id: "n1", project_id: 1, region_id: 1 } } }, "networks must be a list of records"],
    // Every bad record is named, not only the first one met.
    [
      { networks: [{ id: "n1", project_id: 1, region_id: "1" }], volumes: [{ id: "v1", project_id: 1.5, region_id: 1 }] },
      "networks[0].region_id must be an integer (records use the API's snake_case names); volumes[0].project_id must be an integer",
    ],
  ])("a bad seed %p is refused whole: %s", async (seed, message) => {
    const before = (await control("GET", "state")).body;
    const res = await control("POST", "seed", { routers: [{ id: "r-new", project_id: 1, region_id: 1 }], ...seed });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await control("GET", "state")).body).toEqual(before); // nothing half-applied
  });

  test("reset returns to the seed; the request log has method, path, status, ms and never the key", async () => {
    await call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", { name: "changed" });
    expect((await control("POST", "reset")).status).toBe(204);
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/101")).body.name).toBe("nightly-snapshots");
    const logs = (await control("GET", "logs")).body.lines as string[];
    expect(logs.at(-1)).toMatch(/^GET \/cloud\/v1\/lifecycle_policy\/1\/1\/101 200 \d+ms$/);
    expect(logs.join("\n")).not.toContain(KEY);
    const state = (await control("GET", "state")).body;
    expect(Object.keys(state.collections.lbpools)).toContain(POOL);
  });
});

describe("persistence", () => {
  test("with a state file, a restarted emulator continues where it stopped, including running tasks", async () => {
    await emu.close();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cims-emu-state-"));
    const stateFile = path.join(dir, "state.json");
    try {
      emu = await startEmulator({ apiKey: KEY, seed: SEED, stateFile, taskDurationMs: 400 });
      const id = await createSubnet();
      await call("PUT", "/cloud/v2/client_quotas/1/notification_threshold", { threshold: 91 });
      const pending = (await call("DELETE", `/cloud/v1/subnets/1/1/${id}`)).body.tasks[0];
      await emu.close();

      emu = await startEmulator({ apiKey: KEY, seed: {}, stateFile, taskDurationMs: 400 });
      expect((await call("GET", "/cloud/v2/client_quotas/1/notification_threshold")).body.threshold).toBe(91);
      expect((await waitTask(pending)).state).toBe("FINISHED");
      expect((await call("GET", `/cloud/v1/subnets/1/1/${id}`)).status).toBe(404);
      expect(fs.readFileSync(stateFile, "utf8")).toContain("9223372036854775807");
      expect(fs.readdirSync(dir)).toEqual(["state.json"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe("a state file the emulator cannot continue from", () => {
    let dir: string;
    let stateFile: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "cims-emu-state-"));
      stateFile = path.join(dir, "state.json");
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    /** Why an emulator on this state file did not start ("started" when it did; it is closed then). */
    const startRefusal = (file: string): Promise<string> =>
      startEmulator({ apiKey: KEY, seed: SEED, stateFile: file }).then(
        async (started) => {
          await started.close();
          return "started";
        },
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );

    test.each([
      // Loaded as it was, this one answered every request for the subnet 404 (its project_id is a string).
      [
        "a record with a wrong field",
        { collections: { subnets: { s1: { id: "s1", project_id: "1", region_id: 1 } } }, tasks: {} },
        "is not this emulator's state: collections.subnets.s1.project_id must be an integer",
      ],
      ["no collections", { records: {}, tasks: {} }, `collections is missing (expected object); has unknown field "records"`],
      ["a task without its bookkeeping", { collections: {}, tasks: { t1: { id: "t1", state: "RUNNING" } } }, "tasks.t1.task_type"],
    ])("a state file with %s is refused at start, naming the file, the field and what to do", async (_what, state, problem) => {
      fs.writeFileSync(stateFile, JSON.stringify(state));
      const refusal = await startRefusal(stateFile);
      expect(refusal).toContain(`state file ${stateFile} `);
      expect(refusal).toContain(problem);
      expect(refusal).toContain("Delete it (or pass another --state-file) to start from the seed");
      expect(JSON.parse(fs.readFileSync(stateFile, "utf8"))).toEqual(state); // refused, not overwritten
    });

    test("a state file that is no JSON (cut short) is refused at start, naming the file", async () => {
      fs.writeFileSync(stateFile, '{"collections": {"subnets": {');
      expect(await startRefusal(stateFile)).toMatch(
        new RegExp(`^state file ${stateFile.replace(/[.\\/]/g, "\\$&")} is not valid JSON: .+\\. Delete it`),
      );
    });
  });
});

describe("pool members one by one", () => {
  const MEMBERS = `/cloud/v1/loadbalancers/1/1/pools/${POOL}/members`;

  test("create, read, update and delete through tasks; the member lives in its pool, so its subnet is held until it goes", async () => {
    const subnet = await createSubnet({ cidr: "10.77.0.0/24" });
    const made = await call("POST", MEMBERS, { address: "10.77.0.5", protocol_port: 80, subnet_id: subnet, monitor_port: 9000 });
    expect(made.status).toBe(200);
    const task = await waitTask(made.body.tasks[0]);
    expect(task).toMatchObject({ state: "FINISHED", task_type: "create_lbmember" });
    const [id] = task.created_resources.members;
    const member = (await call("GET", `${MEMBERS}/${id}`)).body;
    expect(member).toEqual({
      id,
      address: "10.77.0.5",
      protocol_port: 80,
      subnet_id: subnet,
      weight: 1,
      admin_state_up: true,
      backup: false,
      monitor_address: null,
      monitor_port: 9000,
      operating_status: "NO_MONITOR",
      provisioning_status: "ACTIVE",
    });
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.members.map((m: { id: string }) => m.id)).toContain(id);
    expect((await call("GET", MEMBERS)).body.results.map((m: { id: string }) => m.id)).toContain(id);
    expect((await call("DELETE", `/cloud/v1/subnets/1/1/${subnet}`)).status).toBe(409);

    const changed = await call("PATCH", `${MEMBERS}/${id}`, { weight: 4, monitor_port: null });
    expect((await waitTask(changed.body.tasks[0])).task_type).toBe("update_lbmember");
    expect((await call("GET", `${MEMBERS}/${id}`)).body).toMatchObject({ id, weight: 4, monitor_port: null });
    expect((await call("PATCH", `${MEMBERS}/${id}`, { weight: 4 })).body).toEqual({ tasks: [] });

    const gone = await call("DELETE", `${MEMBERS}/${id}`);
    expect((await waitTask(gone.body.tasks[0])).task_type).toBe("delete_lbmember");
    expect((await call("GET", `${MEMBERS}/${id}`)).status).toBe(404);
    expect((await waitTask((await call("DELETE", `/cloud/v1/subnets/1/1/${subnet}`)).body.tasks[0])).state).toBe("FINISHED");
  });

  test.each<[string, Record<string, unknown>, RegExp | string]>([
    ["address, on an update", { address: "10.0.0.99" }, "address"],
    ["an unknown field", { weigth: 2 }, "weigth"],
    ["weight 0", { weight: 0 }, "weight"],
  ])("PATCH refuses %s (400, naming the field)", async (_what, body, field) => {
    const res = await call("PATCH", `${MEMBERS}/${KEPT_MEMBER}`, body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.invalid_fields)).toEqual([field]);
  });

  test("POST refuses a member at an address and port the pool has (409, naming it) and an unknown subnet (404); neither subnet nor instance is the load balancer's own subnet", async () => {
    const subnet = await createSubnet({ cidr: "10.78.0.0/24" });
    const taken = await call("POST", MEMBERS, { address: "10.0.0.10", protocol_port: 8080, subnet_id: subnet });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain(`a member at 10.0.0.10:8080 already (${KEPT_MEMBER})`);
    const unknown = await call("POST", MEMBERS, {
      address: "10.78.0.9",
      protocol_port: 80,
      subnet_id: "6f1e8a01-4a5f-4d1b-9a57-3c2f0b7d9c9e",
    });
    expect(unknown.status).toBe(404);
    const neither = await call("POST", MEMBERS, { address: "10.78.0.9", protocol_port: 80 });
    await waitTask(neither.body.tasks[0]);
    const made = (await call("GET", MEMBERS)).body.results.find((m: { address: string }) => m.address === "10.78.0.9");
    expect(made).toMatchObject({ protocol_port: 80, subnet_id: null });
    await waitTask((await call("DELETE", `${MEMBERS}/${String(made.id)}`)).body.tasks[0]);
    await waitTask((await call("DELETE", `/cloud/v1/subnets/1/1/${subnet}`)).body.tasks[0]);
  });

  test("POST by instance: an instance of the pool's scope (from the seed) is taken, any other is 404", async () => {
    const INSTANCE = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d";
    const OTHER_SCOPE = "7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f";
    const seeded = await call("POST", "/__emulator/seed", {
      instances: [
        { id: INSTANCE, name: "web-1", project_id: 1, region_id: 1 },
        { id: OTHER_SCOPE, name: "web-2", project_id: 2, region_id: 1 },
      ],
    });
    expect(seeded.status).toBe(204);
    for (const id of ["6f1e8a01-4a5f-4d1b-9a57-3c2f0b7d9c9e", OTHER_SCOPE]) {
      const unknown = await call("POST", MEMBERS, { address: "10.79.0.9", protocol_port: 80, instance_id: id });
      expect({ status: unknown.status, message: unknown.body.message }).toEqual({ status: 404, message: expect.stringContaining(id) });
    }
    const made = await call("POST", MEMBERS, { address: "10.79.0.9", protocol_port: 80, instance_id: INSTANCE });
    expect(made.status).toBe(200);
    const [id] = (await waitTask(made.body.tasks[0])).created_resources.members;
    expect((await call("GET", `${MEMBERS}/${id}`)).body).toMatchObject({ id, address: "10.79.0.9", subnet_id: null });
  });
});

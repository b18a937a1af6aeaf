// Smaller truths about failures that need no engine: date-times with an hour-only offset, list
// paging by `count` when the service caps its pages, a kind the installed package does not
// know, and quota members the contract does not know (never a difference, never erased).
import { canonicalDateTime } from "../../../../api/canonical";
import { QuotaThreshold } from "../../../../api/contract/quota-threshold";
import { CimsClient } from "../../../../provider/client/http";
import { listAll } from "../../../../provider/client/list";
import { closeAllPools } from "../../../../provider/client/transport";
import { quotaThresholdMethods } from "../../../../provider/kinds/quota-threshold";
import { keepUnknownMembers, knownMembersOnly } from "../../../../api/wire";
import { install } from "../../../../provider/resources/install";
import { KIND_NAMES } from "../../../../provider/kinds/registry";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { configureProvider, UNIT_TEST_KEY } from "../../../support/provider-config";
import { startTestServer, type TestServer } from "../../../support/test-server";

let server: TestServer | undefined;
let emu: RunningEmulator | undefined;
afterEach(async () => {
  await closeAllPools();
  await server?.close();
  await emu?.close();
  server = undefined;
  emu = undefined;
});

test("a date-time with an offset of hours only (+02), or without a colon (+0200), is the instant it names", () => {
  expect(canonicalDateTime("2026-05-23T07:07:31+02")).toBe("2026-05-23T05:07:31");
  expect(canonicalDateTime("2026-05-23T07:07:31+0200")).toBe("2026-05-23T05:07:31");
  expect(canonicalDateTime("2026-05-23T03:07:31-02")).toBe("2026-05-23T05:07:31");
  expect(canonicalDateTime("2026-05-23T05:07:31")).toBe("2026-05-23T05:07:31");
});

test("listAll reads by count: a service answering 2 records a page (of the 1000 asked) still gives all 5", async () => {
  const all = [1, 2, 3, 4, 5].map((n) => ({ id: `r${n}` }));
  server = await startTestServer((req) => {
    const offset = Number(new URL(req.url, "http://x").searchParams.get("offset"));
    return { body: { count: all.length, results: all.slice(offset, offset + 2) } };
  });
  const client = new CimsClient({
    apiUrl: new URL(server.url),
    apiKey: "unit-test-key-0123456789",
    maxRetries: 0,
    connectTimeoutMs: 1_000,
    requestTimeoutMs: 2_000,
    taskPath: "/cloud/v1/tasks/{task_id}",
  });
  expect((await listAll(client, "/cloud/v1/subnets/1/1")).map((r) => r.id)).toEqual(["r1", "r2", "r3", "r4", "r5"]);
  expect(server.requests.map((r) => new URL(r.url, "http://x").searchParams.get("offset"))).toEqual(["0", "2", "4"]);
});

test("the emulator's page cap: --page-size-max answers at most that many records a page, whatever limit asks", async () => {
  emu = await startEmulator({ apiKey: "k", seed: "examples/emulator-seed.json", pageSizeMax: 1 });
  const res = await fetch(`${emu.url}/cloud/v1/lbpools/1/1?limit=1000`, { headers: { authorization: "apikey k" } });
  const page = (await res.json()) as { count: number; results: unknown[] };
  expect(page.results).toHaveLength(1);
  expect(page.count).toBeGreaterThanOrEqual(1);
});

test("a kind the installed package does not know: the error names the version, the kinds it knows, and what to do", async () => {
  const req = { config: { get: () => undefined } } as unknown as Parameters<typeof install>[2];
  const err = await install({}, "Gateway", req).catch((e: unknown) => e as Error);
  expect(err?.message).toMatch(
    /holds a resource of kind "Gateway", which pulumi-cims \d+\.\d+\.\d+ \(installed next to the program\) does not know/,
  );
  expect(err?.message).toContain(`Kinds it knows: ${[...KIND_NAMES, "Echo"].join(", ")}.`);
  expect(err?.message).not.toContain("older than");
  // Echo, which old stacks name through this door, is served.
  const target: Record<string, unknown> = {};
  await install(target, "Echo", req);
  expect(typeof target.create).toBe("function");
});

describe("quota members the contract does not know", () => {
  const type = QuotaThreshold.fields.lastMessage.type;
  const held = {
    global_quotas: { keypair_count_limit: { limit: 100n, usage: 12n }, gpu_b300_count_limit: { limit: 8n, usage: 2n } },
    regional_quotas: [
      { region_id: 1, region_name: "Luxembourg", subnet_count_limit: { limit: 100n, usage: 2n }, new_2x_limit: { limit: 1n, usage: 0n } },
    ],
  };

  test("are no difference from a program, which cannot name them", () => {
    const state = { globalQuotas: { keypairCountLimit: { limit: "100", usage: "12" }, gpu_b300_count_limit: { limit: "8", usage: "2" } } };
    expect(knownMembersOnly(state, type)).toEqual({ globalQuotas: { keypairCountLimit: { limit: "100", usage: "12" } } });
  });

  test("are carried back verbatim into a message we send: wire names and exact numbers", () => {
    const sent = {
      global_quotas: { keypair_count_limit: { limit: 200n, usage: 12n } },
      regional_quotas: [{ region_id: 1, region_name: "Luxembourg", subnet_count_limit: { limit: 50n, usage: 2n } }],
    };
    expect(keepUnknownMembers(sent, held, type)).toEqual({
      global_quotas: { keypair_count_limit: { limit: 200n, usage: 12n }, gpu_b300_count_limit: { limit: 8n, usage: 2n } },
      regional_quotas: [
        { region_id: 1, region_name: "Luxembourg", subnet_count_limit: { limit: 50n, usage: 2n }, new_2x_limit: { limit: 1n, usage: 0n } },
      ],
    });
  });

  test("a QuotaThreshold that manages lastMessage adopts and updates a setting holding one, and erases nothing", async () => {
    emu = await startEmulator({
      apiKey: UNIT_TEST_KEY,
      seed: { client_quotas: [{ client_id: 7, threshold: 80, last_message: held, last_sending: null }] },
    });
    configureProvider(emu.url);
    const lastMessage = { globalQuotas: { keypairCountLimit: { limit: "100", usage: "12" } }, regionalQuotas: [] };
    const inputs = (await quotaThresholdMethods.check({}, { clientId: 7, threshold: 80, lastMessage })).inputs;
    const created = await quotaThresholdMethods.create(inputs);
    // The regional quotas differ (the program gives none): one PUT, which keeps the unknown global member.
    const stored = emu.store.get("client_quotas", 7) as { last_message: { global_quotas: Record<string, { limit: unknown }> } };
    expect(String(stored.last_message.global_quotas.gpu_b300_count_limit.limit)).toBe("8");
    expect(created.outs.lastMessage).toMatchObject({ globalQuotas: { gpu_b300_count_limit: { limit: "8", usage: "2" } } });
    // The state holds it; the program does not: no diff.
    expect((await quotaThresholdMethods.diff("7", created.outs, inputs)).changes).toBe(false);
    const updated = await quotaThresholdMethods.update("7", created.outs, { ...inputs, threshold: 90 });
    expect(updated.outs?.threshold).toBe(90);
    expect(String((emu.store.get("client_quotas", 7) as typeof stored).last_message.global_quotas.gpu_b300_count_limit.limit)).toBe("8");
  });
});

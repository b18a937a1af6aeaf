// A 2xx answer of the wrong shape fails at the call that got it, as an InvalidResponseError
// naming the call (method and path template, never the key) and what was wrong: a subnet
// read answered `[]`, `"x"` or `{}` writes nothing into state; a task poll, a page and an
// operation's task ids are checked the same way. Checking keeps the answer as parsed: a
// quota beyond 2^53 stays exact.
import { CimsClient, closeAllPools, InvalidResponseError, listAll } from "../../../../provider/client";
import { processClock } from "../../../../provider/client/clock";
import { quotaThresholdMethods } from "../../../../provider/kinds/quota-threshold";
import { Subnet } from "../../../../provider/kinds/subnet";
import { configureForScripted } from "../../../support/provider-config";
import { type Reply, startTestServer, type TestServer } from "../../../support/test-server";

const KEY = "sk-answers-5d1e7c2b-secret";
const NET = "8f2e7c1a-3b4d-4e5f-9a6b-7c8d9e0f1a2b";
const SUBNET = "2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d";
const SUBNET_PATH = "GET /cloud/v1/subnets/{project_id}/{region_id}/{subnet_id}";
const props = { name: "app", cidr: "10.9.0.0/24", networkId: NET, projectId: 1, regionId: 1 };

let server: TestServer | undefined;
afterEach(async () => {
  await closeAllPools();
  await server?.close();
  server = undefined;
});

/** A service answering every request with `reply` (a body written verbatim when a string). */
async function serving(reply: (method: string, url: string) => Reply): Promise<TestServer> {
  server = await startTestServer((req) => reply(req.method, req.url));
  return server;
}

function clientOf(s: TestServer): CimsClient {
  return new CimsClient({
    apiUrl: new URL(s.url),
    apiKey: KEY,
    maxRetries: 0,
    connectTimeoutMs: 1_000,
    requestTimeoutMs: 2_000,
    taskPath: "/cloud/v1/tasks/{task_id}",
  });
}

/** The provider's methods pointed at `s` (no credentials probe, no coalesced list: one GET per read). */
function providerAt(s: TestServer): void {
  configureForScripted(s.url, { "cims:apiKey": KEY, "cims:coalesceReads": "false" });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (err: unknown) => ({ err }),
  );
  if (!("err" in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.err).toBeInstanceOf(Error);
  return outcome.err instanceof Error ? outcome.err : new Error(String(outcome.err));
}

describe("a subnet read answered with something that is no record fails, and nothing reaches state", () => {
  test.each([
    ["[]", `${SUBNET_PATH} answered a JSON array where a record was expected`],
    ['"x"', `${SUBNET_PATH} answered a JSON string where a record was expected`],
    ["{}", `${SUBNET_PATH} answered a record without \`id\` (a string or an integer expected)`],
    [
      '{"id": 7.5, "name": "app"}',
      `${SUBNET_PATH} answered a record whose \`id\` is a JSON number where a string or an integer was expected`,
    ],
  ])("refresh answered %s", async (body, message) => {
    providerAt(await serving(() => ({ body })));
    const err = await failure(Subnet.methods.read(SUBNET, props));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toContain(message);
    expect(err.message).not.toContain(KEY);
  });

  test("an update whose PATCH answers `[]` fails the update (no outputs to record)", async () => {
    const s = await serving((method) => (method === "PATCH" ? { body: "[]" } : { body: { id: SUBNET, ...wire, name: "old" } }));
    providerAt(s);
    const err = await failure(Subnet.methods.update(SUBNET, { ...props, name: "old" }, props));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toContain(
      "PATCH /cloud/v1/subnets/{project_id}/{region_id}/{subnet_id} answered a JSON array where a record was expected",
    );
  });
});

const wire = {
  name: "app",
  cidr: "10.9.0.0/24",
  network_id: NET,
  ip_version: 4,
  enable_dhcp: true,
  dns_nameservers: [],
  host_routes: [],
  tags: [],
};

describe("a task poll answered with something that is no task fails at once", () => {
  test.each([
    ['{"state": "FINISHED"}', "answered a task without `id` (a string expected)"],
    [
      '{"id": "t1", "state": "FINISHED", "created_resources": ["s1"]}',
      "answered a task whose `created_resources` is a JSON array where a JSON object or null was expected",
    ],
    ['{"id": "t1", "state": 3}', "answered a task whose `state` is a JSON number where a string was expected"],
    ["[]", "answered a JSON array where a task was expected"],
  ])("%s", async (body, what) => {
    const s = await serving(() => ({ body }));
    const err = await failure(
      clientOf(s).waitForTasks(["t1"], { deadline: processClock.now() + 5_000, timeoutSeconds: 5, firstPollMs: 1 }),
    );
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toContain(`GET /cloud/v1/tasks/{task_id} ${what}`);
    expect(s.requests).toHaveLength(1);
  });
});

describe("pages and task ids are checked", () => {
  test("a page without `results` names the list call", async () => {
    const s = await serving(() => ({ body: { count: 3 } }));
    const err = await failure(listAll(clientOf(s), "/cloud/v1/subnets/1/1"));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toContain(
      "GET /cloud/v1/subnets/{project_id}/{region_id} answered a page without `results` (a JSON array of records expected)",
    );
  });

  test("a call of any resource is named by its template, whatever resource it is (the registry's paths)", async () => {
    const s = await serving(() => ({ body: { count: 3 } }));
    const pool = "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
    const err = await failure(listAll(clientOf(s), `/cloud/v1/loadbalancers/1/1/pools/${pool}/members`));
    expect(err.message).toContain(
      "GET /cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members answered a page without `results`",
    );
  });

  test("a page whose results are not records fails rather than listing them", async () => {
    const s = await serving(() => ({ body: { count: 1, results: [["s1"]] } }));
    const err = await failure(listAll(clientOf(s), "/cloud/v1/subnets/1/1"));
    expect(err.message).toContain("answered a page whose `results[0]` is a JSON array where a record was expected");
  });

  test("an operation's answer without task ids is no empty list of tasks", async () => {
    const s = await serving(() => ({ body: { tasks: [42] } }));
    const err = await failure(clientOf(s).taskIds("POST", "/cloud/v1/subnets/1/1", { body: {} }));
    expect(err.message).toContain(
      "POST /cloud/v1/subnets/{project_id}/{region_id} answered a task list ({tasks: [...]}) whose `tasks[0]` is a JSON number where a string was expected",
    );
  });

  test("an operation's answer without `tasks` fails rather than waiting for no task", async () => {
    const s = await serving(() => ({ body: {} }));
    const err = await failure(clientOf(s).taskIds("DELETE", "/cloud/v1/subnets/1/1/s1"));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toContain(
      "DELETE /cloud/v1/subnets/{project_id}/{region_id}/{subnet_id} answered a task list ({tasks: [...]}) without `tasks`",
    );
  });

  test("a quota setting is identified by its client_id, and its numbers stay exact", async () => {
    const s = await serving(() => ({ body: '{"client_id": 5, "threshold": 80, "last_message": {"limit": 9223372036854775807}}' }));
    const record = await clientOf(s).record("GET", "/cloud/v2/client_quotas/5/notification_threshold", {}, "client_id");
    expect(record).toEqual({ client_id: 5, threshold: 80, last_message: { limit: 9223372036854775807n } });
    const err = await failure(clientOf(s).record("GET", "/cloud/v2/client_quotas/5/notification_threshold"));
    expect(err.message).toContain("GET /cloud/v2/client_quotas/{client_id}/notification_threshold answered a record without `id`");
  });
});

describe("a quota setting, which has no `id`, is read by its client_id", () => {
  const setting = { client_id: 5, threshold: 80, last_message: { global_quotas: {}, regional_quotas: [] }, last_sending: null };

  test("refresh reads the setting", async () => {
    providerAt(await serving(() => ({ body: setting })));
    const result = await quotaThresholdMethods.read("5", { clientId: 5, threshold: 70 });
    expect(result.props).toMatchObject({ clientId: 5, threshold: 80 });
  });

  test("refresh answered `{}` fails naming the call", async () => {
    providerAt(await serving(() => ({ body: {} })));
    const err = await failure(quotaThresholdMethods.read("5", { clientId: 5, threshold: 70 }));
    expect(err.message).toContain(
      "GET /cloud/v2/client_quotas/{client_id}/notification_threshold answered a record without `client_id` (a string or an integer expected)",
    );
  });
});

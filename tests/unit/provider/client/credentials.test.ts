// The credential probe: one cheap authenticated read before a run's first call, and what its
// failure says to fix (the key, the URL or the project), against a scripted loopback server;
// once per process and configuration, shared by concurrent callers; after check()'s rules.
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { closeAllPools, CredentialsCheckError } from "../../../../provider/client";
import { probeRequest, proveCredentials } from "../../../../provider/client/credentials";
import { resolveSettings } from "../../../../provider/config";
import { apiClient, setConfig, verifyCredentials } from "../../../../provider/methods/context";
import { kind } from "../../../../provider/kinds/registry";
import { closedPort, type Reply, startTestServer, type TestServer } from "../../../support/test-server";
import { onVirtualTime } from "../../../support/virtual-clock";

const KEY = "unit-probe-key-8f3a1c";
const PROJECT = { id: 5, client_id: 1, name: "p", description: null, is_default: true, state: "ACTIVE", created_at: "2026-05-01T08:00:00" };
const serviceError = (status: number, exceptionClass: string, message: string): Reply => ({
  status,
  body: { exception_class: exceptionClass, message, request_id: "r-1" },
});

let server: TestServer | undefined;
afterEach(async () => {
  await closeAllPools();
  await server?.close();
  server = undefined;
});

const options = (url: string, projectId?: number) => ({
  apiUrl: new URL(url),
  apiKey: KEY,
  projectId,
  maxRetries: 5,
  connectTimeoutMs: 5_000,
  requestTimeoutMs: 120_000,
  taskPath: "/cloud/v1/tasks/{task_id}",
});

/** The probe's failure against a server answering `reply` to everything. */
async function failureFor(reply: Reply, projectId: number | undefined = 5): Promise<CredentialsCheckError> {
  server = await startTestServer(() => reply);
  const err: unknown = await proveCredentials(options(server.url, projectId)).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof CredentialsCheckError)) throw new Error(`expected a CredentialsCheckError, got ${String(err)}`);
  expect(err.message).not.toContain(KEY);
  return err;
}

describe("what the probe reads", () => {
  test("the configured project's record, else one record of the key's projects", () => {
    expect(probeRequest(5)).toEqual({ path: "/cloud/v1/projects/5" });
    expect(probeRequest(undefined)).toEqual({ path: "/cloud/v1/projects", query: { limit: 1 } });
  });

  test("a project record (or a page of them) proves the key: one authenticated GET", async () => {
    server = await startTestServer((req) => ({
      body: req.url.startsWith("/cloud/v1/projects?") ? { count: 3, results: [PROJECT] } : PROJECT,
    }));
    await proveCredentials(options(server.url, 5));
    await proveCredentials(options(server.url));
    expect(server.requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ["GET", "/cloud/v1/projects/5", `apikey ${KEY}`],
      ["GET", "/cloud/v1/projects?limit=1", `apikey ${KEY}`],
    ]);
  });
});

describe("what a failed probe says to fix", () => {
  test.each([
    ["401 AuthenticationFailed (a wrong key)", serviceError(401, "AuthenticationFailed", "Authentication credentials were not provided.")],
    ["401 NotAuthenticated (no key)", serviceError(401, "NotAuthenticated", "Authentication credentials were not provided.")],
    ["403 PermissionDenied", serviceError(403, "PermissionDenied", "You do not have permission to perform this action.")],
  ])("%s: cims:apiKey and CIMS_API_KEY, with the URL and the service's words, once (not retried)", async (_what, reply) => {
    const err = await failureFor(reply);
    expect(err.setting).toBe("apiKey");
    expect(err.message).toMatch(/^cims:apiKey was refused by the CIMS API at http:\/\/127\.0\.0\.1:\d+\/ /);
    expect(err.message).toContain("CIMS_API_KEY");
    expect(err.message).toContain(String((reply.body as { message: string }).message));
    expect(server!.requests).toHaveLength(1);
  });

  test("a body that echoes the key never shows it", async () => {
    const err = await failureFor({ status: 401, body: { exception_class: "AuthenticationFailed", message: `bad key ${KEY}` } });
    expect(err.message).toContain("bad key [redacted]");
  });

  test("404 NotFoundError for the project: cims:projectId names no project the key can see", async () => {
    const err = await failureFor(serviceError(404, "NotFoundError", "Project 5 not found."));
    expect(err.setting).toBe("projectId");
    expect(err.message).toMatch(/^cims:projectId 5 names no project the key can see at http:\/\/127\.0\.0\.1:\d+\/ /);
    expect(err.message).toContain("CIMS_PROJECT_ID");
  });

  test.each<[string, Reply, number | undefined]>([
    ["a 404 HTML page", { status: 404, headers: { "content-type": "text/html" }, body: "<html><h1>Not Found</h1></html>" }, 5],
    ["a 404 JSON that is not the service's error", { status: 404, body: { detail: "Not Found" } }, 5],
    ["a 200 HTML page", { status: 200, headers: { "content-type": "text/html" }, body: "<!doctype html><p>welcome</p>" }, 5],
    ["a 200 JSON that is not a project", { status: 200, body: { status: "ok" } }, 5],
    ["a 200 project of another id", { status: 200, body: { ...PROJECT, id: 6 } }, 5],
    ["a 200 JSON that is not a page of projects", { status: 200, body: [{ id: 1 }] }, undefined],
    ["a 405 JSON error of another API", serviceError(405, "MethodNotAllowed", "no"), 5],
  ])("%s: cims:apiUrl is not a CIMS API, after one request", async (_what, reply, projectId) => {
    const err = await failureFor(reply, projectId);
    expect(server!.requests).toHaveLength(1);
    expect(err.setting).toBe("apiUrl");
    expect(err.message).toMatch(/^cims:apiUrl http:\/\/127\.0\.0\.1:\d+\/ does not answer as a CIMS API \(/);
    expect(err.message).toContain("CIMS_API_URL");
  });

  test("503 from the service, after the probe's own few retries: names the URL and says to try again", async () => {
    const err = await failureFor(serviceError(503, "ServiceUnavailable", "down for maintenance"));
    expect(err.setting).toBe("apiUrl");
    expect(err.message).toContain("cims:apiUrl");
    expect(err.message).toContain("down for maintenance");
    expect(server!.requests).toHaveLength(3);
  });

  test("a closed port: cims:apiUrl could not be reached, within seconds (not the 17 s of a call's retries)", async () => {
    const port = await closedPort();
    // The probe's pauses between its attempts, on the test's clock: a refused connection costs none.
    const { err, waited } = await onVirtualTime(async (clock) => {
      const started = clock.now();
      const err: unknown = await proveCredentials(options(`http://127.0.0.1:${port}`, 5)).catch((e: unknown) => e);
      return { err, waited: clock.now() - started };
    });
    expect(waited).toBeLessThan(5_000);
    expect(err).toBeInstanceOf(CredentialsCheckError);
    expect((err as CredentialsCheckError).setting).toBe("apiUrl");
    expect((err as CredentialsCheckError).message).toMatch(
      new RegExp(`^cims:apiUrl http://127\\.0\\.0\\.1:${port}/ could not be reached \\(.*ECONNREFUSED.*CIMS_API_URL`),
    );
  });

  // A port that another program holds, speaking another protocol: a Pulumi plugin's gRPC
  // server (HTTP/2 only) answers an HTTP/1.1 request with bytes no HTTP/1.1 parser reads.
  test("a server that does not speak HTTP/1.1 (an HTTP/2-only gRPC port): cims:apiUrl does not answer as a CIMS API", async () => {
    const h2 = http2.createServer();
    h2.on("stream", (stream) => stream.respond({ ":status": 200 }));
    await new Promise<void>((resolve) => h2.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(h2.address() as AddressInfo).port}`;
    try {
      const err: unknown = await proveCredentials(options(url, 5)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CredentialsCheckError);
      expect((err as CredentialsCheckError).setting).toBe("apiUrl");
      expect((err as CredentialsCheckError).message).toMatch(
        new RegExp(`^cims:apiUrl ${url}/ does not answer as a CIMS API \\(GET /cloud/v1/projects/5: .*HTTP/1\\.1.*CIMS_API_URL`),
      );
    } finally {
      await new Promise((resolve) => h2.close(resolve));
    }
  });

  test("a server that never answers: cims:apiUrl, well within 30 s", async () => {
    server = await startTestServer(() => ({ delayMs: 60_000 }));
    const started = Date.now();
    const err: unknown = await proveCredentials(options(server.url, 5)).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect((err as CredentialsCheckError).setting).toBe("apiUrl");
    expect((err as CredentialsCheckError).message).toContain("could not be reached");
  }, 30_000);
});

describe("once per process and configuration, after check()'s rules", () => {
  const config =
    (extra: Record<string, string> = {}) =>
    (key: string) =>
      ({ "cims:apiUrl": server?.url, "cims:apiKey": KEY, "cims:projectId": "5", "cims:regionId": "1", ...extra })[key];
  const probes = () => server!.requests.filter((r) => r.url.startsWith("/cloud/v1/projects")).length;

  test("concurrent first calls and checks share one probe; the same config configured again (another kind) probes no more", async () => {
    server = await startTestServer((req) =>
      req.url.startsWith("/cloud/v1/projects") ? { body: PROJECT, delayMs: 50 } : { body: { ok: 1 } },
    );
    setConfig(config());
    await Promise.all([verifyCredentials(), verifyCredentials(), apiClient().request("GET", "/x"), apiClient().request("GET", "/y")]);
    setConfig(config());
    await apiClient().request("GET", "/z");
    await verifyCredentials();
    expect(server.requests.map((r) => r.url)).toEqual(["/cloud/v1/projects/5", "/x", "/y", "/z"]);
  });

  test("a refused key fails every call after it with the probe's error, and is not asked again", async () => {
    server = await startTestServer(() => serviceError(401, "AuthenticationFailed", "Authentication credentials were not provided."));
    setConfig(config({ "cims:apiKey": "another-key-for-this-test" }));
    await expect(apiClient().request("GET", "/x")).rejects.toThrow(/^cims:apiKey was refused/);
    await expect(verifyCredentials()).rejects.toThrow(/^cims:apiKey was refused/);
    expect(server.requests.map((r) => r.url)).toEqual(["/cloud/v1/projects/5"]);
  });

  test("refresh's read() and destroy's delete() fail with the probe's error too, not as a resource that is gone", async () => {
    server = await startTestServer(() => serviceError(401, "AuthenticationFailed", "Authentication credentials were not provided."));
    setConfig(config({ "cims:apiKey": "a-key-for-read-and-delete" }));
    const { methods } = kind("Subnet");
    const props = { projectId: 5, regionId: 1, name: "s", cidr: "10.0.0.0/24", networkId: "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01" };
    const id = "3acf2d5d-a5df-40eb-b735-a0be90f1ff9d";
    await expect(methods.read(id, props)).rejects.toThrow(/cims:apiKey was refused/);
    await expect(methods.delete(id, props)).rejects.toThrow(/cims:apiKey was refused/);
    expect(server.requests.map((r) => r.url)).toEqual(["/cloud/v1/projects/5"]);
  });

  test("cims:skipCredentialsValidation=true: no probe, calls go straight out", async () => {
    server = await startTestServer(() => ({ body: { ok: 1 } }));
    setConfig(config({ "cims:apiKey": "a-key-never-probed", "cims:skipCredentialsValidation": "true" }));
    await verifyCredentials();
    await apiClient().request("GET", "/x");
    expect(server.requests.map((r) => r.url)).toEqual(["/x"]);
  });

  test("check(): inputs that fail their rules fail with them and send nothing; valid inputs are proven by the probe", async () => {
    server = await startTestServer(() => serviceError(401, "AuthenticationFailed", "Authentication credentials were not provided."));
    setConfig(config({ "cims:apiKey": "a-key-for-the-check-test" }));
    const { methods } = kind("QuotaThreshold");
    const bad = await methods.check({}, { clientId: 1, threshold: 500 });
    expect(bad.failures).toEqual([expect.objectContaining({ property: "threshold" })]);
    expect(server.requests).toHaveLength(0);
    await expect(methods.check({}, { clientId: 1, threshold: 80 })).rejects.toThrow(/^cims:apiKey was refused/);
    expect(probes()).toBe(1);
  });
});

describe("cims:skipCredentialsValidation", () => {
  const get = (values: Record<string, string>) => (key: string) => values[key];
  test("false unless set; CIMS_SKIP_CREDENTIALS_VALIDATION is its fallback; anything but true/false is refused", () => {
    const base = { apiKey: "k", apiUrl: "http://127.0.0.1:9" };
    expect(resolveSettings(get(base), {}).skipCredentialsValidation).toBe(false);
    expect(resolveSettings(get({ ...base, skipCredentialsValidation: "true" }), {}).skipCredentialsValidation).toBe(true);
    expect(resolveSettings(get(base), { CIMS_SKIP_CREDENTIALS_VALIDATION: "true" }).skipCredentialsValidation).toBe(true);
    expect(() => resolveSettings(get({ ...base, skipCredentialsValidation: "yes" }), {})).toThrow(
      /cims:skipCredentialsValidation must be true or false/,
    );
  });
});

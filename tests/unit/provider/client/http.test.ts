// The HTTP client against a real loopback server: auth, errors, retries, exact integers,
// path encoding, connection reuse.
import { inspect } from "node:util";
import * as http from "node:http";
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  CimsClient,
  closeAllPools,
  ConflictError,
  ConnectionError,
  InternalServerError,
  InvalidPathParameterError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
  apiPath,
  type ClientOptions,
} from "../../../../provider/client";
import { processClock } from "../../../../provider/client/clock";
import { closedPort, startTestServer, type Handler, type TestServer } from "../../../support/test-server";
import { onVirtualTime } from "../../../support/virtual-clock";

const KEY = "sk-test-7f3c9a1e-secret";

let server: TestServer | undefined;
const logs: string[] = [];

async function clientFor(handler: Handler, overrides: Partial<ClientOptions> = {}, now?: () => number): Promise<CimsClient> {
  server = await startTestServer(handler, { now });
  return new CimsClient({
    apiUrl: new URL(server.url),
    apiKey: KEY,
    maxRetries: 3,
    connectTimeoutMs: 1_000,
    requestTimeoutMs: 2_000,
    taskPath: "/cloud/v1/tasks/{task_id}",
    log: (m) => logs.push(m),
    ...overrides,
  });
}

/** A client for a port nothing listens on (yet): connections are refused. */
async function clientAtFreePort(overrides: Partial<ClientOptions> = {}): Promise<{ client: CimsClient; port: number }> {
  const port = await closedPort();
  const client = new CimsClient({
    apiUrl: new URL(`http://127.0.0.1:${port}`),
    apiKey: KEY,
    maxRetries: 0,
    connectTimeoutMs: 500,
    requestTimeoutMs: 500,
    taskPath: "/t/{task_id}",
    ...overrides,
  });
  return { client, port };
}

afterEach(async () => {
  await server?.close();
  server = undefined;
  logs.length = 0;
  await closeAllPools();
});

const POOL = "/cloud/v1/lbpools/1/1/6b1f3a2e-0c1d-4d5e-9f00-1a2b3c4d5e6f";

describe("auth and request shape", () => {
  test("every request carries exactly `Authorization: apikey <KEY>` and JSON headers", async () => {
    const client = await clientFor(() => ({ body: { tasks: ["t1"] } }));
    await client.request("PATCH", POOL, { body: { name: "web" } });
    const [req] = server!.requests;
    expect(req.headers.authorization).toBe(`apikey ${KEY}`);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["user-agent"]).toMatch(/^pulumi-cims\/\d+\.\d+\.\d+/);
    expect(req.method).toBe("PATCH");
    expect(req.url).toBe(POOL);
    expect(JSON.parse(req.body)).toEqual({ name: "web" });
  });

  test("query parameters are appended; undefined ones are left out", async () => {
    const client = await clientFor(() => ({ body: {} }));
    await client.request("GET", "/cloud/v1/lifecycle_policy/1/1/7", { query: { need_volumes: true, other: undefined } });
    expect(server!.requests[0].url).toBe("/cloud/v1/lifecycle_policy/1/1/7?need_volumes=true");
  });

  test("a base URL with a path prefix and trailing slashes joins without a double slash", async () => {
    server = await startTestServer(() => ({ body: {} }));
    const client = new CimsClient({
      apiUrl: new URL(`${server.url}/prefix//`),
      apiKey: KEY,
      maxRetries: 0,
      connectTimeoutMs: 1000,
      requestTimeoutMs: 1000,
      taskPath: "/cloud/v1/tasks/{task_id}",
    });
    await client.request("GET", "/cloud/v1/tasks/x");
    expect(server.requests[0].url).toBe("/prefix/cloud/v1/tasks/x");
  });

  test("keep-alive: sequential requests reuse connections instead of opening one each", async () => {
    const client = await clientFor(() => ({ body: {} }));
    for (let i = 0; i < 10; i++) await client.request("GET", "/cloud/v1/tasks/x");
    expect(server!.requests).toHaveLength(10);
    // undici's Pool may open a second socket when the next request is dispatched in the
    // same tick the first socket frees up; without keep-alive this would be 10.
    expect(server!.connections()).toBeLessThanOrEqual(2);
  });
});

describe("path parameters", () => {
  test("a slash in an id is encoded and cannot leave its segment", () => {
    expect(apiPath("/cloud/v1/subnets/{project_id}/{region_id}/{id}", { project_id: 1, region_id: 2, id: "a/../b" })).toBe(
      "/cloud/v1/subnets/1/2/a%2F..%2Fb",
    );
  });

  test.each(["", ".", ".."])("the id %j is refused", (id) => {
    expect(() => apiPath("/cloud/v1/images/{id}", { id })).toThrow(InvalidPathParameterError);
  });

  test("a missing parameter is refused", () => {
    expect(() => apiPath("/cloud/v1/images/{id}", {})).toThrow("needs a value for {id}");
  });
});

describe("errors", () => {
  const cases: Array<[number, new (...args: never[]) => ApiError, string]> = [
    [400, BadRequestError, "ValidationError"],
    [401, AuthenticationError, "AuthenticationError"],
    [403, PermissionDeniedError, "PermissionDenied"],
    [404, NotFoundError, "NotFoundError"],
    [409, ConflictError, "ConflictError"],
    [429, RateLimitError, "TooManyRequests"],
    [500, InternalServerError, "InternalServerError"],
    [502, InternalServerError, "BadGateway"],
  ];

  test.each(cases)("%i becomes %p with status, method, path, class and request id", async (status, Class, exceptionClass) => {
    const client = await clientFor(
      () => ({
        status,
        body: { exception_class: exceptionClass, message: "server says no", request_id: "req-42" },
      }),
      { maxRetries: 0 },
    );
    const err = await client.request("DELETE", POOL, { deadline: processClock.now() + 500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Class);
    expect(err).toBeInstanceOf(ApiError);
    const apiErr = err as ApiError;
    expect(apiErr.status).toBe(status);
    expect(apiErr.method).toBe("DELETE");
    expect(apiErr.path).toBe(POOL);
    expect(apiErr.exceptionClass).toBe(exceptionClass);
    expect(apiErr.requestId).toBe("req-42");
    expect(apiErr.message).toContain(`DELETE ${POOL}: ${status} `);
    expect(apiErr.message).toContain(`(${exceptionClass}): server says no [request_id=req-42]`);
  });

  test("the message reads like `PATCH <path>: 409 Conflict (ConflictError): <message> [request_id=...]`", async () => {
    const client = await clientFor(() => ({
      status: 409,
      body: { exception_class: "ConflictError", message: "Pool is locked by a running task", request_id: "r-1" },
    }));
    const err = (await client.request("PATCH", POOL, { deadline: processClock.now() + 300 }).catch((e: unknown) => e)) as Error;
    expect(err.message.split(" (gave up")[0]).toBe(
      `PATCH ${POOL}: 409 Conflict (ConflictError): Pool is locked by a running task [request_id=r-1]`,
    );
  });

  test("400 lists the invalid fields", async () => {
    const client = await clientFor(() => ({
      status: 400,
      body: {
        exception_class: "ValidationError",
        message: "Validation error",
        request_id: "r-2",
        invalid_fields: { cidr: ["not a valid network"], name: ["must not be empty"] },
      },
    }));
    const err = (await client.request("POST", "/cloud/v1/subnets/1/1", { body: {} }).catch((e: unknown) => e)) as BadRequestError;
    expect(err.invalidFields).toEqual({ cidr: ["not a valid network"], name: ["must not be empty"] });
    expect(err.message).toContain("invalid fields: cidr: not a valid network; name: must not be empty [request_id=r-2]");
  });

  test("a non-JSON error body still gives a useful message", async () => {
    const client = await clientFor(() => ({ status: 502, body: "<html><body>Bad gateway from the proxy</body></html>" }), {
      maxRetries: 0,
    });
    const err = (await client.request("GET", "/cloud/v1/tasks/x").catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.message).toBe("GET /cloud/v1/tasks/x: 502 Bad Gateway: <html><body>Bad gateway from the proxy</body></html>");
  });

  test("a JSON error body without `message` is shown, not dropped", async () => {
    const client = await clientFor(() => ({ status: 403, body: { detail: "project 7 is suspended" } }));
    const err = (await client.request("GET", "/cloud/v1/tasks/x").catch((e: unknown) => e)) as ApiError;
    expect(err.message).toBe('GET /cloud/v1/tasks/x: 403 Forbidden: {"detail":"project 7 is suspended"}');
  });

  test("an error body that echoes the Authorization header has the key redacted", async () => {
    const client = await clientFor((req) => ({ status: 400, body: `bad request: ${String(req.headers.authorization)}` }), {
      maxRetries: 0,
    });
    const err = (await client.request("GET", "/cloud/v1/tasks/x").catch((e: unknown) => e)) as ApiError;
    expect(err.message).toBe("GET /cloud/v1/tasks/x: 400 Bad Request: bad request: apikey [redacted]");
    expect(JSON.stringify(err)).not.toContain(KEY);
  });

  test("the key is redacted from 2xx bodies we quote, and where JSON escapes its slashes", async () => {
    const echo = await clientFor((req) => ({ status: 200, body: `<html>hello ${String(req.headers.authorization)}</html>` }), {
      maxRetries: 0,
    });
    const notJson = (await echo.request("GET", "/cloud/v1/tasks/x").catch((e: unknown) => e)) as Error;
    expect(notJson.message).toContain("apikey [redacted]");
    await server!.close();
    const slashKey = "ab/cd+ef/gh==";
    const escaping = await clientFor(
      (req) => ({ status: 400, body: `{"message":"bad ${String(req.headers.authorization).replaceAll("/", "\\/")}"}` }),
      {
        maxRetries: 0,
        apiKey: slashKey,
      },
    );
    const err = (await escaping.request("GET", "/cloud/v1/tasks/x").catch((e: unknown) => e)) as Error;
    expect(err.message).toContain("bad apikey [redacted]");
    expect(`${notJson.message} ${JSON.stringify(notJson)}`).not.toContain(KEY);
    expect(`${err.message} ${JSON.stringify(err)}`).not.toContain(slashKey);
  });

  test("an answer holding the key's text is parsed as sent: redaction is for messages, never data", async () => {
    // A one-letter key occurs in every answer: `tasks` would read `tas[redacted]s`.
    const client = await clientFor(
      (req) =>
        req.method === "POST"
          ? { status: 200, body: { tasks: ["task-k1"] } }
          : { status: 200, body: { id: "k", name: "kube keeper", note: String(req.headers.authorization) } },
      { apiKey: "k" },
    );
    expect(await client.taskIds("POST", "/cloud/v1/subnets/1/1", { body: { name: "k" } })).toEqual(["task-k1"]);
    expect(await client.record("GET", "/cloud/v1/subnets/1/1/x")).toEqual({ id: "k", name: "kube keeper", note: "apikey k" });
  });

  test("no thrown object shows the key: its message, stack, fields and the task errors it carries", async () => {
    const client = await clientFor(
      (req) => {
        const auth = String(req.headers.authorization);
        if (req.url?.startsWith("/t/")) return { status: 200, body: { id: "t1", state: "ERROR", error: `quota of ${auth} exceeded` } };
        return { status: 400, body: { exception_class: "ValidationError", message: `refused ${auth}`, invalid_fields: { name: [auth] } } };
      },
      { maxRetries: 0, taskPath: "/t/{task_id}" },
    );
    const refused = (await client.request("POST", "/cloud/v1/subnets/1/1").catch((e: unknown) => e)) as BadRequestError;
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused.exceptionClass).toBe("ValidationError");
    const failed = (await client
      .waitForTasks(["t1"], { deadline: processClock.now() + 5_000, timeoutSeconds: 5, firstPollMs: 10 })
      .catch((e: unknown) => e)) as Error;
    expect(failed.message).toContain("quota of apikey [redacted] exceeded");
    for (const err of [refused, failed]) {
      const everything = [err.message, err.stack, JSON.stringify(err), inspect(err, { depth: 9, showHidden: true })].join("\n");
      expect(everything).toContain("[redacted]");
      expect(everything).not.toContain(KEY);
    }
  });

  test("a retry's log line never shows the key, even when the service's message quotes it", async () => {
    let calls = 0;
    const client = await clientFor((req) =>
      ++calls === 1
        ? { status: 503, body: { message: `busy for ${String(req.headers.authorization)}` } }
        : { status: 200, body: { id: "x" } },
    );
    await client.record("GET", "/cloud/v1/subnets/1/1/x");
    expect(logs.join("\n")).not.toContain(KEY);
  });

  test("an empty error body says so", async () => {
    const client = await clientFor(() => ({ status: 403 }));
    const err = (await client.request("GET", "/cloud/v1/tasks/x").catch((e: unknown) => e)) as ApiError;
    expect(err.message).toBe("GET /cloud/v1/tasks/x: 403 Forbidden: (empty body)");
  });

  test("connection refused is a ConnectionError naming the method and path", async () => {
    const { client } = await clientAtFreePort({ maxRetries: 1 });
    const err = (await client.request("GET", "/cloud/v1/tasks/x").catch((e: unknown) => e)) as ConnectionError;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.causeCode).toBe("ECONNREFUSED");
    expect(err.message).toMatch(/^GET \/cloud\/v1\/tasks\/x: connection failed \(ECONNREFUSED\)/);
  });

  test("a POST refused at connect is retried (the service saw nothing) and reaches the service once", async () => {
    const posts: string[] = [];
    const late = http.createServer((req, res) => {
      req.resume();
      posts.push(`${req.method} ${req.url}`);
      res.writeHead(200, { "content-type": "application/json" }).end('{"tasks":["t1"]}');
    });
    // The service comes up when the client reports the refused first attempt, not after a
    // guessed time: the retry waits >= 375 ms on a timer, and listen() on an IP completes in
    // a nextTick, which always runs before a timer, however slow the machine.
    const log = (m: string) => {
      logs.push(m);
      if (!late.listening) late.listen(port, "127.0.0.1");
    };
    const { client, port } = await clientAtFreePort({ maxRetries: 3, requestTimeoutMs: 2_000, log });
    try {
      await expect(client.request("POST", "/cloud/v1/subnets/1/1", { body: { name: "s" } })).resolves.toEqual({ tasks: ["t1"] });
      expect(posts).toEqual(["POST /cloud/v1/subnets/1/1"]);
      expect(logs.join("\n")).toMatch(/POST \/cloud\/v1\/subnets\/1\/1: could not connect; retry 1/);
    } finally {
      await closeAllPools();
      await new Promise<void>((r) => late.close(() => r()));
    }
  });

  test("a response slower than the request timeout is a RequestTimeoutError", async () => {
    // undici's timers tick every ~0.5 s, so the reply is made far slower than the timeout.
    const client = await clientFor(() => ({ delayMs: 2_500, body: {} }), { requestTimeoutMs: 300, maxRetries: 0 });
    const err = await client.request("GET", "/cloud/v1/tasks/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
  });

  test("an attempt near the operation's deadline times out at the deadline, not a full request timeout later", async () => {
    // The reply comes after 6 s; the request timeout is 120 s. So a RequestTimeoutError can only
    // come from the attempt's timeout being cut to the 1.5 s deadline: without the cut the 6 s
    // reply arrives and the request resolves. No stopwatch needed; the test timeout (10 s) lets
    // that failure show as the assertion rather than as a jest timeout.
    const client = await clientFor(() => ({ delayMs: 6_000, body: {} }), { requestTimeoutMs: 120_000, maxRetries: 0 });
    const err = await client.request("GET", "/cloud/v1/tasks/x", { deadline: processClock.now() + 1_500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(server!.requests).toHaveLength(1);
  }, 10_000);
});

describe("retries", () => {
  // The pauses between attempts are on the test's clock: the gaps are the client's own, exact
  // on any machine, and cost no real time.
  test("Retry-After in seconds is honoured", () =>
    onVirtualTime(async (clock) => {
      const client = await clientFor(
        (_r, i) => (i === 0 ? { status: 429, headers: { "retry-after": "1" } } : { body: { ok: 1 } }),
        {},
        clock.now,
      );
      await expect(client.request("GET", "/cloud/v1/tasks/x")).resolves.toEqual({ ok: 1 });
      const [first, second] = server!.requests;
      // The server's delay, plus up to a fifth at random.
      expect(second.at - first.at).toBeGreaterThanOrEqual(1_000);
      expect(second.at - first.at).toBeLessThanOrEqual(1_200);
      expect(logs[0]).toMatch(/^GET \/cloud\/v1\/tasks\/x: HTTP 429; retry 1 in 1\.[0-2]s$/);
    }));

  test("Retry-After as an HTTP date is honoured", () =>
    onVirtualTime(async (clock) => {
      // HTTP dates have one-second resolution: ask for "2 s from now" and expect more than 1 s.
      const client = await clientFor(
        (_r, i) => (i === 0 ? { status: 503, headers: { "retry-after": new Date(clock.now() + 2_000).toUTCString() } } : { body: {} }),
        {},
        clock.now,
      );
      await client.request("PUT", "/cloud/v2/client_quotas/1/notification_threshold", { body: { threshold: 80 } });
      const gap = server!.requests[1].at - server!.requests[0].at;
      expect(gap).toBeGreaterThan(1_000);
      expect(gap).toBeLessThanOrEqual(2_400);
    }));

  test("retry-after-ms wins over Retry-After", () =>
    onVirtualTime(async (clock) => {
      // Were the 30 s Retry-After chosen, the 10 s deadline would make the call give up at once
      // with "the operation's deadline is reached".
      const client = await clientFor(
        (_r, i) => (i === 0 ? { status: 503, headers: { "retry-after-ms": "300", "retry-after": "30" } } : { body: {} }),
        {},
        clock.now,
      );
      await client.request("GET", "/cloud/v1/tasks/x", { deadline: clock.now() + 10_000 });
      // 300 ms plus up to 20% jitter: the log says 0.3 s or 0.4 s (30 s would be "retry 1 in 30.0s").
      expect(logs).toEqual([expect.stringMatching(/^GET \/cloud\/v1\/tasks\/x: HTTP 503; retry 1 in 0\.[34]s$/)]);
      expect(server!.requests).toHaveLength(2);
      // The client slept that delay, and no more.
      const gap = server!.requests[1].at - server!.requests[0].at;
      expect(gap).toBeGreaterThanOrEqual(300);
      expect(gap).toBeLessThanOrEqual(360);
    }));

  test("5xx is retried with backoff until it succeeds", () =>
    onVirtualTime(async () => {
      const client = await clientFor((_r, i) => (i < 2 ? { status: 500 } : { body: { done: true } }));
      await expect(client.request("DELETE", POOL)).resolves.toEqual({ done: true });
      expect(server!.requests).toHaveLength(3);
    }));

  test("retries stop after maxRetries and the last error is thrown", () =>
    onVirtualTime(async () => {
      const client = await clientFor(() => ({ status: 502 }), { maxRetries: 2 });
      await expect(client.request("GET", "/cloud/v1/tasks/x")).rejects.toBeInstanceOf(InternalServerError);
      expect(server!.requests).toHaveLength(3);
    }));

  test("409 (locked by a running task) is retried past maxRetries until it clears", () =>
    onVirtualTime(async () => {
      const client = await clientFor(
        (_r, i) =>
          i < 3
            ? { status: 409, headers: { "retry-after-ms": "50" }, body: { exception_class: "ConflictError", message: "locked" } }
            : { body: { tasks: ["t"] } },
        { maxRetries: 0 },
      );
      await expect(client.request("PATCH", POOL, { body: { name: "x" } })).resolves.toEqual({ tasks: ["t"] });
      expect(server!.requests).toHaveLength(4);
      // The first retry's line says what holds the record; later ones do not repeat it.
      expect(logs[0]).toBe(`PATCH ${POOL}: HTTP 409 (locked); retry 1 in 0.1s`);
      expect(logs[1]).toBe(`PATCH ${POOL}: HTTP 409; retry 2 in 0.1s`);
    }));

  test("a 409 that is not a lock (a subnet still in use) is not retried: its message shows at once", async () => {
    const client = await clientFor(() => ({
      status: 409,
      body: { exception_class: "ConflictError", message: "Subnet is used by 2 pool members" },
    }));
    const err = (await client.request("DELETE", "/cloud/v1/subnets/1/1/x").catch((e: unknown) => e)) as ConflictError;
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toContain("Subnet is used by 2 pool members");
    expect(server!.requests).toHaveLength(1);
    expect(logs).toEqual([]);
  });

  test("409 gives up at the operation's deadline with the server's message", () =>
    onVirtualTime(async () => {
      const client = await clientFor(() => ({
        status: 409,
        headers: { "retry-after-ms": "100" },
        body: { message: "locked by task t-9" },
      }));
      const err = (await client
        .request("PATCH", POOL, { body: {}, deadline: processClock.now() + 350 })
        .catch((e: unknown) => e)) as ConflictError;
      expect(err).toBeInstanceOf(ConflictError);
      expect(err.message).toContain("locked by task t-9");
      expect(err.message).toContain("the operation's deadline is reached");
    }));

  test("a cancel stops the retries of a lock at once, with the server's message and why", () =>
    onVirtualTime(async (clock) => {
      const cancel = new AbortController();
      const client = await clientFor(
        () => ({ status: 409, headers: { "retry-after-ms": "2000" }, body: { message: "locked by task t-9" } }),
        { cancel: cancel.signal },
        clock.now,
      );
      const started = clock.now();
      const failing = client.request("PATCH", POOL, { body: {}, deadline: clock.now() + 60_000 }).catch((e: unknown) => e);
      void clock.sleep(300).then(() => cancel.abort());
      const err = (await failing) as ConflictError;
      // Ended by the cancel, 300 ms in, not by the 2 s pause the lock asked for.
      expect(clock.now() - started).toBe(300);
      expect(err).toBeInstanceOf(ConflictError);
      expect(err.message).toContain("locked by task t-9");
      expect(err.message).toContain("(gave up after 1 attempt(s): the run was cancelled)");
      expect(server!.requests).toHaveLength(1);
    }));

  test("a POST is never retried after a response timeout (the service may have created it)", () =>
    onVirtualTime(async (clock) => {
      const client = await clientFor(() => ({ delayMs: 2_500, body: { tasks: ["t"] } }), { requestTimeoutMs: 300 });
      await expect(client.request("POST", "/cloud/v1/subnets/1/1", { body: { name: "a" } })).rejects.toBeInstanceOf(RequestTimeoutError);
      // Longer than any pause before a retry (8 s at the most), on the clock the client pauses on.
      await clock.sleep(10_000);
      expect(server!.requests).toHaveLength(1);
    }));

  test("a PATCH is retried after a response timeout", async () => {
    const client = await clientFor((_r, i) => (i === 0 ? { delayMs: 2_500, body: {} } : { body: { tasks: ["t"] } }), {
      requestTimeoutMs: 300,
    });
    await expect(client.request("PATCH", POOL, { body: { name: "a" } })).resolves.toEqual({ tasks: ["t"] });
  });

  test("a POST is not retried on 500, a dropped connection or a gateway's 503 page, but is on 429 and the service's 503", async () => {
    const gateway = { status: 503, body: "<html><body><h1>503 Service Unavailable</h1></body></html>" };
    for (const reply of [{ status: 500 }, { destroy: true }, gateway] as const) {
      const client = await clientFor(() => reply);
      await expect(client.request("POST", "/cloud/v1/bmimages/1/1", { body: {} })).rejects.toThrow();
      expect(server!.requests).toHaveLength(1);
      await server!.close();
    }
    for (const status of [429, 503]) {
      const refusal = { exception_class: status === 429 ? "TooManyRequests" : "ServiceUnavailable", message: "try later" };
      const client = await clientFor((_r, i) =>
        i === 0 ? { status, headers: { "retry-after-ms": "10" }, body: refusal } : { body: { tasks: ["t"] } },
      );
      await expect(client.request("POST", "/cloud/v1/bmimages/1/1", { body: {} })).resolves.toEqual({ tasks: ["t"] });
      expect(server!.requests).toHaveLength(2);
      await server!.close();
    }
    server = undefined;
  });

  test("a POST retried after a 429 is told sent at each attempt: its last is the attempt the service took", async () => {
    const client = await clientFor((_r, i) =>
      i === 0 ? { status: 429, headers: { "retry-after-ms": "10" } } : { body: { tasks: ["t"] } },
    );
    // What the server had received when each attempt left: the tasks a create makes come after the last.
    const receivedWhenSent: number[] = [];
    await client.request("POST", "/cloud/v1/bmimages/1/1", { body: {}, sent: () => receivedWhenSent.push(server!.requests.length) });
    expect(receivedWhenSent).toEqual([0, 1]);
  });

  test("a GET is retried after a dropped connection", () =>
    onVirtualTime(async () => {
      const client = await clientFor((_r, i) => (i === 0 ? { destroy: true } : { body: { state: "RUNNING" } }));
      await expect(client.request("GET", "/cloud/v1/tasks/x")).resolves.toEqual({ state: "RUNNING" });
    }));
});

describe("exact integers", () => {
  test("9223372036854775807 survives a round trip digit for digit", async () => {
    const max = 9223372036854775807n;
    const client = await clientFor((req) => ({ body: req.body })); // echo
    const sent = { threshold: 80, last_message: { global_quotas: { keypair_count_limit: { limit: max, usage: max - 1n } } } };
    const got = (await client.request("PUT", "/cloud/v2/client_quotas/1/notification_threshold", { body: sent })) as typeof sent;
    expect(server!.requests[0].body).toBe(
      '{"threshold":80,"last_message":{"global_quotas":{"keypair_count_limit":{"limit":9223372036854775807,"usage":9223372036854775806}}}}',
    );
    expect(got.last_message.global_quotas.keypair_count_limit.limit).toBe(max);
    expect(got.last_message.global_quotas.keypair_count_limit.usage).toBe(max - 1n);
    expect(got.threshold).toBe(80);
  });
});

describe("the API key never leaks", () => {
  test("not in errors (message, stack, JSON, inspect), the client's serialisation, or log lines", async () => {
    const client = await clientFor((_r, i) =>
      i === 0
        ? { status: 429, headers: { "retry-after-ms": "10" } }
        : { status: 401, body: { exception_class: "AuthenticationError", message: "Authentication credentials were not provided." } },
    );
    const err = (await client.request("GET", "/cloud/v1/tasks/x").catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(AuthenticationError);
    const artifacts = [
      err.message,
      err.stack ?? "",
      JSON.stringify(err),
      inspect(err, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      inspect(client, { depth: 10, showHidden: true }),
      String(client),
      ...logs,
    ];
    expect(logs.length).toBeGreaterThan(0);
    for (const text of artifacts) expect(text).not.toContain(KEY);
  });

  test("not in transport errors either: a timeout and a refused connection", async () => {
    const slow = await clientFor(() => ({ delayMs: 2_500, body: {} }), { requestTimeoutMs: 300, maxRetries: 0 });
    const timeout = (await slow.request("GET", "/cloud/v1/tasks/x").catch((e: unknown) => e)) as Error;
    const refused = (await (
      await clientAtFreePort()
    ).client
      .request("POST", "/cloud/v1/subnets/1/1", { body: { name: "s" } })
      .catch((e: unknown) => e)) as Error;
    expect(timeout).toBeInstanceOf(RequestTimeoutError);
    expect(refused).toBeInstanceOf(ConnectionError);
    for (const err of [timeout, refused]) {
      for (const text of [err.message, err.stack ?? "", JSON.stringify(err), inspect(err, { depth: 10, showHidden: true })])
        expect(text).not.toContain(KEY);
    }
  });
});

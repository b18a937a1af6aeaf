// Injected request faults and the rate limit, set through the control API (emulator/faults.ts,
// emulator/pipeline/fault.ts, emulator/pipeline/access.ts).
import { call, control, emulator, POOL, restartEmulator, SEED, useEmulator } from "./api";

useEmulator();

describe("control API: faults, task duration, metrics, logs", () => {
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
    // The emulator pauses on a clock the test reads: Date, faked here, moved on by the pause
    // alone, as the pause ends (a turn later), so only an answer that waited for it comes late.
    const pauses: number[] = [];
    const clock = {
      now: () => Date.now(),
      sleep: (ms: number) =>
        new Promise<void>((resolve) => {
          pauses.push(ms);
          setImmediate(() => {
            jest.advanceTimersByTime(ms);
            resolve();
          });
        }),
    };
    await restartEmulator({ seed: SEED, taskDurationMs: 250, clock });
    await control("POST", "faults", { method: "GET", path: "/cloud/v1/tasks/**", count: 1, action: "close" });
    await expect(call("GET", "/cloud/v1/tasks/x")).rejects.toThrow();
    await control("POST", "faults", { method: "PATCH", path: "/cloud/v1/lifecycle_policy/1/1/101", count: 1, action: "close-after" });
    await expect(call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", { name: "acted" })).rejects.toThrow();
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/101")).body.name).toBe("acted");
    await control("POST", "faults", { method: "GET", path: "/cloud/v1/lifecycle_policy/1/1/101", count: 1, action: "delay", delayMs: 300 });
    const started = Date.now();
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/101")).status).toBe(200);
    expect(pauses).toEqual([300]);
    expect(Date.now() - started).toBe(300);
    // The emulator's own line for the answer: sent once the pause was over.
    expect(emulator().logs.at(-1)).toMatch(/^GET \/cloud\/v1\/lifecycle_policy\/1\/1\/101 .*200 300ms$/);
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
});

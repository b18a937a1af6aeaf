import { inspect } from "node:util";
// Pure pieces of the client: the retry policy, exact-integer JSON, and settings.
import { ConfigurationError, parseJson, stringifyJson } from "../../../../provider/client";
import { retryDelayMs, shouldRetry, type Outcome } from "../../../../provider/client/retry";
import { resolveSettings } from "../../../../provider/config";

describe("shouldRetry", () => {
  const status = (s: number): Outcome => ({ kind: "status", status: s });
  const table: Array<[string, Outcome, boolean]> = [
    ["GET", status(408), true],
    ["GET", { kind: "status", status: 409, lock: true }, true],
    ["DELETE", status(409), false], // a conflict that is not a lock lasts: shown at once
    ["GET", status(429), true],
    ["PATCH", status(500), true],
    ["PUT", status(503), true],
    ["DELETE", status(502), true],
    ["GET", status(400), false],
    ["PATCH", status(404), false],
    ["GET", { kind: "connection-lost" }, true],
    ["PATCH", { kind: "response-timeout" }, true],
    ["POST", { kind: "connect-failed" }, true],
    ["POST", status(429), true],
    ["POST", { kind: "status", status: 503, service: true }, true], // the service says it is unavailable: it did not act
    ["POST", status(503), false], // a gateway's 503 page: the service may have acted
    ["POST", { kind: "status", status: 504, service: true }, false],
    ["POST", status(500), false],
    ["POST", status(502), false],
    ["POST", status(409), false],
    ["POST", { kind: "status", status: 409, lock: true }, true], // locked by a task: refused, not acted on
    ["POST", { kind: "connection-lost" }, false],
    ["POST", { kind: "response-timeout" }, false],
  ];
  test.each(table)("%s after %j -> %s", (method, outcome, expected) => {
    expect(shouldRetry(method, outcome)).toBe(expected);
  });
});

describe("retryDelayMs", () => {
  const none = () => undefined;
  test("exponential backoff from 0.5 s, capped at 8 s, with up to 25% jitter", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => retryDelayMs(n, none, 0, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(retryDelayMs(2, none, 0, () => 1)).toBe(1500);
  });
  test("Retry-After seconds, HTTP date, and retry-after-ms, with up to 20% jitter", () => {
    const headers = (h: Record<string, string>) => (n: string) => h[n];
    expect(retryDelayMs(0, headers({ "retry-after": "3" }), 0, () => 0)).toBe(3000);
    expect(retryDelayMs(0, headers({ "retry-after": "3" }), 0, () => 1)).toBe(3600);
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(retryDelayMs(0, headers({ "retry-after": "Sun, 22 Nov 2026 10:00:07 GMT" }), now, () => 0)).toBe(7000);
    // A past date, 0 or an empty value would retry with no pause (409 retries until the
    // deadline: a busy loop), so they fall back to the backoff.
    expect(retryDelayMs(0, headers({ "retry-after": "Sun, 22 Nov 2026 09:00:00 GMT" }), now, () => 0)).toBe(500);
    expect(retryDelayMs(1, headers({ "retry-after": "0" }), now, () => 0)).toBe(1000);
    expect(retryDelayMs(0, headers({ "retry-after-ms": "0" }), now, () => 0)).toBe(500);
    expect(retryDelayMs(0, headers({ "retry-after-ms": "120.5", "retry-after": "9" }), now, () => 0)).toBe(121);
    expect(retryDelayMs(0, headers({ "retry-after": "soon" }), 0, () => 0)).toBe(500);
  });
});

describe("exact-integer JSON", () => {
  test("int64 extremes round-trip digit for digit; safe integers stay numbers", () => {
    const text = '{"limit":9223372036854775807,"usage":-9223372036854775808,"small":42,"ratio":0.5}';
    const value = parseJson(text) as Record<string, unknown>;
    expect(value).toEqual({ limit: 9223372036854775807n, usage: -9223372036854775808n, small: 42, ratio: 0.5 });
    expect(stringifyJson(value)).toBe(text);
  });
  test("9007199254740993 (2^53 + 1) is not rounded", () => {
    expect(parseJson("9007199254740993")).toBe(9007199254740993n);
    expect(stringifyJson({ n: 9007199254740993n })).toBe('{"n":9007199254740993}');
  });
});

describe("resolveSettings", () => {
  const config = (c: Record<string, string>) => (k: string) => c[k];
  test("stack config wins over the environment; defaults fill the rest", () => {
    const s = resolveSettings(config({ apiKey: "from-config", apiUrl: "https://api.example.test/base" }), {
      CIMS_API_KEY: "from-env",
      CIMS_API_URL: "https://env.example.test",
      CIMS_PROJECT_ID: "12",
    });
    expect(s.apiKey).toBe("from-config");
    expect(s.apiUrl.href).toBe("https://api.example.test/base");
    expect(s.projectId).toBe(12);
    expect(s.regionId).toBeUndefined();
    expect(s.taskTimeoutSeconds).toBe(1800);
    expect(s.taskPath).toBe("/cloud/v1/tasks/{task_id}");
    expect(s.maxRequestsPerSecond).toBeUndefined();
    expect(
      resolveSettings(config({ apiKey: "k", apiUrl: "https://x.test" }), { CIMS_MAX_REQUESTS_PER_SECOND: "2.5" }).maxRequestsPerSecond,
    ).toBe(2.5);
    expect(s.connectTimeoutMs).toBe(5000);
    expect(s.requestTimeoutMs).toBe(120000);
  });
  test("the key is kept out of JSON, inspect and spreads of the settings", () => {
    const s = resolveSettings(config({ apiKey: "settings-secret-77", apiUrl: "https://x.test" }), {});
    expect(s.apiKey).toBe("settings-secret-77");
    for (const text of [JSON.stringify(s), inspect(s, { depth: 5 }), JSON.stringify({ ...s })])
      expect(text).not.toContain("settings-secret-77");
  });
  test("a blank stack config value falls back to the environment", () => {
    const s = resolveSettings(config({ apiKey: "  ", apiUrl: "" }), { CIMS_API_KEY: "env-key", CIMS_API_URL: "http://127.0.0.1:9" });
    expect(s.apiKey).toBe("env-key");
    expect(s.apiUrl.href).toBe("http://127.0.0.1:9/");
  });
  test("the environment is used when config is absent", () => {
    const s = resolveSettings(config({}), { CIMS_API_KEY: "k", CIMS_API_URL: "http://127.0.0.1:9", CIMS_REGION_ID: "3" });
    expect(s.apiKey).toBe("k");
    expect(s.regionId).toBe(3);
  });
  test("a missing key names both places to set it", () => {
    expect(() => resolveSettings(config({ apiUrl: "http://x" }), {})).toThrow(ConfigurationError);
    expect(() => resolveSettings(config({ apiUrl: "http://x" }), {})).toThrow(/cims:apiKey.*CIMS_API_KEY/);
  });
  test("a missing or bad URL, and bad numbers, are named", () => {
    expect(() => resolveSettings(config({ apiKey: "k" }), {})).toThrow(/cims:apiUrl.*CIMS_API_URL/);
    expect(() => resolveSettings(config({ apiKey: "k", apiUrl: "ftp://x" }), {})).toThrow("cims:apiUrl must use http or https");
    expect(() => resolveSettings(config({ apiKey: "k", apiUrl: "http://u:p@x" }), {})).toThrow("must not carry credentials");
    expect(() => resolveSettings(config({ apiKey: "k", apiUrl: "http://x", projectId: "1.5" }), {})).toThrow(
      "cims:projectId must be an integer",
    );
    expect(() => resolveSettings(config({ apiKey: "k", apiUrl: "http://x", taskPath: "/tasks" }), {})).toThrow("{task_id}");
  });
  test("the key never appears in a configuration error", () => {
    let message = "";
    try {
      resolveSettings(config({ apiKey: "sk-very-secret", apiUrl: "not a url" }), {});
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("cims:apiUrl");
    expect(message).not.toContain("sk-very-secret");
  });
});

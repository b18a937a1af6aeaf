// The request pipeline from the outside: auth and routing, bodies and request targets the
// server must survive (emulator/pipeline/).
import * as http from "node:http";
import { call, emulator, KEY, NET, POOL, useEmulator } from "./api";

useEmulator();

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
      const res = await fetch(`${emulator().url}/cloud/v1/lbpools/1/1/${POOL}`, { headers: { authorization: header } });
      expect(res.status).toBe(401);
    },
  );

  // RFC 9110 11.1: the scheme is case-insensitive; the vendor's SDK sends `APIKey`.
  test.each([[`APIKey ${KEY}`], [`APIKEY ${KEY}`], [`ApiKey ${KEY}`]])(
    "Authorization %j: the scheme in any case is accepted",
    async (header) => {
      const res = await fetch(`${emulator().url}/cloud/v1/lbpools/1/1/${POOL}`, { headers: { authorization: header } });
      expect(res.status).toBe(200);
    },
  );

  test("a key rotated through apiKeys: the new key is accepted from the next request, the old one refused once deleted", async () => {
    const path = `/cloud/v1/lbpools/1/1/${POOL}`;
    emulator().apiKeys.add("emu-rotated-key-77d1");
    expect([(await call("GET", path)).status, (await call("GET", path, undefined, { key: "emu-rotated-key-77d1" })).status]).toEqual([
      200, 200,
    ]);
    emulator().apiKeys.delete(KEY);
    expect([(await call("GET", path)).status, (await call("GET", path, undefined, { key: "emu-rotated-key-77d1" })).status]).toEqual([
      401, 200,
    ]);
  });

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
  const { port } = new URL(emulator().url);
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

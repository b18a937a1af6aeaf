// The quota notification threshold over HTTP: exact int64 numbers, upserts, ranges
// (emulator/collections/quota-threshold.ts).
import { call, useEmulator } from "./api";

useEmulator();

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

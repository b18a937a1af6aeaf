// What the provider records is the truth, in process on both faces (the provider as the
// engine calls it, against the emulator): an LbPoolSettings create whose reads of the pool
// all fail writes nothing and records nothing, and applies once they answer; a QuotaThreshold
// `lastSending` with an hour-only offset (`+02`) is stored as the instant it names, and shows
// no diff, before or after a refresh. Adoption's truths under the real engine:
// tests/e2e/failures/truthful-failures.test.ts.
import { api, SEED } from "../../../support/cims";
import { failureOf } from "./faces";
import { withEmulatedState } from "./matrix";

// A create's reads, each with its retries, failing: seconds.
const ROW_TIMEOUT_MS = 90_000;

describe.each(["dynamic", "native"] as const)("truthful records, in process, %s face", (face) => {
  test(
    "an LbPoolSettings create whose reads of the pool all fail (500) writes nothing and records nothing; it applies once they answer",
    () =>
      withEmulatedState("LbPoolSettings", face, async (env, state) => {
        const settings = { poolId: SEED.poolId, name: "web-2" };
        // Every read (check()'s, for the preview's warning, and the create's with its retries) fails.
        await api(env, "POST", "/__emulator/faults", {
          method: "GET",
          path: `/cloud/v1/lbpools/1/1/${SEED.poolId}`,
          count: 100,
          action: "status",
          status: 500,
        });
        const failure = await state.up("web", settings).then(() => undefined, failureOf);
        expect(failure?.message).toContain("500 Internal Server Error");
        expect(failure?.id).toBeUndefined();
        const requests = Object.keys(env.emulator.metrics.snapshot().requests);
        expect(requests.filter((k) => !k.startsWith("GET "))).toEqual([]);
        expect(state.ids()).toEqual([]);
        await api(env, "DELETE", "/__emulator/faults");
        await state.up("web", settings);
        expect(env.emulator.store.get("lbpools", SEED.poolId)?.name).toBe("web-2");
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "a lastSending with an hour-only offset is stored as the instant it names, then shows no diff, before or after a refresh",
    () =>
      withEmulatedState("QuotaThreshold", face, async (env, state) => {
        const quota = { clientId: Number(SEED.clientId), threshold: 85, lastSending: "2026-05-23T09:07:31+02" };
        await state.up("quota", quota);
        expect(env.emulator.store.get("client_quotas", Number(SEED.clientId))?.last_sending).toBe("2026-05-23T07:07:31");
        expect(await state.changes("quota", quota)).toBe(false);
        const recorded = state.resources.get("quota")?.outs;
        await state.refresh("quota");
        expect(state.resources.get("quota")?.outs).toEqual(recorded);
        expect(await state.changes("quota", quota)).toBe(false);
      }),
    ROW_TIMEOUT_MS,
  );
});

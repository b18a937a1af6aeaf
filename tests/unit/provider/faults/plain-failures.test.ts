// Failures that only a person can clear, or that never reached the service, fail plainly and
// at once, in process on both faces (the provider as the engine calls it, against the
// emulator): a lasting 409 on a subnet's delete is not retried and says the service's words,
// and the delete converges once it clears; an LbPoolSettings create whose request never
// reached the service records nothing and offers no advice about what it may have made, and
// the next create applies it.
import { api, SEED } from "../../../support/cims";
import { POOL_SETTINGS_INPUTS } from "../../../support/faults";
import { closedPort } from "../../../support/test-server";
import { failureOf } from "./faces";
import { stateOn, withEmulatedState } from "./matrix";

const ROW_TIMEOUT_MS = 60_000;
const subnet = { name: "e2e-subnet", cidr: "10.30.0.0/24", networkId: SEED.networkId, tags: { owner: "e2e" } };
const pool = POOL_SETTINGS_INPUTS;

describe.each(["dynamic", "native"] as const)("plain failures, in process, %s face", (face) => {
  test(
    "a lasting 409 (the subnet is still used by pool members) fails the delete at once with the service's message; it converges once it clears",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        await state.up("subnet", subnet);
        await api(env, "POST", "/__emulator/faults", {
          method: "DELETE",
          path: "/cloud/v1/subnets/1/1/*",
          action: "status",
          status: 409,
          body: { message: "Subnet is used by 2 load balancer pool members." },
        });
        env.emulator.metrics.reset();
        const failure = await state.destroy("subnet").then(() => undefined, failureOf);
        expect(failure?.message).toMatch(
          /DELETE \/cloud\/v1\/subnets\/1\/1\/[0-9a-f-]{36}: 409 Conflict \(ConflictError\): Subnet is used by 2 load balancer pool members/,
        );
        // Not retried: one request, no wait on a conflict that only a person can clear.
        expect(env.emulator.metrics.snapshot().requests).toMatchObject({
          "DELETE /cloud/v1/subnets/:project_id/:region_id/:subnet_id 409": 1,
        });
        expect(state.ids()).toHaveLength(1);
        await api(env, "DELETE", "/__emulator/faults");
        await state.destroy("subnet");
        expect(env.emulator.store.list("subnets")).toHaveLength(0);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "an LbPoolSettings create against a refused connection fails plainly: nothing recorded, no advice; the next up applies it",
    async () => {
      const port = await closedPort();
      // Without the credential probe, which would refuse the URL first (client/credentials.test.ts):
      // this is about the create's own request.
      const refusedUrl = { "cims:apiUrl": `http://127.0.0.1:${port}`, "cims:maxRetries": "0", "cims:skipCredentialsValidation": "true" };
      await withEmulatedState(
        "LbPoolSettings",
        face,
        async (env, refused) => {
          const failure = await refused.up("pool", pool).then(() => undefined, failureOf);
          expect(failure?.message).toMatch(/connection failed \(ECONNREFUSED\)/);
          expect(failure?.message).not.toMatch(/partially created|may have created/);
          expect(failure?.id).toBeUndefined();
          expect(refused.ids()).toEqual([]);

          const state = await stateOn(face, "LbPoolSettings", env);
          await state.up("pool", pool);
          expect(env.emulator.store.get("lbpools", SEED.poolId)?.name).toBe("e2e-pool");
          expect(await state.changes("pool", pool)).toBe(false);
        },
        refusedUrl,
      );
    },
    ROW_TIMEOUT_MS,
  );
});

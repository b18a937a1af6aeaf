// A refresh's reads when the scope's list fails, in process (the provider as the engine calls it
// at a refresh, on both faces, against the emulator on virtual time): 30 subnets read at once,
// every list request answered 500 whatever the retries: each read falls back to its own GET by
// id, and every subnet is read as the service holds it. That reads coalesce into lists under the
// engine's refresh is tests/e2e/engine/refresh-coalesce.test.ts's; coalesce.test.ts has the
// fallback at the coalescing itself.
import { randomBytes } from "node:crypto";
import { startEmulator } from "pulumi-cims/emulator";
import { closeAllPools } from "../../../../provider/client/transport";
import { forgetRun } from "../../../../provider/methods/run-memory";
import { api, SEED, SEED_FILE } from "../../../support/cims";
import { onVirtualTime } from "../../../support/virtual-clock";
import { type FaceName, providerOn } from "../faults/faces";
import { configFor } from "../faults/matrix";

const COUNT = 30;
// Seconds of real time on a loaded machine (the tasks' own time is virtual).
const TIMEOUT_MS = 60_000;

describe.each(["dynamic", "native"] as const)("%s face", (face: FaceName) => {
  test(
    `${COUNT} subnets read at once while the list fails: a GET by id each, every record as the service holds it`,
    () =>
      onVirtualTime(async (clock) => {
        const apiKey = `unit-read-${randomBytes(8).toString("hex")}`;
        const emulator = await startEmulator({ apiKey, seed: SEED_FILE, taskDurationMs: 300, clock: clock.forEmulator });
        const env = { emulator, apiKey };
        try {
          forgetRun();
          const maker = await providerOn(face, "Subnet", configFor(env));
          const created = await Promise.all(
            Array.from({ length: COUNT }, async (_, i) =>
              maker.create(await maker.check({}, { name: `rd-${i}`, cidr: `10.93.${i}.0/24`, networkId: SEED.networkId })),
            ),
          );
          const renamed = created[7].id;
          expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${renamed}`, { name: "renamed-by-hand" })).status).toBe(200);
          const list = { method: "GET", path: "/cloud/v1/subnets/*/*", action: "status", status: 500 };
          expect((await api(env, "POST", "/__emulator/faults", list)).status).toBe(204);
          // A refresh: a new provider process, each read begun a few milliseconds after the last.
          forgetRun();
          const provider = await providerOn(face, "Subnet", configFor(env, { "cims:maxRetries": "1" }));
          emulator.metrics.reset();
          const read = await Promise.all(
            created.map(async ({ id, outs }, i) => {
              await clock.sleep(i * 15);
              return provider.read(id, outs);
            }),
          );
          expect(read.map((r) => [r.id, r.props.name])).toEqual(
            created.map(({ id }, i) => [id, id === renamed ? "renamed-by-hand" : `rd-${i}`]),
          );
          const { requests } = emulator.metrics.snapshot();
          expect(requests["GET /cloud/v1/subnets/:project_id/:region_id 500"]).toBeGreaterThan(0);
          expect(requests["GET /cloud/v1/subnets/:project_id/:region_id/:subnet_id 200"]).toBe(COUNT);
        } finally {
          await closeAllPools();
          await emulator.close();
        }
      }),
    TIMEOUT_MS,
  );
});

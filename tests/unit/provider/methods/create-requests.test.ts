// What a burst of creates costs in requests, in process (the provider as the engine calls it,
// on both faces, against the emulator on virtual time): 40 subnets created at once send a POST
// and a PATCH each (the PATCH removes the create's mark and answers the record), and share
// the scope's task lists, which show their tasks ended, so next to no task is read by id; what is
// left is a list of the network's subnets before the POSTs and the key's proof. Under a
// rate limit, requests are the wall time.
import { randomBytes } from "node:crypto";
import { startEmulator } from "pulumi-cims/emulator";
import { closeAllPools } from "../../../../provider/client/transport";
import { forgetRun } from "../../../../provider/methods/run-memory";
import { SEED, SEED_FILE } from "../../../support/cims";
import { onVirtualTime } from "../../../support/virtual-clock";
import { type FaceName, providerOn } from "../faults/faces";
import { configFor } from "../faults/matrix";

const COUNT = 40;
// Seconds of real time on a loaded machine (the tasks' own time is virtual).
const TIMEOUT_MS = 60_000;

describe.each(["dynamic", "native"] as const)("a burst of creates, %s face", (face: FaceName) => {
  test(
    `${COUNT} subnets at once: a POST and a PATCH each, shared task lists, next to no task read by id, at most 2.5 requests a subnet`,
    () =>
      onVirtualTime(async (clock) => {
        const apiKey = `unit-requests-${randomBytes(8).toString("hex")}`;
        const emulator = await startEmulator({ apiKey, seed: SEED_FILE, taskDurationMs: 2_000, clock: clock.forEmulator });
        try {
          forgetRun();
          const provider = await providerOn(face, "Subnet", configFor({ emulator, apiKey }));
          const created = await Promise.all(
            Array.from({ length: COUNT }, async (_, i) => {
              // The engine starts creates one by one, a few milliseconds apart.
              await clock.sleep(i * 15);
              const inputs = await provider.check({}, { name: `burst-${i}`, cidr: `10.90.${i}.0/24`, networkId: SEED.networkId });
              return provider.create(inputs);
            }),
          );
          expect(new Set(created.map((c) => c.id)).size).toBe(COUNT);
          expect(created.every((c) => JSON.stringify(c.outs).includes("pulumi-cims-create-mark"))).toBe(false);
          const { requests, total_requests: total } = emulator.metrics.snapshot();
          const count = (route: string) => requests[`${route} 200`] ?? 0;
          expect(count("POST /cloud/v1/subnets/:project_id/:region_id")).toBe(COUNT);
          expect(count("PATCH /cloud/v1/subnets/:project_id/:region_id/:subnet_id")).toBe(COUNT);
          // None, but for a task whose first look came after a newer task's, in the second before
          // it: the lists reach back to the newer one's created_on, so it is read by id once (the
          // clock's start decides whether the burst straddles a second).
          expect(count("GET /cloud/v1/tasks/:task_id")).toBeLessThanOrEqual(2);
          // A wave of 2 s tasks begun over 0.6 s: a list a look, each shared by the waits that look then (12 or 13).
          expect(count("GET /cloud/v1/tasks")).toBeLessThanOrEqual(16);
          expect(total / COUNT).toBeLessThanOrEqual(2.5);
        } finally {
          await closeAllPools();
          await emulator.close();
        }
      }),
    TIMEOUT_MS,
  );
});

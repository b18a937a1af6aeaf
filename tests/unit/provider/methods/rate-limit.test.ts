// The provider's pacing under the service's rate limit, in process (the provider as the engine
// calls it at `--parallel 40`, on both faces, against the emulator allowing 10 requests a second
// per key, on virtual time): 40 subnets created, then read (a refresh), then deleted (a destroy),
// each command a new provider process that learns the limit again. Nothing fails: the pacer
// slows every request instead of letting one fail. Until its first 429 a new process sends its
// requests as they come, so those already sent may be refused too (at most one per resource);
// after it, 429s are rare probes of a limit that may have risen. Task waits go through the
// scope's task list (about one request per task), and a create reads nothing back by id. That
// the engine's runs meet the limit and succeed is tests/e2e/engine/rate-limit.test.ts's.
import { randomBytes } from "node:crypto";
import { startEmulator } from "pulumi-cims/emulator";
import { closeAllPools } from "../../../../provider/client/transport";
import { forgetRun } from "../../../../provider/methods/run-memory";
import { SEED, SEED_FILE } from "../../../support/cims";
import { onVirtualTime, type VirtualClock } from "../../../support/virtual-clock";
import { type FaceName, type Props, providerOn } from "../faults/faces";
import { configFor } from "../faults/matrix";

const COUNT = 40;
const PER_SECOND = 10;
// Seconds of real time on a loaded machine (the tasks' own time is virtual).
const TIMEOUT_MS = 60_000;

const count = (requests: Record<string, number>, pattern: RegExp) =>
  Object.entries(requests)
    .filter(([route]) => pattern.test(route))
    .reduce((n, [, c]) => n + c, 0);

describe.each(["dynamic", "native"] as const)(`under ${PER_SECOND} requests a second, %s face`, (face: FaceName) => {
  test(
    `create, read and delete of ${COUNT} subnets at once, each a new provider process: nothing fails, and once the limit is learned 429s are few`,
    () =>
      onVirtualTime(async (clock: VirtualClock) => {
        const apiKey = `unit-rate-${randomBytes(8).toString("hex")}`;
        const emulator = await startEmulator({ apiKey, seed: SEED_FILE, taskDurationMs: 2_000, clock: clock.forEmulator });
        try {
          emulator.faults.setRateLimit(PER_SECOND);
          /** One command: a new provider process, each resource's call begun a few milliseconds after the last (the engine's steps), and the requests it sent. */
          const paced = async <T>(call: (provider: Awaited<ReturnType<typeof providerOn>>, i: number) => Promise<T>) => {
            forgetRun();
            const provider = await providerOn(face, "Subnet", configFor({ emulator, apiKey }));
            emulator.metrics.reset();
            const results = await Promise.all(
              Array.from({ length: COUNT }, async (_, i) => {
                await clock.sleep(i * 15);
                return call(provider, i);
              }),
            );
            const { requests, total_requests: total } = emulator.metrics.snapshot();
            return { results, requests, total, afterLearning: count(requests, / 429$/) - COUNT };
          };
          const up = await paced(async (provider, i) =>
            provider.create(await provider.check({}, { name: `rl-${i}`, cidr: `10.62.${i}.0/24`, networkId: SEED.networkId })),
          );
          const created: Array<{ id: string; outs: Props }> = up.results;
          expect(new Set(created.map((c) => c.id)).size).toBe(COUNT);
          // The task list, which shows our tasks ended once it has shown them running, in place of several reads per task.
          expect(count(up.requests, /^GET \/cloud\/v1\/tasks(\/:task_id)? 200$/) / COUNT).toBeLessThanOrEqual(1.5);
          // A create reads nothing back by id: the PATCH removing its mark answers the record.
          expect(count(up.requests, /^GET \/cloud\/v1\/subnets\/:project_id\/:region_id\/:subnet_id /)).toBe(0);
          const refresh = await paced((provider, i) => provider.read(created[i].id, created[i].outs));
          expect(refresh.results.map((r) => r.id)).toEqual(created.map((c) => c.id));
          const destroy = await paced((provider, i) => provider.delete(created[i].id, created[i].outs));
          expect(emulator.store.list("subnets").filter((s) => String(s.name).startsWith("rl-"))).toEqual([]);
          // The limit was met, and answered by waiting: once learned, 429s are few next to the requests sent.
          for (const command of [up, refresh, destroy]) expect(command.afterLearning).toBeLessThan(command.total / 10);
        } finally {
          await closeAllPools();
          await emulator.close();
        }
      }),
    TIMEOUT_MS,
  );
});

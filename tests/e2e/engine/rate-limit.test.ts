// Under the service's rate limit (the emulator allowing 10 requests a second per key), `up`,
// `refresh` and `destroy` of 40 subnets at `--parallel 40` succeed on each face: the pacer
// slows every request of the provider process instead of letting one fail, and task waits go
// through the scope's task list (about one request per task). Each command is a new provider
// process, which learns the limit again: until the first 429 its requests go as they come, a
// window in flight that grows with every answer, so the requests already sent then may be
// refused too (at most one per resource); after it, 429s are rare probes of a limit that may
// have risen.
import { type Face, faceProject, onFace, SEED, subnetsSeen, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();
const COUNT = 40;
const PER_SECOND = 10;

const program = [
  'import * as cims from "pulumi-cims";',
  `for (let i = 0; i < ${COUNT}; i++) {`,
  `  new cims.Subnet(\`s\${i}\`, { name: \`rl-\${i}\`, cidr: \`10.62.\${i}.0/24\`, networkId: "${SEED.networkId}" });`,
  `}`,
].join("\n");

const count = (requests: Record<string, number>, pattern: RegExp) =>
  Object.entries(requests)
    .filter(([k]) => pattern.test(k))
    .reduce((n, [, c]) => n + c, 0);

describe.each(["dynamic", "native"] as Face[])("%s face", (face) => {
  test(
    `up, refresh and destroy of ${COUNT} subnets at --parallel ${COUNT} under ${PER_SECOND} requests a second: nothing fails`,
    async () => {
      const env = await stacks.stack({ files: { "Pulumi.yaml": faceProject(`rate-${face}`, face), "index.ts": onFace(program, face) } });
      env.emulator.faults.setRateLimit(PER_SECOND);
      const parallel = ["--parallel", String(COUNT)];
      /** A command, and its 429s beyond the first burst of the process it started. */
      const paced = async (run: () => Promise<unknown>) => {
        env.emulator.metrics.reset();
        await run();
        const { requests, total_requests } = env.emulator.metrics.snapshot();
        return { requests, afterLearning: count(requests, / 429$/) - COUNT, total: total_requests };
      };
      const up = await paced(() => env.stack.up(parallel));
      const seen = await subnetsSeen(env);
      expect(seen.names).toHaveLength(COUNT);
      expect(seen.stateIds).toEqual(seen.ids);
      // The task list, which shows our tasks ended once it has shown them running, in place of several reads per task.
      const taskRequests = count(up.requests, /^GET \/cloud\/v1\/tasks(\/:task_id)? 200$/);
      expect(taskRequests / COUNT).toBeLessThanOrEqual(1.5);
      // A create reads nothing back by id: the PATCH removing its mark answers the record.
      expect(count(up.requests, /^GET \/cloud\/v1\/subnets\/:project_id\/:region_id\/:subnet_id /)).toBe(0);
      const refresh = await paced(() => env.stack.refresh(parallel));
      const destroy = await paced(() => env.stack.destroy(parallel));
      expect((await subnetsSeen(env)).ids).toEqual([]);
      // The limit was met, and answered by waiting: once learned, 429s are few next to the requests sent.
      for (const command of [up, refresh, destroy]) expect(command.afterLearning).toBeLessThan(command.total / 10);
    },
    E2E_TIMEOUT_MS,
  );
});

// Under the service's rate limit (the emulator allowing 10 requests a second per key), an `up`
// of 40 subnets at `--parallel 40` meets the limit and succeeds: the engine's 40 creates at once
// in one provider process are paced, none fails. Once, on the plugin face: what the provider
// sends under the limit (the pacer learning it anew in each process, few 429s once it has, task
// waits through the scope's task list, no read back by id), for the creates, reads and deletes of
// an up, a refresh and a destroy on both faces, is tests/unit/provider/methods/rate-limit.test.ts's,
// in process on virtual time.
import { faceProject, onFace, SEED, subnetsSeen, useStacks } from "../../support/cims";
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

test(
  `up of ${COUNT} subnets at --parallel ${COUNT} under ${PER_SECOND} requests a second, plugin face: the limit is met, and nothing fails`,
  async () => {
    const env = await stacks.stack({
      files: { "Pulumi.yaml": faceProject("rate-native", "native"), "index.ts": onFace(program, "native") },
    });
    env.emulator.faults.setRateLimit(PER_SECOND);
    env.emulator.metrics.reset();
    await env.stack.up(["--parallel", String(COUNT)]);
    const { requests } = env.emulator.metrics.snapshot();
    expect(Object.entries(requests).filter(([route]) => / 429$/.test(route)).length).toBeGreaterThan(0);
    const seen = await subnetsSeen(env);
    expect(seen.names).toHaveLength(COUNT);
    expect(seen.stateIds).toEqual(seen.ids);
  },
  E2E_TIMEOUT_MS,
);

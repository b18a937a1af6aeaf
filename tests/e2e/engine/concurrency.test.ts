// 50 subnets in one stack under the engine's default parallelism, against an emulator that
// answers about 10% of all requests with 429 or 503: `up` succeeds and every subnet exists
// exactly once, in the service and in the state.
import { api, SEED, subnetsSeen, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

test(
  "50 resources, 10% of requests refused with 429/503: every resource created exactly once",
  async () => {
    const program = [
      'import * as cims from "pulumi-cims";',
      `for (let i = 0; i < 50; i++) {`,
      `  new cims.Subnet(\`s\${i}\`, { name: \`load-\${i}\`, cidr: \`10.60.\${i}.0/24\`, networkId: "${SEED.networkId}" });`,
      `}`,
    ].join("\n");
    const env = await stacks.stack({ files: { "Pulumi.yaml": "name: load\nruntime: nodejs\n", "index.ts": program } });
    await api(env, "POST", "/__emulator/faults", {
      method: "*",
      path: "/**",
      probability: 0.05,
      action: "status",
      status: 429,
      retryAfter: "1",
    });
    await api(env, "POST", "/__emulator/faults", { method: "*", path: "/**", probability: 0.05 / 0.95, action: "status", status: 503 });
    await env.stack.up();

    const refused = Object.entries(env.emulator.metrics.snapshot().requests)
      .filter(([key]) => / (429|503)$/.test(key))
      .reduce((n, [, count]) => n + count, 0);
    expect(refused).toBeGreaterThan(0);
    const seen = await subnetsSeen(env);
    expect(seen.names).toEqual(Array.from({ length: 50 }, (_, i) => `load-${i}`).sort());
    expect(seen.stateIds).toEqual(seen.ids);
  },
  E2E_TIMEOUT_MS,
);

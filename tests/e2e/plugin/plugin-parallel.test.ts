// `pulumi up --parallel 50` of 50 subnets on each face, each against its own
// emulator: the plugin face (one long-lived provider process serving every resource) sends
// the same writes as the dynamic face, route by route, and reads of the same routes, and every
// subnet exists exactly once in the service and in the state. How often a list is read again
// (a list is reused for 2 s) and how often a task is looked at are timing, which a loaded machine
// shifts: both faces follow the tasks through the scope's task list (which shows them ended once
// it has shown them running; a task that ended before any list showed it is read by id), and
// neither sends more than three task requests a task on average.
import { type CimsTestEnv, type Face, faceProject, onFace, SEED, subnetsSeen, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();
const COUNT = 50;
const TASK_READ = /^GET \/cloud\/v1\/tasks\/:task_id 200$/;
const TASK_REQUESTS = /^GET \/cloud\/v1\/tasks(\/:task_id)? 200$/;

const program = [
  'import * as cims from "pulumi-cims";',
  `for (let i = 0; i < ${COUNT}; i++) {`,
  `  new cims.Subnet(\`s\${i}\`, { name: \`par-\${i}\`, cidr: \`10.61.\${i}.0/24\`, networkId: "${SEED.networkId}" });`,
  `}`,
].join("\n");

async function upOn(face: Face): Promise<{ env: CimsTestEnv; requests: Record<string, number> }> {
  const env = await stacks.stack({ files: { "Pulumi.yaml": faceProject(`parallel-${face}`, face), "index.ts": onFace(program, face) } });
  await env.stack.up(["--parallel", String(COUNT)]);
  const seen = await subnetsSeen(env);
  expect(seen.names).toEqual(Array.from({ length: COUNT }, (_, i) => `par-${i}`).sort());
  expect(seen.stateIds).toEqual(seen.ids);
  return { env, requests: env.emulator.metrics.snapshot().requests };
}

test(
  `--parallel ${COUNT}: the plugin face sends the dynamic face's requests`,
  async () => {
    const dynamic = await upOn("dynamic");
    const native = await upOn("native");
    const writes = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith("GET ")));
    expect(writes(native.requests)).toEqual(writes(dynamic.requests));
    const routes = (r: Record<string, number>) =>
      Object.keys(r)
        .filter((k) => !TASK_READ.test(k))
        .sort();
    expect(routes(native.requests)).toEqual(routes(dynamic.requests));
    expect(native.requests).toMatchObject({ "POST /cloud/v1/subnets/:project_id/:region_id 200": COUNT });
    const taskRequests = (r: Record<string, number>) => Object.entries(r).reduce((n, [k, c]) => n + (TASK_REQUESTS.test(k) ? c : 0), 0);
    for (const face of [dynamic, native]) {
      expect(face.requests["GET /cloud/v1/tasks 200"]).toBeGreaterThanOrEqual(1);
      expect(taskRequests(face.requests)).toBeLessThanOrEqual(3 * COUNT);
    }
  },
  E2E_TIMEOUT_MS,
);

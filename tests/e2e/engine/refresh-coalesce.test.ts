// Coalesced reads under the real engine: `pulumi refresh` of 30 subnets in two scopes reads
// them through at most 2 list requests per scope, not a GET each; a subnet deleted
// out-of-band is dropped only after its own GET says 404, a renamed one records the drift.
// With the list call failing, each read falls back to its own GET by id: the provider's, in
// process on both faces (tests/unit/provider/methods/read-list-fails.test.ts).
import { api, type CimsTestEnv, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const PROD_NET = "6f1c2a3b-8d4e-4f5a-b6c7-d8e9f0a1b2c3"; // project 2, region 3 in the seed

const stacks = useStacks();

const program = [
  'import * as cims from "pulumi-cims";',
  "for (let i = 0; i < 15; i++) {",
  `  new cims.Subnet(\`a\${i}\`, { name: \`a-\${i}\`, cidr: \`10.70.\${i}.0/24\`, networkId: "${SEED.networkId}" });`,
  `  new cims.Subnet(\`b\${i}\`, { name: \`b-\${i}\`, cidr: \`10.71.\${i}.0/24\`, networkId: "${PROD_NET}", projectId: 2, regionId: 3 });`,
  "}",
].join("\n");

/** The emulator's request log lines written while `fn` ran. */
async function requestsDuring(e: CimsTestEnv, fn: () => Promise<unknown>): Promise<string[]> {
  const before = e.emulator.logs.length;
  await fn();
  return e.emulator.logs.slice(before);
}

const count = (lines: string[], re: RegExp) => lines.filter((l) => re.test(l)).length;
const LIST_A = /^GET \/cloud\/v1\/subnets\/1\/1\?/;
const LIST_B = /^GET \/cloud\/v1\/subnets\/2\/3\?/;
const BY_ID = /^GET \/cloud\/v1\/subnets\/\d+\/\d+\/[0-9a-f-]{36} /;

async function subnetsInState(e: CimsTestEnv): Promise<Map<string, Record<string, unknown>>> {
  const resources = (await e.stack.exportState()).deployment.resources ?? [];
  return new Map(
    resources
      .filter((r) => r.type.endsWith("cims:Subnet"))
      .map((r) => [String(r.urn.split("::").pop()), { ...(r.outputs as Record<string, unknown>), id: r.id }]),
  );
}

test(
  "refresh of 30 subnets in 2 scopes: at most 2 list requests per scope; a deleted subnet dropped after its 404, a renamed one recorded",
  async () => {
    const env = await stacks.stack({
      taskDurationMs: 50,
      files: { "Pulumi.yaml": "name: coalesce\nruntime: nodejs\n", "index.ts": program },
    });
    await env.stack.up();
    const before = await subnetsInState(env);
    expect(before.size).toBe(30);
    const deleted = String(before.get("a3")?.id);
    const renamed = String(before.get("b7")?.id);
    expect((await api(env, "DELETE", `/cloud/v1/subnets/1/1/${deleted}`)).status).toBe(200);
    expect((await api(env, "PATCH", `/cloud/v1/subnets/2/3/${renamed}`, { name: "renamed-by-hand" })).status).toBe(200);
    // The emulator moves tasks on when it is asked: wait through the API for the delete to end.
    for (let i = 0; i < 100 && (await api(env, "GET", `/cloud/v1/subnets/1/1/${deleted}`)).status !== 404; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(env.emulator.store.get("subnets", deleted)).toBeUndefined();

    const lines = await requestsDuring(env, () => env.stack.refresh());
    expect(count(lines, LIST_A)).toBeGreaterThanOrEqual(1);
    expect(count(lines, LIST_A)).toBeLessThanOrEqual(2);
    expect(count(lines, LIST_B)).toBeGreaterThanOrEqual(1);
    expect(count(lines, LIST_B)).toBeLessThanOrEqual(2);
    // The subnet missing from the list was read by id, and that GET's 404 dropped it.
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^GET /cloud/v1/subnets/1/1/${deleted} 404 `)));
    expect(count(lines, BY_ID)).toBeLessThanOrEqual(4); // not one per subnet
    const after = await subnetsInState(env);
    expect(after.size).toBe(29);
    expect(after.has("a3")).toBe(false);
    expect(after.get("b7")).toMatchObject({ name: "renamed-by-hand" });
    expect(after.get("b6")).toMatchObject({ name: "b-6" });
  },
  E2E_TIMEOUT_MS,
);

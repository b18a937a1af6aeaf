// No orphans: a QuotaThreshold replaced or renamed is never reset by its old resource's
// delete, under the real engine (the order of a replacement's create and delete is the
// engine's, the same behind either provider, and what the old resource's delete knows is its
// provider process's memory of the run, one process on either face: so on the plugin face, the
// cheaper one). A lasting 409 failing at once with the service's words, and a create that never
// reached the service failing plainly with nothing recorded, run in process on both faces:
// tests/unit/provider/faults/plain-failures.test.ts.
import * as fs from "node:fs/promises";
import { api, type CimsTestEnv, PLUGIN_PROJECT, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

const threshold = async (e: CimsTestEnv) => (await api(e, "GET", "/cloud/v2/client_quotas/1/notification_threshold")).body.threshold;

test(
  "QuotaThreshold: up --replace and a rename without an alias keep the threshold the program sets (not the service's default)",
  async () => {
    const program = (name: string) =>
      `import * as cims from "pulumi-cims";\nnew cims.native.QuotaThreshold("${name}", { clientId: 1, threshold: 90 });\n`;
    const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT("quota-replace"), "index.ts": program("alerts") } });
    await env.stack.up();
    expect(await threshold(env)).toBe(90);

    const urn = (await env.stack.exportState()).deployment.resources?.find((r) => r.type === "cims:index:QuotaThreshold")?.urn;
    const replaced = await env.stack.up(["--replace", String(urn)]);
    expect(replaced.stdout).toMatch(/left as it is: another QuotaThreshold of this client set it in this run/);
    expect(await threshold(env)).toBe(90);

    // A rename without an alias: Pulumi creates "quota-alerts" and deletes "alerts".
    await fs.writeFile(`${env.stack.projectDir}/index.ts`, program("quota-alerts"));
    await env.stack.up();
    expect(await threshold(env)).toBe(90);
    await env.stack.preview(["--expect-no-changes"]);

    // Destroy still resets it: the setting is the stack's own.
    await env.stack.destroy();
    expect(await threshold(env)).toBe(80);
  },
  E2E_TIMEOUT_MS,
);

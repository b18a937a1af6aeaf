// No orphans, no wrong advice: a QuotaThreshold replaced or renamed is never reset
// by its old resource's delete; a lasting 409 fails at once with the service's words; a
// create that never reached the service fails plainly, with nothing recorded.
import * as fs from "node:fs/promises";
import * as net from "node:net";
import { api, type CimsTestEnv, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

const threshold = async (e: CimsTestEnv) => (await api(e, "GET", "/cloud/v2/client_quotas/1/notification_threshold")).body.threshold;

test(
  "QuotaThreshold: up --replace and a rename without an alias keep the threshold the program sets (not the service's default)",
  async () => {
    const program = (name: string) =>
      `import * as cims from "pulumi-cims";\nnew cims.QuotaThreshold("${name}", { clientId: 1, threshold: 90 });\n`;
    const env = await stacks.stack({ files: { "Pulumi.yaml": "name: quota-replace\nruntime: nodejs\n", "index.ts": program("alerts") } });
    await env.stack.up();
    expect(await threshold(env)).toBe(90);

    const urn = (await env.stack.exportState()).deployment.resources?.find((r) => r.type.endsWith("cims:QuotaThreshold"))?.urn;
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

test(
  "a lasting 409 (the subnet is still used by pool members) fails at once with the service's message; destroy converges once it clears",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId });
    await env.stack.up();
    await api(env, "POST", "/__emulator/faults", {
      method: "DELETE",
      path: "/cloud/v1/subnets/1/1/*",
      action: "status",
      status: 409,
      body: { message: "Subnet is used by 2 load balancer pool members." },
    });
    env.emulator.metrics.reset();
    const failed = await env.stack.destroy([], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toMatch(
      /DELETE \/cloud\/v1\/subnets\/1\/1\/[0-9a-f-]{36}: 409 Conflict \(ConflictError\): Subnet is used by 2 load balancer pool members/,
    );
    // Not retried: one request, no wait on a conflict that only a person can clear.
    expect(env.emulator.metrics.snapshot().requests).toMatchObject({ "DELETE /cloud/v1/subnets/:project_id/:region_id/:subnet_id 409": 1 });
    await api(env, "DELETE", "/__emulator/faults");
    await env.stack.destroy();
    expect(env.emulator.store.list("subnets")).toHaveLength(0);
  },
  E2E_TIMEOUT_MS,
);

test(
  "LbPoolSettings create against a refused connection fails plainly: nothing recorded, the next up applies it",
  async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    // Without the credential probe, which would refuse the URL at preview (credentials.test.ts):
    // this is about the create's own request.
    const env = await stacks.program("pool", { poolId: SEED.poolId, "cims:maxRetries": "0", "cims:skipCredentialsValidation": "true" });
    const url = env.emulator.url;
    await env.stack.setConfig("cims:apiUrl", `http://127.0.0.1:${closed}`);
    const failed = await env.stack.up([], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toMatch(/connection failed \(ECONNREFUSED\)/);
    expect(failed.stdout).not.toMatch(/partially created|may have created/);
    const resources = (await env.stack.exportState()).deployment.resources ?? [];
    expect(resources.filter((r) => r.type.endsWith("cims:LbPoolSettings"))).toEqual([]);
    await env.stack.setConfig("cims:apiUrl", url);
    await env.stack.up();
    expect(env.emulator.store.get("lbpools", SEED.poolId)?.name).toBe("e2e-pool");
    await env.stack.preview(["--expect-no-changes"]);
  },
  E2E_TIMEOUT_MS,
);

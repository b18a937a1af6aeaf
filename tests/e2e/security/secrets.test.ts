// The API key leaks nowhere: not in the CLI output of any command (up, preview, refresh,
// destroy, a failing run), the emulator's request log, error messages or exported state.
// Given as secret stack config (cims:apiKey), Pulumi itself keeps it, encrypted, in the
// record of its default pulumi-nodejs provider: --show-secrets reveals it there and only
// there. Given as CIMS_API_KEY, it is in no state at all, even with --show-secrets.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, type CimsTestEnv, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT, type RunResult, type StackExport } from "../../support/harness";

const stacks = useStacks();

const quickstartConfig = {
  networkId: SEED.networkId,
  volumeId: SEED.volumeId,
  poolId: SEED.poolId,
  policyId: SEED.policyId,
  clientId: SEED.clientId,
};

/**
 * What a stack's lifecycle shows (every command's output, the exported state, the emulator's
 * log), and its state as `--show-secrets` reveals it before the destroy. `firstPreview`
 * false: no `preview --diff` before the up, where the key is no config (CIMS_API_KEY): that
 * preview prints the creates' inputs, which the state read here holds too, and calls the
 * provider only as the up does (check).
 */
async function lifecycleArtifacts(e: CimsTestEnv, firstPreview = true): Promise<{ artifacts: string[]; revealed: StackExport }> {
  const outputs: RunResult[] = [];
  if (firstPreview) outputs.push(await e.stack.preview(["--diff"]));
  outputs.push(await e.stack.up());
  outputs.push(await e.stack.preview(["--diff", "--show-secrets"]));
  outputs.push(await e.stack.refresh());
  // A failing run: its error messages must not carry the key either. A new member address is a
  // member create of the pool's (members are added one by one), whose task fails.
  await api(e, "POST", "/__emulator/task-faults", {
    method: "POST",
    path: `/cloud/v1/loadbalancers/1/1/pools/${SEED.poolId}/members`,
    count: 1,
    message: "refused",
  });
  await e.stack.setConfig("memberAddress", "10.20.0.99");
  const failed = await e.stack.up([], { allowFailure: true });
  expect(failed.code).not.toBe(0);
  outputs.push(failed);
  outputs.push(await e.stack.run(["stack", "output", "--json", "--show-secrets", "--stack", e.stack.name]));
  outputs.push(await e.stack.run(["config", "--stack", e.stack.name]));
  const state = JSON.stringify(await e.stack.exportState());
  const revealed = await e.stack.exportState(["--show-secrets"]);
  outputs.push(await e.stack.destroy());
  return { artifacts: [...outputs.flatMap((o) => [o.stdout, o.stderr]), state, e.emulator.logs.join("\n")], revealed };
}

test(
  "key as secret stack config: absent from every artifact; --show-secrets shows it only in Pulumi's own provider record",
  async () => {
    const env = await stacks.stack({
      programDir: path.join(REPO_ROOT, "examples/quickstart"),
      files: { "Pulumi.yaml": "name: secrets\nruntime: nodejs\n" },
      config: quickstartConfig,
    });
    const key = env.apiKey;
    // The stack's config file holds the key encrypted (the harness writes it from the run's
    // template, harness.ts stackTemplate), and the CLI decrypts it to the key.
    const stackFile = await fs.readFile(path.join(env.stack.projectDir, `Pulumi.${env.stack.name}.yaml`), "utf8");
    const { stdout } = await env.stack.run(["config", "--json", "--show-secrets", "--stack", env.stack.name]);
    expect(JSON.parse(stdout)["cims:apiKey"]).toEqual({ value: key, secret: true });
    const { artifacts, revealed } = await lifecycleArtifacts(env);
    expect([stackFile, ...artifacts].filter((a) => a.includes(key))).toEqual([]);
    const resources = revealed.deployment.resources ?? [];
    expect(resources.filter((r) => JSON.stringify(r).includes(key)).map((r) => r.type)).toEqual(["pulumi:providers:pulumi-nodejs"]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "key as CIMS_API_KEY: in no artifact and no state, even with --show-secrets",
  async () => {
    const env = await stacks.stack({
      programDir: path.join(REPO_ROOT, "examples/quickstart"),
      files: { "Pulumi.yaml": "name: secrets-env\nruntime: nodejs\n" },
      config: quickstartConfig,
      keyVia: "env",
    });
    const { artifacts, revealed } = await lifecycleArtifacts(env, false);
    expect((revealed.deployment.resources ?? []).length).toBeGreaterThan(1);
    expect([...artifacts, JSON.stringify(revealed)].filter((a) => a.includes(env.apiKey))).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

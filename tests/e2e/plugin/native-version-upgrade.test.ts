// A plugin-face stack written before the `cims.native.*` classes asked for the plugin at the
// package's version: its default provider is `default` (no version); the classes now ask for
// `default_<version>`. The engine diffs the two default providers' configuration, which only
// the version tells apart, so nothing is replaced, updated or shown as a change.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { PLUGIN_PROJECT, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

/** `before`: the resources register with no version, as the classes did before. */
const program = (before: boolean) => {
  const opts = before ? ", { version: undefined }" : "";
  return `import * as cims from "pulumi-cims";
new cims.native.Subnet("net", { name: "upgrade-net", cidr: "10.182.0.0/24", networkId: "${SEED.networkId}" }${opts});
new cims.native.QuotaThreshold("quota", { clientId: ${SEED.clientId}, threshold: 85 }${opts});
`;
};

const providersOf = async (env: Awaited<ReturnType<typeof stacks.stack>>) =>
  new Set(
    ((await env.stack.exportState()).deployment.resources ?? [])
      .filter((r) => r.type.startsWith("cims:"))
      .map((r) => /pulumi:providers:cims::([^:]+)::/.exec(JSON.stringify(r))?.[1]),
  );

test(
  "a stack whose default provider is unversioned previews no change after the upgrade, and its next up touches nothing",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT("native-upgrade"), "index.ts": program(true) } });
    await env.stack.up();
    expect(await providersOf(env)).toEqual(new Set(["default"]));
    const records = structuredClone(env.emulator.store.list("subnets"));

    await fs.writeFile(path.join(env.stack.projectDir, "index.ts"), program(false));
    const preview = await env.stack.preview(["--expect-no-changes", "--diff"]);
    expect(preview.stdout).toMatch(/3 unchanged/);
    const up = await env.stack.up();
    expect(up.stdout).toMatch(/3 unchanged/);
    expect(await providersOf(env)).toEqual(new Set(["default_0_1_0"]));
    expect(env.emulator.store.list("subnets")).toEqual(records);
  },
  E2E_TIMEOUT_MS,
);

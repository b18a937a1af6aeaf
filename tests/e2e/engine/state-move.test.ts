// Splitting a stack, on both faces: a team's monolith holds 100 subnets, the LbPoolSettings whose
// member is on the first of them, and a subnet that stays. `pulumi state move` takes them to a
// new stack of another project (its own secrets salt, API key and project config, on the same
// backend) in two batches, as a team moves a large stack: the subnets no resource uses, then the
// new stack's first `up`, then the rest with the pool settings that use one of them, into the
// stack now deployed. The CLI copies the default provider the resources use, with the config the
// monolith recorded (on the dynamic face every key of its stack config, secrets included); the
// first `up` records the new stack's own. Then each stack's program previews no changes, and
// nothing was written to the service from the first move on.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { type Face, faceProject, onFace, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS, type RunResult, type StackExport, type TestStack } from "../../support/harness";

const stacks = useStacks();

const SUBNETS = 100;
/** The first batch: the subnets from here on, which no other resource uses. */
const FIRST_BATCH_FROM = 50;
const NETWORK_KEY = "e2e-network-team-key";

/** The subnets net-<from> to net-<to - 1>, and the pool settings whose member is on net-0 where they include it. */
const moved = (from: number, to = SUBNETS): string[] => [
  `const subnets = Array.from({ length: ${to - from} }, (_, i) =>`,
  `  new cims.Subnet(\`net-\${i + ${from}}\`, { name: \`net-\${i + ${from}}\`, cidr: \`10.30.\${i + ${from}}.0/24\`, networkId: "${SEED.networkId}" }),`,
  ");",
  ...(from > 0
    ? []
    : [
        'new cims.LbPoolSettings("web", {',
        `  poolId: "${SEED.poolId}",`,
        '  members: [{ address: "10.30.0.10", protocolPort: 8080, subnetId: subnets[0].id }],',
        "});",
      ]),
];
const KEPT = `new cims.Subnet("keep", { name: "keep", cidr: "10.31.0.0/24", networkId: "${SEED.networkId}" });`;
const program = (lines: string[], face: Face) => onFace(['import * as cims from "pulumi-cims";', ...lines].join("\n"), face);

type Entry = NonNullable<StackExport["deployment"]["resources"]>[number];
const entries = async (stack: TestStack): Promise<Entry[]> => (await stack.exportState()).deployment.resources ?? [];
const isProvider = (r: Entry) => r.type.startsWith("pulumi:providers:");
/** A resource's type and name, as both stacks' URNs end. */
const typeAndName = (r: Entry) => r.urn.split("::").slice(2).join("::");
/** The input of the provider that holds the API key: the dynamic face's provider holds the whole stack config. */
const keyInput = (face: Face) => (face === "dynamic" ? "cims:apiKey" : "apiKey");

/** The stack's provider: its id, whether it holds the monolith's own config, and its API key as the CLI decrypts it for the stack. */
async function providerOf(stack: TestStack, face: Face) {
  const provider = (await stack.exportState(["--show-secrets"])).deployment.resources?.find(isProvider);
  const key = provider?.inputs?.[keyInput(face)] as { plaintext?: string } | undefined;
  return { id: provider?.id, monolithConfig: "monolith:owner" in (provider?.inputs ?? {}), key: key?.plaintext };
}

const salt = async (stack: TestStack) =>
  /^encryptionsalt: (\S+)$/m.exec(await fs.readFile(path.join(stack.projectDir, `Pulumi.${stack.name}.yaml`), "utf8"))?.[1];

/** What the CLI said of a move: how many resources it planned to move, whether it warned of broken dependencies, and that it moved them. */
const said = (move: RunResult) => ({
  planned: move.stdout.includes(
    "Planning to move the following resources from organization/monolith/monolith to organization/network/network:",
  ),
  listed: move.stdout.split("\n").filter((l) => l.startsWith("  - urn:pulumi:monolith::monolith::")).length,
  brokenDependencies: /have dependencies on/.test(move.stdout),
  done: move.stdout.includes("Successfully moved resources from organization/monolith/monolith to organization/network/network"),
});

test.each<Face>(["dynamic", "native"])(
  "%s face: state move of 100 subnets and their pool settings to a new stack in two batches; both preview no changes and nothing is written",
  async (face) => {
    const env = await stacks.stack({
      stackName: "monolith",
      // What a move does between stacks of two passphrase salts, as docs/platform.md tells it.
      secretsProvider: "passphrase",
      taskDurationMs: 20,
      config: { "monolith:owner": "payments" },
      files: { "Pulumi.yaml": faceProject("monolith", face), "index.ts": program([...moved(0), KEPT], face) },
    });
    const monolith = env.stack;
    await monolith.up();
    env.emulator.apiKeys.add(NETWORK_KEY);
    const network = await stacks.bare({
      stackName: "network",
      secretsProvider: "passphrase",
      typeCheck: false,
      env: { PULUMI_BACKEND_URL: monolith.env.PULUMI_BACKEND_URL! },
      files: { "Pulumi.yaml": faceProject("network", face), "index.ts": program(moved(FIRST_BATCH_FROM), face) },
      config: { "cims:apiUrl": env.emulator.url, "cims:projectId": "1", "cims:regionId": "1", "network:owner": "netops" },
      secrets: { "cims:apiKey": NETWORK_KEY },
    });
    const before = await entries(monolith);
    const source = await providerOf(monolith, face);
    const urnsOf = (names: (name: string) => boolean) => before.filter((r) => names(r.urn.split("::").pop()!)).map((r) => r.urn);
    const index = (name: string) => Number(/^net-(\d+)$/.exec(name)?.[1] ?? -1);
    env.emulator.metrics.reset();
    // Run in the new stack's project: the CLI names the source by its fully qualified name.
    const move = (urns: string[]) =>
      network.run(["state", "move", "--yes", "--source", "organization/monolith/monolith", "--dest", "network", ...urns]);

    const first = await move(urnsOf((name) => index(name) >= FIRST_BATCH_FROM));
    const arrived = await entries(network);
    expect({
      said: said(first),
      saltsDiffer: (await salt(network)) !== (await salt(monolith)),
      arrived: arrived.filter((r) => !r.type.startsWith("pulumi:")).length,
      renamed: arrived.every((r) => r.urn.startsWith("urn:pulumi:network::network::")),
      provider: await providerOf(network, face),
    }).toEqual({
      said: { planned: true, listed: SUBNETS - FIRST_BATCH_FROM, brokenDependencies: false, done: true },
      saltsDiffer: true,
      arrived: SUBNETS - FIRST_BATCH_FROM,
      renamed: true,
      // The monolith's provider, re-encrypted for the new stack.
      provider: { id: source.id, monolithConfig: face === "dynamic", key: JSON.stringify(env.apiKey) },
    });

    await network.up(["--expect-no-changes"]);
    const deployed = await providerOf(network, face);
    expect(deployed).toEqual({ id: source.id, monolithConfig: false, key: JSON.stringify(NETWORK_KEY) });

    const second = await move(urnsOf((name) => name === "web" || (index(name) >= 0 && index(name) < FIRST_BATCH_FROM)));
    await fs.writeFile(path.join(network.projectDir, "index.ts"), program(moved(0), face));
    await fs.writeFile(path.join(monolith.projectDir, "index.ts"), program([KEPT], face));
    await monolith.preview(["--expect-no-changes"]);
    await network.preview(["--expect-no-changes"]);
    expect({
      said: said(second),
      left: (await entries(monolith)).map(typeAndName),
      network: (await entries(network)).filter((r) => !r.type.startsWith("pulumi:")).length,
      // The new stack's provider stays its own: the CLI takes the monolith's, of the same id, for it.
      provider: await providerOf(network, face),
      writes: writes(env),
    }).toEqual({
      said: { planned: true, listed: FIRST_BATCH_FROM + 1, brokenDependencies: false, done: true },
      left: ["pulumi:pulumi:Stack::monolith-monolith", ...before.filter((r) => isProvider(r) || r.urn.endsWith("::keep")).map(typeAndName)],
      network: SUBNETS + 1,
      provider: deployed,
      writes: [],
    });
  },
  E2E_TIMEOUT_MS,
);

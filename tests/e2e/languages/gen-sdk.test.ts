// SDKs of the plugin for other languages, from its schema: `pulumi package gen-sdk` through
// our language hosts (the Node.js host's GeneratePackage, and the Go host scripts/pulumi
// builds beside the CLI). The Node.js SDK compiles with tsc, the Go SDK with `go build` and
// `go vet`, the lookups' functions in both; then a Go program using the Go SDK looks up a network
// (the plugin's Invoke), deploys a subnet on it (a required output) and pauses a
// policy (an enum) through the plugin against the emulator,
// previews with no changes. Go runs offline (support/go.ts).
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { PLUGIN_PROJECT, SEED, useStacks } from "../../support/cims";
import { GO_ENV, goModule, SDK_MODULE } from "../../support/go";
import { E2E_TIMEOUT_MS, REPO_ROOT, runCommand } from "../../support/harness";

const stacks = useStacks("all");
/** Each resource of the schema by its name (`Subnet`), as the generators name files. */
async function schemaResources(): Promise<string[]> {
  const schema = JSON.parse(await fs.readFile(path.join(REPO_ROOT, "schema.json"), "utf8")) as { resources: Record<string, unknown> };
  return Object.keys(schema.resources).map((token) => token.split(":")[2]);
}
/** Each function of the schema by its name (`getSubnet`). */
async function schemaFunctions(): Promise<string[]> {
  const schema = JSON.parse(await fs.readFile(path.join(REPO_ROOT, "schema.json"), "utf8")) as { functions: Record<string, unknown> };
  return Object.keys(schema.functions).map((token) => token.split(":")[2]);
}
const camel = (name: string) => name[0].toLowerCase() + name.slice(1);

/**
 * The Go SDK's packages by import path. Named one by one: a `/...` pattern outside the main
 * module loads the whole module graph, old modules' test dependencies too, which the cache
 * does not hold.
 */
async function goPackages(sdkDir: string): Promise<string[]> {
  const files = (await fs.readdir(path.join(sdkDir, "go"), { recursive: true })).filter((f) => f.endsWith(".go"));
  return [...new Set(files.map((f) => `${SDK_MODULE}/go/${path.dirname(f)}`))].sort();
}

const goProgram = `package main

import (
	"${SDK_MODULE}/go/cims"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// A lookup through the plugin's Invoke: the network by its name.
		found, err := cims.GetNetwork(ctx, &cims.GetNetworkArgs{Name: pulumi.StringRef("demo-net")})
		if err != nil {
			return err
		}
		net, err := cims.NewSubnet(ctx, "net", &cims.SubnetArgs{
			Name:      pulumi.String("go-net"),
			Cidr:      pulumi.String("10.190.0.0/24"),
			NetworkId: pulumi.String(found.Id),
			IpVersion: cims.IpVersionV4, // an enum of numbers
			Tags:      pulumi.StringMap{"env": pulumi.String("dev")},
		})
		if err != nil {
			return err
		}
		// An enum field takes the enum's constant.
		if _, err := cims.NewSnapshotPolicyStateResource(ctx, "policy", &cims.SnapshotPolicyStateResourceArgs{
			PolicyId: pulumi.Int(${SEED.policyId}),
			Status:   cims.SnapshotPolicyStatusPaused,
		}); err != nil {
			return err
		}
		ctx.Export("subnetId", net.ID())
		ctx.Export("totalIps", net.TotalIps)
		// The service always returns it: a plain output, not a pointer.
		var created pulumi.StringOutput = net.CreatedAt
		ctx.Export("createdAt", created)
		ctx.Export("where", pulumi.Sprintf("%s/%s region %s", ctx.Project(), ctx.Stack(), config.Get(ctx, "cims:regionId")))
		return nil
	})
}
`;

test(
  "gen-sdk writes a Node.js SDK that tsc compiles and a Go SDK that go build and go vet pass, functions and all; a Go program on it (a lookup, an enum, a required output) deploys and has no changes",
  async () => {
    const env = await stacks.stack({
      files: { "Pulumi.yaml": PLUGIN_PROJECT("go-program", "go") },
      env: GO_ENV,
    });
    const sdk = path.join(env.stack.root, "sdk");
    const schema = path.join(REPO_ROOT, "schema.json");
    const gen = (language: string) => env.stack.run(["package", "gen-sdk", schema, "--language", language, "-o", sdk]);
    const [nodeGen, goGen] = await Promise.all([gen("nodejs"), gen("go")]);
    expect(nodeGen.stderr).toContain(`SDK has been written to ${path.join(sdk, "nodejs")}`);
    expect(goGen.stderr).toContain(`SDK has been written to ${path.join(sdk, "go")}`);

    const resources = await schemaResources();
    const nodeSdk = path.join(sdk, "nodejs");
    for (const name of resources) {
      expect(await fs.readFile(path.join(nodeSdk, `${camel(name)}.ts`), "utf8")).toContain(`__pulumiType = 'cims:index:${name}'`);
      expect(await fs.readFile(path.join(sdk, "go/cims", `${camel(name)}.go`), "utf8")).toContain(`RegisterResource("cims:index:${name}"`);
    }
    for (const name of await schemaFunctions()) {
      expect(await fs.readFile(path.join(nodeSdk, `${name}.ts`), "utf8")).toContain(`invoke("cims:index:${name}"`);
      expect(await fs.readFile(path.join(sdk, "go/cims", `${name}.go`), "utf8")).toContain(`Invoke("cims:index:${name}"`);
    }

    // Both SDKs compile: the Node.js one as its package.json builds it (tsc, its own
    // tsconfig, strict), against this checkout's @pulumi/pulumi; the Go one in the module
    // the program builds in (all its packages, config too).
    await fs.symlink(path.join(REPO_ROOT, "node_modules"), path.join(nodeSdk, "node_modules"), "dir");
    await goModule(env.stack.projectDir, sdk, goProgram);
    const goEnv = { ...process.env, ...GO_ENV };
    const goSdk = await goPackages(sdk);
    await Promise.all([
      runCommand(path.join(REPO_ROOT, "node_modules/.bin/tsc"), ["-p", nodeSdk], process.env),
      runCommand("go", ["build", "-trimpath", ...goSdk], goEnv, { cwd: env.stack.projectDir }),
    ]);
    // The SDK and the program on it (an enum, a required output) pass go vet too.
    await runCommand("go", ["vet", ...goSdk, "."], goEnv, { cwd: env.stack.projectDir });
    for (const name of resources) await fs.access(path.join(nodeSdk, "bin", `${camel(name)}.js`));

    // The Go host builds the program and runs it; the engine reaches the plugin from
    // Pulumi.yaml's plugins.providers.
    const { store } = env.emulator;
    await env.stack.up();
    const outputs = await env.stack.outputs();
    expect(outputs.totalIps).toBe("254");
    expect(outputs.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The host passed the run's project, stack and config to the program.
    expect(outputs.where).toBe("go-program/e2e region 1");
    expect(store.get("subnets", String(outputs.subnetId))).toMatchObject({
      name: "go-net",
      cidr: "10.190.0.0/24",
      tags: expect.arrayContaining([expect.objectContaining({ key: "env", value: "dev" })]),
    });
    expect(store.get("lifecycle_policies", Number(SEED.policyId))?.status).toBe("paused");
    const state = await env.stack.exportState();
    expect(state.deployment.resources?.find((r) => r.id === outputs.subnetId)).toMatchObject({
      type: "cims:index:Subnet",
      inputs: expect.objectContaining({ ipVersion: 4 }),
    });

    await env.stack.preview(["--expect-no-changes"]);
    // pulumi about lists the program's direct requirements from its go.mod, as the official
    // host does: a module replaced by a local path has no version.
    const about = JSON.parse((await env.stack.run(["about", "--json", "--stack", env.stack.name])).stdout) as {
      dependencies: Array<{ name: string; version: string }> | null;
      errors?: string[];
    };
    expect(about.errors ?? []).toEqual([]);
    expect(about.dependencies).toEqual(
      expect.arrayContaining([
        { name: "github.com/pulumi/pulumi/sdk/v3", version: "v3.248.0" },
        { name: SDK_MODULE, version: "" },
      ]),
    );
    // No destroy: it runs no Go, only the plugin over the state, whose destroy of a Subnet and
    // a SnapshotPolicyState the other plugin-face stacks run (plugin-face.test.ts).
  },
  E2E_TIMEOUT_MS,
);

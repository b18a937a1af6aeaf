// Go programs on the plugin's Go SDK (`pulumi package gen-sdk --language go`), built offline:
// every module comes from the Go module cache the CLI's build filled, verified against the
// committed sums.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { GO_SDK_PACKAGE } from "../../provider/import/render";
import { REPO_ROOT } from "./harness";

const GO_CLI = path.join(REPO_ROOT, "scripts/pulumi-cli");

/** The Go SDK's module: the import path of its package (`<module>/go/cims`, schema.json's) less `/go/cims`. */
export const SDK_MODULE = GO_SDK_PACKAGE.replace(/\/go\/cims$/, "");

/** The environment `go` runs in: the local toolchain, the committed sums, no proxy. */
export const GO_ENV = { GOTOOLCHAIN: "local", GOFLAGS: "-mod=readonly", GOPROXY: "off" };

/**
 * A Go module of `main.go` that uses the SDK in `sdkDir`: yaml.mod (the graph the CLI's own
 * modules come from, plus the Go SDK's spf13/cast) as its requirements, so the build needs
 * no module the cache lacks, and yaml.sum to verify them.
 */
export async function goModule(dir: string, sdkDir: string, main: string): Promise<void> {
  const mod = (await fs.readFile(path.join(GO_CLI, "yaml.mod"), "utf8"))
    .replace(/^module .*$/m, "module cims-go-program")
    .replace(/^tool .*$/gm, "");
  await fs.writeFile(path.join(sdkDir, "go.mod"), `module ${SDK_MODULE}\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.248.0\n`);
  await fs.writeFile(
    path.join(dir, "go.mod"),
    `${mod}\nrequire ${SDK_MODULE} v0.0.0\n\nreplace ${SDK_MODULE} => ${path.relative(dir, sdkDir)}\n`,
  );
  await fs.copyFile(path.join(GO_CLI, "yaml.sum"), path.join(dir, "go.sum"));
  await fs.writeFile(path.join(dir, "main.go"), main);
}

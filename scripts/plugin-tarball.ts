// `npm run plugin:tarball [-- OUT_DIR]`: writes pulumi-resource-cims-v<version>-<os>-<arch>.tar.gz
// (default OUT_DIR: dist/), the provider plugin as Pulumi installs any plugin:
//
//   pulumi plugin install resource cims <version> -f pulumi-resource-cims-v<version>-<os>-<arch>.tar.gz
//
// Inside: pulumi-resource-cims.js, the plugin and every dependency bundled into one file (so
// the user needs no npm and no node_modules), and pulumi-resource-cims, a POSIX shell launcher
// the engine runs, which starts it with the `node` on PATH (Node.js 20 or later). The bundle is
// plain JavaScript; the os and arch in the name are the launcher's (a shell script: not Windows).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as esbuild from "esbuild";
import { messageOf } from "../api/messages";

const ROOT = path.resolve(__dirname, "..");
const NAME = "pulumi-resource-cims";

const LAUNCHER = `#!/bin/sh
# ${NAME}: the Pulumi resource provider plugin of pulumi-cims, bundled in ${NAME}.js beside
# this file. It runs on Node.js 20 or later, from PATH.
if ! command -v node >/dev/null 2>&1; then
  echo "${NAME}: Node.js is not on PATH; install Node.js 20 or later (https://nodejs.org) and run the command again" >&2
  exit 1
fi
exec node "$(dirname "$0")/${NAME}.js" "$@"
`;

/** Pulumi's spelling of the platform in plugin file names. */
function platform(): string {
  const goos: Record<string, string> = { win32: "windows" };
  const goarch: Record<string, string> = { x64: "amd64", ia32: "386" };
  return `${goos[process.platform] ?? process.platform}-${goarch[process.arch] ?? process.arch}`;
}

/**
 * proto.ts loads grpc-js and google-protobuf from wherever the installed @pulumi/pulumi is (so
 * they are the copies its stubs check `instanceof` against). In a bundle there is one copy of
 * each and no node_modules to look in, so those look-ups become plain imports.
 */
const PROTO = /provider[/\\]proto\.ts$/;

/** The rewrite of proto.ts for a bundle; `applied` says it ran (a moved proto.ts would otherwise bundle its look-ups, which fail at run time). */
const staticProto = (applied: { proto: boolean }): esbuild.Plugin => ({
  name: "static-proto",
  setup(build) {
    build.onLoad({ filter: PROTO }, (args) => {
      applied.proto = true;
      const source = fs.readFileSync(args.path, "utf8");
      const contents = source.replace(/^const (base|fromPulumi) = .*$/gm, "").replace(/fromPulumi\(\s*("[^"]+"),?\s*\)/g, "require($1)");
      if (/fromPulumi|require\.resolve/.test(contents)) throw new Error(`${args.path}: a look-up left that a bundle cannot make`);
      return { contents, loader: "ts" };
    });
  },
});

export async function writePluginTarball(outDir: string): Promise<string> {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), `${NAME}-`));
  try {
    const applied = { proto: false };
    await esbuild.build({
      entryPoints: [path.join(ROOT, "provider/plugin/cli.ts")],
      outfile: path.join(stage, `${NAME}.js`),
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      logLevel: "warning",
      plugins: [staticProto(applied)],
    });
    if (!applied.proto)
      throw new Error(
        `the bundle never loaded a file matching ${String(PROTO)}: its look-ups of @pulumi/pulumi's modules would fail at run time`,
      );
    fs.writeFileSync(path.join(stage, NAME), LAUNCHER, { mode: 0o755 });
    fs.mkdirSync(outDir, { recursive: true });
    const tarball = path.join(path.resolve(outDir), `${NAME}-v${version}-${platform()}.tar.gz`);
    execFileSync("tar", ["-czf", tarball, "-C", stage, NAME, `${NAME}.js`]);
    return tarball;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

if (require.main === module) {
  writePluginTarball(process.argv[2] ?? path.join(ROOT, "dist")).then(
    (tarball) => console.log(tarball),
    (err: unknown) => {
      console.error(`plugin:tarball: ${messageOf(err)}`);
      process.exit(1);
    },
  );
}

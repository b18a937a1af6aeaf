// scripts/pulumi without a cached CLI: without Go, a clear message, not a stack trace; while
// another build holds the lock, a line saying what it waits for, not silence.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const script = path.resolve(__dirname, "../../scripts/pulumi");

test("scripts/pulumi explains what to install when Go is missing", () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cims-nocache-"));
  try {
    // A PATH with the basic tools but neither go nor any pulumi.
    const result = spawnSync(script, ["version"], {
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", HOME: cache, PULUMI_CIMS_CACHE_DIR: cache },
    });
    expect(result.status).toBe(127);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Go is not installed");
    expect(result.stderr).toContain("Install Go 1.25.11 or newer");
    expect(result.stderr).toContain("v3.248.0");
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});

test("scripts/pulumi says what it waits for while another build holds the lock, then goes on", async () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cims-lock-"));
  const lock = path.join(cache, "build.lock");
  // Another build: a process group holding the lock until we end it.
  const holder = spawn("flock", [lock, "-c", "echo held; exec sleep 60"], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
  const release = () => {
    try {
      process.kill(-holder.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout.once("data", () => resolve());
      holder.once("exit", (code) => reject(new Error(`flock exited ${code}`)));
    });
    // Without Go, the build that follows the wait stops at once.
    const waiter = spawn(script, ["version"], {
      env: { PATH: "/usr/bin:/bin", HOME: cache, PULUMI_CIMS_CACHE_DIR: cache },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    waiter.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => waiter.on("exit", resolve));
    const deadline = Date.now() + 20_000;
    while (!stderr.includes("waiting for") && Date.now() < deadline && waiter.exitCode === null) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(stderr).toBe(`pulumi-cims: waiting for another build of the Pulumi CLI (lock ${lock}) ...\n`);
    expect(waiter.exitCode).toBeNull();
    release();
    expect(await exited).toBe(127);
    expect(stderr).toContain("Go is not installed");
  } finally {
    release();
    fs.rmSync(cache, { recursive: true, force: true });
  }
}, 60_000);

const CLI_MODULE = path.resolve(__dirname, "../../scripts/pulumi-cli");

/** The module versions a go.mod-style file requires, by module path. */
const requires = (file: string) =>
  new Map(
    fs
      .readFileSync(path.join(CLI_MODULE, file), "utf8")
      .split("\n")
      .map((line) => /^\s+(\S+) (v\S+)/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], m[2]]),
  );
const sums = (file: string) => new Set(fs.readFileSync(path.join(CLI_MODULE, file), "utf8").split("\n").filter(Boolean));

test("yaml.mod (the YAML host's module file) is go.mod plus pulumi-yaml's requirements: the CLI and the host share one graph", () => {
  const cli = requires("go.mod");
  const yaml = requires("yaml.mod");
  // What yaml.mod changes of go.mod: one bump, of a module the CLI uses only to name temporaries.
  const changed = [...cli].filter(([mod, v]) => yaml.get(mod) !== v).map(([mod, v]) => `${mod} ${v} -> ${yaml.get(mod)}`);
  expect(changed).toEqual(["github.com/pulumi/inflector v0.1.1 -> v0.2.1"]);
  expect(yaml.get("github.com/pulumi/pulumi/pkg/v3")).toBe("v3.248.0");
  expect(yaml.get("github.com/pulumi/pulumi-yaml")).toBe("v1.37.0");
  const yamlSums = sums("yaml.sum");
  expect([...sums("go.sum")].filter((line) => !yamlSums.has(line))).toEqual([]);
});

test("java.mod (the Java host's module file) is go.mod plus pulumi-java v1.12.0, changing none of the CLI's versions", () => {
  const cli = requires("go.mod");
  const java = requires("java.mod");
  expect([...cli].filter(([mod, v]) => java.get(mod) !== v)).toEqual([]);
  expect([...java.keys()].filter((mod) => !cli.has(mod))).toEqual(["github.com/pulumi/pulumi-java/pkg"]);
  expect(java.get("github.com/pulumi/pulumi-java/pkg")).toBe("v1.12.0");
  const javaSums = sums("java.sum");
  expect([...sums("go.sum")].filter((line) => !javaSums.has(line))).toEqual([]);
});

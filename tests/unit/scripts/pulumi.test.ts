// scripts/pulumi without a cached CLI: without Go, a clear message, not a stack trace; while
// another build holds the lock, a line every few seconds saying what it waits for, not silence;
// a build's long steps say how far they are; a build that died or failed leaves the next one a
// clean start and its own log. The builds here run a stand-in `go` in a temporary cache.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const script = path.resolve(__dirname, "../../../scripts/pulumi");

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

/**
 * A cache and a PATH whose `go` (and `patch`) stand in for the real ones: `go build` prints a
 * package name a line ($FAKE_GO_PACKAGES lines, $FAKE_GO_PAUSE seconds apart) and writes a
 * `pulumi` that prints the version; FAKE_GO_FAIL=1 makes it fail as a compile error does.
 * Each `go build`'s arguments are a line of go.builds.
 */
function fakeBuild(): { dir: string; cache: string; env: NodeJS.ProcessEnv; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cims-fakego-"));
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, "go"),
    `#!/bin/sh
case "$1 $2" in
  "mod download")
    case "$*" in *-json*) mkdir -p "${dir}/yaml-src" && printf '{\\n\\t"Dir": "%s",\\n}\\n' "${dir}/yaml-src" ;; esac
    exit 0 ;;
esac
echo $$ >>"${dir}/go.pids"
echo "$*" >>"${dir}/go.builds"
out=
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
n=0
while [ $n -lt "\${FAKE_GO_PACKAGES:-2}" ]; do n=$((n + 1)); echo "example.com/pkg$n" >&2; sleep "\${FAKE_GO_PAUSE:-0}"; done
[ -z "$FAKE_GO_FAIL" ] || { echo "fake go: compile error in example.com/pkg$n" >&2; exit 2; }
printf '#!/bin/sh\\necho v3.248.0\\n' >"$out" && chmod +x "$out"
`,
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(bin, "patch"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const cache = path.join(dir, "cache");
  const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: dir, PULUMI_CIMS_CACHE_DIR: cache, PULUMI_CIMS_PROGRESS_SECONDS: "1" };
  return { dir, cache, env, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

interface Run {
  pid: number;
  stderr: () => string;
  exited: Promise<{ code: number | null; stdout: string }>;
}

function start(env: NodeJS.ProcessEnv): Run {
  const child = spawn(script, ["version"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; stdout: string }>((resolve) => child.on("close", (code) => resolve({ code, stdout })));
  return { pid: child.pid!, stderr: () => stderr, exited };
}

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const logsOf = (cache: string) => fs.readdirSync(path.join(cache, "logs")).map((f) => path.join(cache, "logs", f));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("scripts/pulumi says every few seconds what it waits for while another build holds the lock, then goes on", async () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cims-lock-"));
  const lock = path.join(cache, "build.lock");
  // A build of an older scripts/pulumi, which names no owner: a process group holding the lock until we end it.
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
    const waiter = start({ PATH: "/usr/bin:/bin", HOME: cache, PULUMI_CIMS_CACHE_DIR: cache, PULUMI_CIMS_PROGRESS_SECONDS: "1" });
    await until("a second waiting line", () => (waiter.stderr().match(/waiting for/g) ?? []).length >= 2);
    expect(waiter.stderr()).toMatch(
      new RegExp(
        `^pulumi-cims: waiting for another build of the Pulumi CLI \\(lock ${lock}, 0s so far\\) \\.\\.\\.\npulumi-cims: waiting for another build of the Pulumi CLI \\(lock ${lock}, [12]s so far\\)`,
      ),
    );
    release();
    expect((await waiter.exited).code).toBe(127);
    expect(waiter.stderr()).toContain("Go is not installed");
  } finally {
    release();
    fs.rmSync(cache, { recursive: true, force: true });
  }
}, 60_000);

test("a long build step says how far it is with its elapsed time; a run waiting for it shows that progress", async () => {
  const fake = fakeBuild();
  try {
    const builder = start({ ...fake.env, FAKE_GO_PACKAGES: "5", FAKE_GO_PAUSE: "0.4" });
    await until("the build to start compiling", () => builder.stderr().includes("compiling the pulumi CLI ..."));
    const waiter = start(fake.env);
    expect(await builder.exited).toEqual({ code: 0, stdout: "v3.248.0\n" });
    expect(await waiter.exited).toEqual({ code: 0, stdout: "v3.248.0\n" });
    expect(builder.stderr()).toMatch(/pulumi-cims: {3}compiling the pulumi CLI: [1-9]s elapsed, [1-8] lines of go output/);
    expect(waiter.stderr()).toMatch(
      new RegExp(`pulumi-cims: waiting for the build of the Pulumi CLI by pid ${builder.pid} \\(\\d+s so far\\); it says: .*compiling the`),
    );
    // The waiter found everything built: one build, one log.
    expect(waiter.stderr()).not.toContain("log of this build");
    expect(logsOf(fake.cache)).toHaveLength(1);
  } finally {
    fake.cleanup();
  }
}, 60_000);

test("a build killed mid-step leaves no lock behind: the next run takes over at once, says so, and stops what it left running", async () => {
  const fake = fakeBuild();
  try {
    const killed = start({ ...fake.env, FAKE_GO_PACKAGES: "100", FAKE_GO_PAUSE: "0.5" });
    await until("the build to compile", () => /compiling the pulumi CLI: \ds elapsed/.test(killed.stderr()));
    process.kill(killed.pid, "SIGKILL"); // Its step (the fake go) goes on running, as an orphan.
    await killed.exited;
    const [orphan] = fs.readFileSync(path.join(fake.dir, "go.pids"), "utf8").trim().split("\n").map(Number);
    expect(alive(orphan)).toBe(true);
    const [killedLog] = logsOf(fake.cache);
    const startedAt = Date.now();
    const next = start(fake.env);
    expect(await next.exited).toEqual({ code: 0, stdout: "v3.248.0\n" });
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    expect(next.stderr()).toContain(
      `pulumi-cims: a build of the Pulumi CLI by pid ${killed.pid} ended unfinished (its log: ${killedLog}); starting afresh`,
    );
    expect(alive(orphan)).toBe(false);
    // Its log is its own: the next build wrote another.
    expect(fs.readFileSync(killedLog, "utf8")).toContain("example.com/pkg1\n");
    expect(logsOf(fake.cache)).toHaveLength(2);
  } finally {
    fake.cleanup();
  }
}, 60_000);

test("a failed build says why, keeps its log and leaves the next build a clean start", async () => {
  const fake = fakeBuild();
  try {
    const failed = start({ ...fake.env, FAKE_GO_FAIL: "1" });
    expect((await failed.exited).code).toBe(1);
    const [failedLog] = logsOf(fake.cache);
    expect(failed.stderr()).toContain(`pulumi-cims: compiling the pulumi CLI failed (exit 2); last lines of ${failedLog}:`);
    expect(failed.stderr()).toContain("fake go: compile error in example.com/pkg2");
    expect(failed.stderr()).toContain("the next run starts afresh");
    const leftovers = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [e.name, ...leftovers(path.join(dir, e.name))] : []));
    expect(leftovers(fake.cache).filter((name) => name.includes(".build."))).toEqual([]);

    const next = start(fake.env);
    expect(await next.exited).toEqual({ code: 0, stdout: "v3.248.0\n" });
    expect(next.stderr()).not.toContain("ended unfinished");
    expect(fs.readFileSync(failedLog, "utf8")).toContain("fake go: compile error in example.com/pkg2");
    expect(logsOf(fake.cache)).toHaveLength(2);
  } finally {
    fake.cleanup();
  }
}, 60_000);

test("one build makes the CLI and every language host, Java's included, the same way, and puts them side by side", async () => {
  const fake = fakeBuild();
  try {
    const where = spawnSync(script, [], { env: { ...fake.env, PULUMI_CIMS_WHERE: "1" }, encoding: "utf8" });
    expect(where.status).toBe(0);
    const hosts = ["nodejs", "yaml", "go", "python", "java"].map((language) => `pulumi-language-${language}`);
    expect(fs.readdirSync(where.stdout.trim()).sort()).toEqual(
      ["pulumi", ...hosts, "pulumi-language-python-exec", "pulumi-resource-pulumi-nodejs"].sort(),
    );
    const builds = fs.readFileSync(path.join(fake.dir, "go.builds"), "utf8").trim().split("\n");
    expect(builds).toHaveLength(6);
    for (const build of builds) expect(build).toMatch(/^build -v .*-trimpath -ldflags /);
    expect(builds.find((b) => b.endsWith("./javahost"))).toMatch(/-modfile=\S+\/build\.mod .*-X main\.version=1\.12\.0 /);
    // One log for the whole build, as for every host: the Java host has no lock or cache of its own.
    expect(logsOf(fake.cache)).toHaveLength(1);
    expect(
      fs
        .readdirSync(path.join(fake.cache, "hosts"))
        .map((d) => d.replace(/-\w+$/, ""))
        .sort(),
    ).toEqual(["go", "java", "nodejs", "python", "yaml"]);
  } finally {
    fake.cleanup();
  }
}, 60_000);

test("scripts/pulumi runs through a symlink on the PATH (relative or absolute, chained) and from any directory", () => {
  const fake = fakeBuild();
  const links = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cims-links-"));
  try {
    const direct = spawnSync(script, [], { env: { ...fake.env, PULUMI_CIMS_WHERE: "1" }, encoding: "utf8" });
    expect(direct.status).toBe(0);
    // An absolute link to the script, and a relative link to that link: as a team's ~/bin would hold it.
    fs.symlinkSync(script, path.join(links, "pulumi-abs"));
    fs.symlinkSync("pulumi-abs", path.join(links, "pulumi"));
    const viaLink = spawnSync("pulumi", [], {
      cwd: os.tmpdir(),
      env: { ...fake.env, PATH: `${links}:${fake.env.PATH}`, PULUMI_CIMS_WHERE: "1" },
      encoding: "utf8",
    });
    expect(viaLink.stderr).toBe("");
    expect(viaLink.status).toBe(0);
    expect(viaLink.stdout).toBe(direct.stdout);
  } finally {
    fs.rmSync(links, { recursive: true, force: true });
    fake.cleanup();
  }
}, 60_000);

const CLI_MODULE = path.resolve(__dirname, "../../../scripts/pulumi-cli");

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

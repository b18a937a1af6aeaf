// scripts/steps.sh, what `npm run demo` runs its steps with: a long step says every few seconds
// that it still runs and for how long, instead of leaving a first run silent for minutes; and a
// warm rerun skips the compile when nothing it compiles changed since the last build.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const steps = path.resolve(__dirname, "../../../scripts/steps.sh");

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string } {
  const result = spawnSync("bash", ["--norc", "--noprofile", "-c", `set -euo pipefail; source ${JSON.stringify(steps)}; ${script}`], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH, ...env },
  });
  return { status: result.status, stdout: result.stdout + result.stderr };
}

test("run_long says every few seconds that a step still runs, with its elapsed time, then how it ended", () => {
  const ok = bash("run_long 'npm ci' sleep 2.5", os.tmpdir(), { CIMS_PROGRESS_SECONDS: "1" });
  expect(ok.status).toBe(0);
  const lines = ok.stdout.split("\n").filter(Boolean);
  // About one line a second (SECONDS ticks on whole seconds, and a busy machine stretches the sleep).
  const progress = lines.slice(0, -1).map((line) => Number(/^\[npm ci: still running, (\d+)s elapsed\]$/.exec(line)?.[1]));
  expect(progress.length).toBeGreaterThanOrEqual(2);
  expect(progress.every((seconds, i) => seconds > (progress[i - 1] ?? 0))).toBe(true);
  const took = Number(/^\[npm ci: done after (\d+)s\]$/.exec(lines.at(-1)!)?.[1]);
  expect(took).toBeGreaterThanOrEqual(progress.at(-1)!);

  const failed = bash("run_long 'pulumi up' sh -c 'exit 3' || echo \"status $?\"", os.tmpdir());
  expect(failed.stdout).toMatch(/^\[pulumi up: failed \(exit 3\) after [01]s\]\nstatus 3\n$/);
});

test("build_if_stale compiles when dist/ is missing or older than a source, and not otherwise", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cims-demo-"));
  try {
    for (const sub of ["api", "provider", "emulator", "scripts", "bin"]) fs.mkdirSync(path.join(dir, sub));
    for (const file of ["tsconfig.json", "package.json", "package-lock.json", "provider/index.ts"])
      fs.writeFileSync(path.join(dir, file), "{}");
    fs.writeFileSync(path.join(dir, "scripts/link-self.js"), "require('fs').appendFileSync('calls', 'link-self\\n')");
    // `npm run --silent build`, as the demo runs it: records the call.
    fs.writeFileSync(path.join(dir, "bin/npm"), '#!/bin/sh\necho "npm $*" >>calls\n', { mode: 0o755 });
    const env = { PATH: `${path.join(dir, "bin")}:${process.env.PATH}` };
    const calls = () => fs.readFileSync(path.join(dir, "calls"), "utf8").trim().split("\n");

    expect(bash("build_if_stale", dir, env).status).toBe(0);
    expect(calls()).toEqual(["npm run --silent build"]);

    const warm = bash("build_if_stale", dir, env);
    expect(warm.stdout).toContain("nothing to compile");
    expect(calls()).toEqual(["npm run --silent build", "link-self"]);

    // A source saved after the build: compiled again, saying which.
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(dir, "provider/index.ts"), later, later);
    const stale = bash("build_if_stale", dir, env);
    expect(stale.stdout).toContain("provider/index.ts changed since the last build");
    expect(calls()).toEqual(["npm run --silent build", "link-self", "npm run --silent build"]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The bench cannot break unseen: `bench/run.ts --smoke` runs every row of the full run once,
// at its smallest sizes, into a temporary directory, and renders every table. Its figures
// mean nothing (3 resources on a busy machine); that it runs, and what it writes, is checked.
import { createHash } from "node:crypto";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, runCommand } from "../support/harness";

// About 70 pulumi commands (stacks made, deployed, emptied): 2-3 minutes in the suite, more on a loaded machine.
const LIMIT_MS = 25 * 60_000;
const committed = ["results.json", "results.md", "hints.json", "probe-cost.json", "plugin-scale.json", "languages.json", "task-lag.svg"];
const digest = async (f: string) =>
  createHash("sha256")
    .update(await fs.readFile(path.join(REPO_ROOT, "bench", f)))
    .digest("hex");

test(
  "bench --smoke runs every row and renders every table, leaving the committed figures alone",
  async () => {
    const out = await fs.mkdtemp(path.join(os.tmpdir(), "pulumi-cims-bench-smoke-"));
    const before = await Promise.all(committed.map(digest));
    try {
      const ts = path.join(REPO_ROOT, "node_modules/.bin/ts-node");
      const res = await runCommand(ts, ["--transpile-only", "bench/run.ts", "--smoke", "--out", out], process.env, {
        cwd: REPO_ROOT,
        timeoutMs: LIMIT_MS,
        allowFailure: true,
      });
      expect({ code: res.code, tail: res.stderr.slice(-2000) }).toEqual({ code: 0, tail: expect.any(String) });
      const results = JSON.parse(await fs.readFile(path.join(out, "results.json"), "utf8"));
      // Each step of the plugin face at scale against both floors: with a Subnet's data and bare.
      const faces = { plugin: expect.any(Number), floor: expect.any(Number), floorLike: expect.any(Number) };
      expect(results.pluginScale).toEqual([{ count: 3, rounds: 1, previewMs: faces, upMs: faces, refreshMs: faces }]);
      expect(results.languages).toEqual({ count: 3, upMs: { typescript: [expect.any(Number)], python: [expect.any(Number)] } });
      expect(results.refresh.map((r: { count: number }) => r.count)).toEqual([3]);
      // Coalescing on alone under the limit: the refresh row ran it off (bench/scenarios/refresh.ts).
      expect(results.rateLimited.map((r: { mode: string }) => r.mode)).toEqual(["cims"]);
      const md = await fs.readFile(path.join(out, "results.md"), "utf8");
      for (const section of [
        "## Full run",
        "The plugin face at scale",
        "A Python program",
        "## Duration hints",
        "## Proving the key at preview",
      ]) {
        expect(md).toContain(section);
      }
      expect(md).not.toMatch(/NaN|undefined/);
      expect(await Promise.all(committed.map(digest))).toEqual(before);
    } finally {
      await fs.rm(out, { recursive: true, force: true });
    }
  },
  LIMIT_MS + 60_000,
);

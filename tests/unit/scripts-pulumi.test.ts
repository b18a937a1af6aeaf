// scripts/pulumi without a cached CLI and without Go: a clear message, not a stack trace.
import { spawnSync } from "node:child_process";
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

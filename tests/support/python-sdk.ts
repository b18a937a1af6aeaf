// A venv for Python programs using pulumi_cims: the pinned `pulumi` SDK and its dependencies
// (tests/fixtures/python/requirements.txt), then the committed SDK in sdk/python/ installed
// as a user would (`pip install`: the SDK reads its own version from the installed package's
// metadata, and asks the engine for that plugin version). Cached by venv.ts, keyed by the
// requirements and the SDK's files: after the first run, a test only links it.
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "./harness";
import { cachedVenv } from "./venv";

const REQUIREMENTS = path.join(REPO_ROOT, "tests/fixtures/python/requirements.txt");

/** The venv's directory, for a project's `virtualenv` runtime option (a link to it). */
export async function pythonSdkVenv(): Promise<string> {
  // Installed from a copy: pip builds in the source tree, whose leftovers would change the key.
  const copy = await fs.mkdtemp(path.join(os.tmpdir(), "cims-python-sdk-"));
  try {
    await fs.cp(path.join(REPO_ROOT, "sdk/python"), copy, { recursive: true });
    return await cachedVenv({
      name: "python-sdk",
      neededBy: "The Python program tests",
      installs: [
        ["-r", REQUIREMENTS],
        ["--no-deps", copy],
      ],
      keyedBy: [REQUIREMENTS, copy],
    });
  } finally {
    await fs.rm(copy, { recursive: true, force: true });
  }
}

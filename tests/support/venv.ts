// A Python venv built from a pinned requirements file with the machine's python3 on first use
// and cached per user, keyed by what went into it and the Python version (like the Pulumi CLI
// build: ~/.cache/pulumi-cims, or PULUMI_CIMS_CACHE_DIR). Built in a temporary directory and
// renamed into place, so parallel first uses never see half a venv.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface VenvSpec {
  /** The cache entry's prefix: `<name>-<key>`. */
  name: string;
  /** Who needs it, for the error when python3 is missing: "The vendor-SDK conformance tests". */
  neededBy: string;
  /** Each a `pip install` argument list, run in order; every file they name goes into the key. */
  installs: string[][];
  /** Files and directories (all their files) the key covers besides the Python version. */
  keyedBy: string[];
}

/** The venv's directory (its python is `bin/python`); a clear error when python3 is missing. */
export async function cachedVenv(spec: VenvSpec): Promise<string> {
  const python = process.env.PYTHON ?? "python3";
  const missing =
    `${spec.neededBy} need Python 3.9 or newer with its venv module and pip ` +
    "(`python3 -m venv` and `python3 -m pip`): install python3 (on Debian/Ubuntu also python3-venv), then run `npm test` again.";
  let version: string;
  try {
    version = (await run(python, ["-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"])).stdout.trim();
  } catch (err) {
    throw new Error(`${missing} (running \`${python}\` failed: ${(err as Error).message.split("\n")[0]})`, { cause: err });
  }
  const [major, minor] = version.split(".").map(Number);
  if (major < 3 || (major === 3 && minor < 9)) throw new Error(`${missing} (found Python ${version})`);

  const hash = createHash("sha256");
  for (const file of await filesOf(spec.keyedBy)) hash.update(await fs.readFile(file));
  const key = hash.update(version).digest("hex").slice(0, 12);
  const cache =
    process.env.PULUMI_CIMS_CACHE_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-cims");
  const dir = path.join(cache, `${spec.name}-${key}`);
  if (await exists(path.join(dir, "bin", "python"))) return dir;

  await fs.mkdir(cache, { recursive: true });
  const tmp = await fs.mkdtemp(path.join(cache, `.${spec.name}-${key}-`));
  try {
    await run(python, ["-m", "venv", tmp]);
    for (const args of spec.installs) {
      await run(
        path.join(tmp, "bin", "python"),
        ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", ...args],
        {
          maxBuffer: 16 * 1024 * 1024,
        },
      );
    }
    // A venv's scripts name its own path: rebuilt in place, its python still runs from the
    // new location (only the console scripts would not), and we run python itself.
    await fs.rename(tmp, dir).catch(async (err: NodeJS.ErrnoException) => {
      if (!(await exists(path.join(dir, "bin", "python")))) throw err; // another run finished first: use its venv
    });
  } catch (err) {
    throw new Error(`building the ${spec.name} venv failed (${spec.keyedBy.join(", ")}): ${(err as Error).message}`, { cause: err });
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
  return dir;
}

/** Every file under these paths, sorted, so the key does not depend on directory order. */
async function filesOf(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const p of paths) {
    if ((await fs.stat(p)).isDirectory()) {
      const entries = await fs.readdir(p, { recursive: true, withFileTypes: true });
      files.push(
        ...entries
          .filter((e) => e.isFile())
          .map((e) => path.join(e.parentPath, e.name))
          .sort(),
      );
    } else {
      files.push(p);
    }
  }
  return files;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

// The vendor's official Python SDK (gcore, pinned and hash-locked in
// tests/conformance/requirements.txt) in a venv of its own, built with the machine's python3
// on first use and cached per user, keyed by the requirements and the Python version (like
// the Pulumi CLI build: ~/.cache/pulumi-cims, or PULUMI_CIMS_CACHE_DIR). Built in a temporary
// directory and renamed into place, so parallel first uses never see half a venv.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { KIND_NAMES, kind } from "../../provider/kinds/registry";

const run = promisify(execFile);
export const CONFORMANCE_DIR = path.resolve(__dirname, "../conformance");
const REQUIREMENTS = path.join(CONFORMANCE_DIR, "requirements.txt");

const MISSING_PYTHON =
  "The vendor-SDK conformance tests need Python 3.9 or newer with its venv module and pip " +
  "(`python3 -m venv` and `python3 -m pip`): install python3 (on Debian/Ubuntu also python3-venv), then run `npm test` again.";

/** The venv's python, with the pinned SDK installed; a clear error when python3 is missing. */
export async function vendorPython(): Promise<string> {
  const python = process.env.PYTHON ?? "python3";
  let version: string;
  try {
    version = (await run(python, ["-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"])).stdout.trim();
  } catch (err) {
    throw new Error(`${MISSING_PYTHON} (running \`${python}\` failed: ${(err as Error).message.split("\n")[0]})`, { cause: err });
  }
  const [major, minor] = version.split(".").map(Number);
  if (major < 3 || (major === 3 && minor < 9)) throw new Error(`${MISSING_PYTHON} (found Python ${version})`);

  const key = createHash("sha256")
    .update(await fs.readFile(REQUIREMENTS))
    .update(version)
    .digest("hex")
    .slice(0, 12);
  const cache =
    process.env.PULUMI_CIMS_CACHE_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-cims");
  const dir = path.join(cache, `vendor-sdk-${key}`);
  const bin = path.join(dir, "bin", "python");
  if (await exists(bin)) return bin;

  await fs.mkdir(cache, { recursive: true });
  const tmp = await fs.mkdtemp(path.join(cache, `.vendor-sdk-${key}-`));
  try {
    await run(python, ["-m", "venv", tmp]);
    const pip = path.join(tmp, "bin", "python");
    await run(
      pip,
      ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", "--require-hashes", "-r", REQUIREMENTS],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    // A venv's scripts name its own path: rebuilt in place, its python still runs from the
    // new location (only the console scripts would not), and we run python itself.
    await fs.rename(tmp, dir).catch(async (err: NodeJS.ErrnoException) => {
      if (!(await exists(bin))) throw err; // another run finished first: use its venv
    });
  } catch (err) {
    throw new Error(`building the vendor SDK's venv failed (${REQUIREMENTS}): ${(err as Error).message}`, { cause: err });
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
  return bin;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/**
 * The vendor SDK's request type of each call with a body, by the emulator's route
 * (`POST /cloud/v1/subnets/:project_id/:region_id`): from every kind's contract, so the
 * Python checker needs no edit for a new kind.
 */
export function requestTypes(): Record<string, string> {
  const types: Record<string, string> = {};
  for (const type of KIND_NAMES) {
    const contract = kind(type).descriptor.contract;
    for (const r of contract.requests) {
      const template = contract.paths[r.path];
      if (!template) throw new Error(`${type}'s request ${r.method} names no path "${r.path}"`);
      types[`${r.method} ${template.replace(/\{([a-z_]+)\}/g, ":$1")}`] = r.sdk;
    }
  }
  return types;
}

/** Runs a script of tests/conformance with the SDK's python; its stdout, and its exit code. */
export async function runVendorScript(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const python = await vendorPython();
  try {
    const { stdout, stderr } = await run(python, [path.join(CONFORMANCE_DIR, script), ...args], {
      env: { ...process.env, CIMS_REQUEST_TYPES: JSON.stringify(requestTypes()) },
      cwd: CONFORMANCE_DIR,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 10 * 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? String(err) };
  }
}

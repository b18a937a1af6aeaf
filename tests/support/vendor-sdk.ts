// The vendor's official Python SDK (gcore, pinned and hash-locked in
// tests/conformance/requirements.txt) in a venv of its own (venv.ts: built on first use,
// cached per user, keyed by the requirements and the Python version).
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { KIND_NAMES, kind } from "../../provider/kinds/registry";
import { requestsOf } from "../../api/contract";
import { cachedVenv } from "./venv";

const run = promisify(execFile);
export const CONFORMANCE_DIR = path.resolve(__dirname, "../conformance");
const REQUIREMENTS = path.join(CONFORMANCE_DIR, "requirements.txt");

/** The venv's python, with the pinned SDK installed; a clear error when python3 is missing. */
export async function vendorPython(): Promise<string> {
  const dir = await cachedVenv({
    name: "vendor-sdk",
    neededBy: "The vendor-SDK conformance tests",
    installs: [["--require-hashes", "-r", REQUIREMENTS]],
    keyedBy: [REQUIREMENTS],
  });
  return path.join(dir, "bin", "python");
}

/**
 * The vendor SDK's request type of each call with a body, by the emulator's route
 * (`POST /cloud/v1/subnets/:project_id/:region_id`): from every kind's contract, so the
 * Python checker needs no edit for a new kind.
 */
export function requestTypes(): Record<string, string> {
  const types: Record<string, string> = {};
  for (const type of KIND_NAMES) {
    for (const r of requestsOf(kind(type).descriptor.contract)) {
      types[`${r.method} ${r.template.replace(/\{([a-z_]+)\}/g, ":$1")}`] = r.sdk;
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

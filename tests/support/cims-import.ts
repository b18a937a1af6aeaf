// The built `cims-import` as users run it (the API's URL and key in the environment), and the
// writes it (or a program's `up`) made, for the e2e tests of what it writes.
import * as path from "node:path";
import type { CimsTestEnv } from "./cims";
import { REPO_ROOT, runCommand, type RunResult } from "./harness";

const CLI = path.join(REPO_ROOT, "dist/provider/import/cli.js");

/** Runs the built CLI against `e`'s emulator; a failure is returned, not thrown. */
export function cimsImport(args: string[], e: CimsTestEnv): Promise<RunResult> {
  const { PATH, HOME } = process.env;
  return runCommand("node", [CLI, ...args], { PATH, HOME, CIMS_API_URL: e.emulator.url, CIMS_API_KEY: e.apiKey }, { allowFailure: true });
}

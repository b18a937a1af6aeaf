// Runs once after the e2e project:
// - every request body the provider sent to any emulator of the run (their request logs,
//   tests/support/cims.ts) must validate against the vendor SDK's request parameter types
//   (tests/conformance/check_requests.py). A body that does not fails the run, naming the
//   request, the type and what is wrong.
// - every program the run's stacks ran transpiled only (tests/support/programs.ts) must
//   type-check as `pulumi` would have checked it; one that does not fails the run, naming
//   the test that ran it and the diagnostics.
// - the pulumi commands the run's tests ran are counted (tests/support/commands.ts);
// - the run's secrets provider (tests/support/transit.ts) stops.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { COMMAND_LOG_ENV, commandSummary } from "../../support/commands";
import { PROGRAMS_DIR_ENV, typeCheckPrograms } from "../../support/programs";
import type { Transit } from "../../support/transit";
import { runVendorScript } from "../../support/vendor-sdk";

export default async function globalTeardown(): Promise<void> {
  const errors: unknown[] = [];
  for (const check of [checkRequestBodies, checkPrograms, countCommands, stopTransit])
    await check().catch((err: unknown) => errors.push(err));
  if (errors.length > 0) throw new Error(errors.map((e) => (e instanceof Error ? e.message : String(e))).join("\n\n"));
}

async function checkRequestBodies(): Promise<void> {
  const dir = process.env.CIMS_E2E_REQUEST_LOG_DIR;
  if (!dir) return;
  try {
    const logs = (await fs.readdir(dir)).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(dir, f));
    if (logs.length === 0) return;
    const { code, stdout, stderr } = await runVendorScript("check_requests.py", logs);
    const report = stdout.trim().startsWith("{")
      ? (JSON.parse(stdout) as { checked: Record<string, number>; failures: unknown[] })
      : undefined;
    if (code !== 0 || !report) {
      throw new Error(
        `request bodies the provider sent in this e2e run do not validate against the vendor SDK's types:\n${stdout.slice(0, 20_000)}\n${stderr.slice(-3000)}`,
      );
    }
    const counts = Object.entries(report.checked).map(([type, n]) => `${type} ${n}`);
    process.stdout.write(`\nprovider request bodies checked against the vendor SDK's types: ${counts.join(", ")}; all valid\n`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function checkPrograms(): Promise<void> {
  const dir = process.env[PROGRAMS_DIR_ENV];
  if (!dir) return;
  const { checked, failures } = await typeCheckPrograms(dir);
  if (failures.length > 0) {
    // Kept for a look at the failing programs; the message says where.
    throw new Error(`${failures.length} program(s) the e2e tests ran do not type-check:\n\n${failures.join("\n\n").slice(0, 20_000)}`);
  }
  await fs.rm(dir, { recursive: true, force: true });
  process.stdout.write(`programs the e2e tests ran, type-checked once: ${checked}; all clean\n`);
}

/** Stops the run's secrets provider, which global-setup.js started. */
async function stopTransit(): Promise<void> {
  await (globalThis as { cimsE2eTransit?: Transit }).cimsE2eTransit?.close();
}

async function countCommands(): Promise<void> {
  const log = process.env[COMMAND_LOG_ENV];
  if (!log) return;
  const text = await fs.readFile(log, "utf8").catch(() => "");
  await fs.rm(path.dirname(log), { recursive: true, force: true });
  if (text) process.stdout.write(`${commandSummary(text)}\n`);
}

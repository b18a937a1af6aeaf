// The `pulumi` commands the e2e tests run through TestStack.run, counted: the engine's
// commands (up, preview, refresh, destroy, import) cost seconds of CPU each, two Node.js
// processes loading the SDK, and are what the e2e tier's time is made of. global-setup.js
// names the run's log; each command appends a line; global-teardown.ts prints the summary,
// so a change that moves rows between tiers shows its effect on the count.
import * as fs from "node:fs/promises";
import * as path from "node:path";

/** The file the run's commands are appended to (set by global-setup.js; unset, nothing is logged). */
export const COMMAND_LOG_ENV = "CIMS_E2E_COMMAND_LOG";

/** The commands that run the engine (and a provider, and for up and preview the program). */
export const ENGINE_COMMANDS = ["up", "preview", "refresh", "destroy", "import"] as const;

interface Logged {
  /** The test file, relative to the repository. */
  file: string;
  command: string;
}

/** Appends one command of `file` (a test file, or the script a test started) to the run's log, if the run keeps one. */
export async function logCommand(file: string, args: readonly string[]): Promise<void> {
  const log = process.env[COMMAND_LOG_ENV];
  if (log) await fs.appendFile(log, `${JSON.stringify({ file, command: args[0] ?? "" } satisfies Logged)}\n`);
}

/**
 * One line: how many engine commands ran, of each kind, how many others, and the files that
 * ran the most engine commands (`top` of them).
 */
export function commandSummary(log: string, top = 5): string {
  const entries = log
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Logged);
  const isEngine = (c: string) => (ENGINE_COMMANDS as readonly string[]).includes(c);
  const engine = entries.filter((e) => isEngine(e.command));
  const tally = (keys: string[]) => {
    const counts = new Map<string, number>();
    for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
    return counts;
  };
  const kinds = tally(engine.map((e) => e.command));
  const byKind = ENGINE_COMMANDS.filter((c) => kinds.has(c)).map((c) => `${c} ${kinds.get(c)}`);
  const byFile = [...tally(engine.map((e) => path.basename(e.file)))]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([f, n]) => `${f} ${n}`);
  return (
    `pulumi commands run: ${engine.length} of the engine (${byKind.join(", ")}) and ` +
    `${entries.length - engine.length} others; the most engine commands: ${byFile.join(", ")}`
  );
}

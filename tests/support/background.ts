// A `pulumi up` run in the background, for tests that act while it runs (signal it, or the
// processes it started) and then read how it ended.
import { spawn } from "node:child_process";
import * as fs from "node:fs/promises";
import { PULUMI, type TestStack } from "./harness";

export interface BackgroundUp {
  pid: number;
  /** Resolves when the run ends, with its exit code. */
  exited: Promise<number | null>;
  /** Whether it still runs. */
  running(): boolean;
  /** Its stdout and stderr so far. */
  output(): string;
}

/** Starts `pulumi up --yes --skip-preview` of the stack, in a process group of its own. */
export async function upInBackground(stack: TestStack): Promise<BackgroundUp> {
  await stack.programRuns();
  const child = spawn(PULUMI, ["up", "--yes", "--skip-preview", "--stack", stack.name, "--non-interactive"], {
    cwd: stack.projectDir,
    env: stack.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let running = true;
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      running = false;
      resolve(code);
    }),
  );
  return { pid: child.pid!, exited, running: () => running, output: () => output };
}

/** Polls `ready` every 50 ms until it holds; throws (with the run's output) when the run ends first or after `ms`. */
export async function whileRunning(run: BackgroundUp, what: string, ready: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline || !run.running()) throw new Error(`${what} never happened while up ran:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The processes started under `pid` (children, theirs, ...) whose command line contains `match`. */
export async function descendants(pid: number, match: string): Promise<number[]> {
  const parents = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const entry of await fs.readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // The command name, in parentheses, may hold spaces: the parent's pid is the second field after it.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    parents.set(Number(entry), ppid);
    commands.set(Number(entry), (await fs.readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "")).replace(/\0/g, " "));
  }
  const under = (p: number): boolean => {
    for (let q = parents.get(p); q !== undefined && q > 1; q = parents.get(q)) if (q === pid) return true;
    return false;
  };
  return [...commands].filter(([p, command]) => command.includes(match) && under(p)).map(([p]) => p);
}

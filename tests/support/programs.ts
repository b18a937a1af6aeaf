// The TypeScript programs e2e stacks run transpiled only (harness.ts `typeCheck: false`):
// each source an `up` or `preview` ran is kept here, once per distinct content, and the run
// type-checks them all at its end (global-teardown.ts) with the compiler and options Pulumi's
// Node.js host uses when it type-checks a program itself. Type-checking each run instead
// parses the TypeScript libraries and the SDK's typings anew every time, seconds of CPU per
// command on a loaded machine; once per run, the same diagnostics cost that once.
import { createHash } from "node:crypto";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { create } from "ts-node";

/** Where the e2e run keeps the programs it ran (global-setup.js makes it); unset outside e2e runs. */
export const PROGRAMS_DIR_ENV = "CIMS_E2E_PROGRAMS_DIR";

const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

/** The project's TypeScript sources, relative to it (node_modules left out). */
async function typeScriptFiles(dir: string, rel = ""): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const file = path.join(rel, entry.name);
    if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) found.push(...(await typeScriptFiles(dir, file)));
    else if (entry.isFile() && entry.name.endsWith(".ts")) found.push(file);
  }
  return found.sort();
}

/** Keeps the project's TypeScript sources as they are now in `into`, unless the same sources are kept already. */
export async function keepProgram(projectDir: string, into: string, origin: string): Promise<void> {
  const files = await typeScriptFiles(projectDir);
  if (files.length === 0) return;
  const sources = await Promise.all(files.map((f) => fs.readFile(path.join(projectDir, f), "utf8")));
  const hash = createHash("sha256");
  files.forEach((f, i) => hash.update(`${f}\0${sources[i]}\0`));
  const dest = path.join(into, hash.digest("hex").slice(0, 20));
  if (await fs.stat(dest).catch(() => undefined)) return;
  // Written aside and renamed, so a program kept by two workers at once is never half there.
  const staging = `${dest}.${process.pid}.tmp`;
  for (const [i, f] of files.entries()) {
    await fs.mkdir(path.dirname(path.join(staging, f)), { recursive: true });
    await fs.writeFile(path.join(staging, f), sources[i]);
  }
  await fs.writeFile(path.join(staging, "ORIGIN"), origin);
  await fs.rename(staging, dest).catch(() => fs.rm(staging, { recursive: true, force: true }));
}

/**
 * Type-checks every kept program as `pulumi` would have when running it: ts-node from the
 * project's node_modules, no tsconfig.json (so ts-node's defaults for this Node.js), and the
 * compiler options `@pulumi/pulumi`'s `cmd/run` passes. Returns one message per failing
 * program, naming the test that ran it.
 */
export async function typeCheckPrograms(dir: string): Promise<{ checked: number; failures: string[] }> {
  const programs = (await fs.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && !SKIPPED_DIRS.has(e.name));
  const service = create({
    cwd: dir,
    compiler: "typescript",
    transpileOnly: false,
    project: "tsconfig.json",
    skipProject: true,
    compilerOptions: { target: "ES2020", module: "nodenext", moduleResolution: "nodenext", sourceMap: "true" },
  });
  const failures: string[] = [];
  for (const program of programs) {
    const root = path.join(dir, program.name);
    for (const file of await typeScriptFiles(root)) {
      const fileName = path.join(root, file);
      try {
        service.compile(await fs.readFile(fileName, "utf8"), fileName);
      } catch (err) {
        const origin = await fs.readFile(path.join(root, "ORIGIN"), "utf8").catch(() => "?");
        failures.push(`${file} of a program run by "${origin}" (kept at ${root}):\n${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  return { checked: programs.length, failures };
}

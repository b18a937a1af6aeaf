// The TypeScript programs e2e stacks run transpiled only (harness.ts `typeCheck: false`):
// each source an `up` or `preview` ran is kept here, once per distinct content, and the run
// type-checks them all at its end (global-teardown.ts) with the compiler and options Pulumi's
// Node.js host uses when it type-checks a program itself. Type-checking each run instead
// parses the TypeScript libraries and the SDK's typings anew every time, seconds of CPU per
// command on a loaded machine; once per run, the same diagnostics cost that once. Those
// programs run as JavaScript compiled here before each command (runAsJavaScript).
import { createHash } from "node:crypto";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { transform } from "esbuild";
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

/** The Pulumi.yaml runtime line that `runAsJavaScript` replaces; any other form is left as written. */
const PLAIN_NODEJS = /^runtime: nodejs[ \t]*$/m;
const JAVASCRIPT_NODEJS = "runtime:\n  name: nodejs\n  options:\n    typescript: false";

/**
 * Makes the project run as JavaScript built ahead of time, Pulumi's documented setting for a
 * program compiled before `pulumi` runs it: each TypeScript file is compiled to a JavaScript
 * file beside it (CommonJS, as ts-node emits for a project without `"type": "module"`) and the
 * project's runtime says `typescript: false` (and `main: index.js`, where index.ts was the
 * entry point). Why: with TypeScript on, the SDK's `cmd/run` loads the TypeScript compiler
 * and ts-node and registers them before the program starts, about 0.4 s of CPU on every `up`
 * and `preview` of a transpile-only stack. esbuild (already the plugin's bundler) compiles a
 * file in milliseconds without loading the compiler here.
 *
 * Call it before every command that runs the program: the sources are compiled each time.
 * Each JavaScript file made here starts with COMPILED_MARK; one beside a source that does not
 * is refused, never overwritten. Returns false, changing nothing, where the project's runtime
 * is neither the plain `runtime: nodejs` nor this one's, or its package.json says it is an ES
 * module.
 */
export async function runAsJavaScript(projectDir: string): Promise<boolean> {
  const projectFile = path.join(projectDir, "Pulumi.yaml");
  const project = await fs.readFile(projectFile, "utf8").catch(() => "");
  const packageJson = await fs.readFile(path.join(projectDir, "package.json"), "utf8").catch(() => "{}");
  const converted = project.includes(JAVASCRIPT_NODEJS);
  if (!(converted || PLAIN_NODEJS.test(project)) || (JSON.parse(packageJson) as { type?: string }).type === "module") return false;
  const sources = (await typeScriptFiles(projectDir)).filter((f) => !f.endsWith(".d.ts"));
  for (const file of sources) {
    const js = path.join(projectDir, file.replace(/\.ts$/, ".js"));
    const existing = await fs.readFile(js, "utf8").catch(() => undefined);
    if (existing !== undefined && !existing.startsWith(COMPILED_MARK)) {
      throw new Error(`${js} exists beside its TypeScript source: the harness will not overwrite it`);
    }
    const { code } = await transform(await fs.readFile(path.join(projectDir, file), "utf8"), {
      loader: "ts",
      format: "cjs",
      platform: "node",
      target: "node20",
      sourcefile: file,
      tsconfigRaw: { compilerOptions: { target: "ES2020" } },
    });
    await fs.writeFile(js, `${COMPILED_MARK}\n${code}`);
  }
  if (!converted) {
    // With index.ts and index.js side by side and no `main`, the SDK warns that it runs index.js.
    const main = !/^main:/m.test(project) && sources.includes("index.ts") ? "\nmain: index.js" : "";
    await fs.writeFile(projectFile, project.replace(PLAIN_NODEJS, JAVASCRIPT_NODEJS + main));
  }
  return true;
}

/** The first line of each JavaScript file `runAsJavaScript` compiles. */
const COMPILED_MARK = "// Compiled from its TypeScript source by the e2e harness (tests/support/programs.ts).";

// The Python SDK (`pulumi_cims`, sdk/python/) as `npm run gen` writes it: generated from
// schema.json by Pulumi's own Python generator, through `pulumi package gen-sdk` and our
// pulumi-language-python (scripts/pulumi builds both). The schema's version is the package's
// (respectSchemaVersion), so a program using this SDK asks the engine for this plugin version.
// The helpers below serve the Java SDK too (gen-sdk-java.ts).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const PYTHON_SDK_DIR = "sdk/python";

/**
 * Every file `pulumi package gen-sdk --language <language>` writes from `schema`, by its path
 * under the language's directory (the language's host is beside the CLI scripts/pulumi runs).
 */
export function generateSdk(schema: string, language: string, args: string[] = []): Map<string, string> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `cims-${language}-sdk-`));
  try {
    execFileSync(path.join(__dirname, "pulumi"), ["package", "gen-sdk", path.resolve(schema), "--language", language, ...args, "-o", tmp], {
      cwd: tmp,
      stdio: "pipe", // its stderr is in the error when it fails
      // Nothing to download and nobody's ~/.pulumi to touch: the schema references no other package.
      env: { ...process.env, PULUMI_HOME: path.join(tmp, ".home"), PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" },
    });
    return readTree(path.join(tmp, language));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Every file of the Python SDK generated from `schema`, by its path under sdk/python/. */
export function generatePythonSdk(schema: string): Map<string, string> {
  return generateSdk(schema, "python");
}

/** Every file now under `dir` (sdk/python/ unless named) of the checkout at `root`, by its path there. */
export function committedSdk(root: string, dir = PYTHON_SDK_DIR): Map<string, string> {
  const full = path.join(root, dir);
  return fs.existsSync(full) ? readTree(full) : new Map();
}

/** Every file now under sdk/python/, by its path there. */
export function committedPythonSdk(root: string): Map<string, string> {
  return committedSdk(root);
}

function readTree(dir: string): Map<string, string> {
  const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return new Map(
    files.map((e) => [path.relative(dir, path.join(e.parentPath, e.name)), fs.readFileSync(path.join(e.parentPath, e.name), "utf8")]),
  );
}

/** The paths under an SDK's directory that differ between two versions of it (added, removed or changed). */
export function sdkDifferences(want: Map<string, string>, have: Map<string, string>): string[] {
  const names = new Set([...want.keys(), ...have.keys()]);
  return [...names].filter((n) => want.get(n) !== have.get(n)).sort();
}

/** Writes `want` as the SDK under `dir` of the checkout at `root`, removing files it no longer has; returns what changed. */
export function writeSdk(root: string, dir: string, want: Map<string, string>): string[] {
  const changed = sdkDifferences(want, committedSdk(root, dir));
  const full = path.join(root, dir);
  fs.rmSync(full, { recursive: true, force: true });
  for (const [name, text] of want) {
    fs.mkdirSync(path.dirname(path.join(full, name)), { recursive: true });
    fs.writeFileSync(path.join(full, name), text);
  }
  return changed.map((n) => `${dir}/${n}`);
}

/** Writes sdk/python/ as generated from the repository's schema.json, removing files it no longer has. */
export function writePythonSdk(root: string): string[] {
  return writeSdk(root, PYTHON_SDK_DIR, generatePythonSdk(path.join(root, "schema.json")));
}

// The Python SDK (`pulumi_cims`, sdk/python/) as `npm run gen` writes it: generated from
// schema.json by Pulumi's own Python generator, through `pulumi package gen-sdk` and our
// pulumi-language-python (scripts/pulumi builds both). The schema's version is the package's
// (respectSchemaVersion), so a program using this SDK asks the engine for this plugin version.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const PYTHON_SDK_DIR = "sdk/python";

/** Every file of the Python SDK generated from `schema`, by its path under sdk/python/. */
export function generatePythonSdk(schema: string): Map<string, string> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cims-python-sdk-"));
  try {
    execFileSync(path.join(__dirname, "pulumi"), ["package", "gen-sdk", path.resolve(schema), "--language", "python", "-o", tmp], {
      cwd: tmp,
      stdio: "pipe", // its stderr is in the error when it fails
      // Nothing to download and nobody's ~/.pulumi to touch: the schema references no other package.
      env: { ...process.env, PULUMI_HOME: path.join(tmp, ".home"), PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" },
    });
    return readTree(path.join(tmp, "python"));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Every file now under sdk/python/, by its path there. */
export function committedPythonSdk(root: string): Map<string, string> {
  const dir = path.join(root, PYTHON_SDK_DIR);
  return fs.existsSync(dir) ? readTree(dir) : new Map();
}

function readTree(dir: string): Map<string, string> {
  const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return new Map(
    files.map((e) => [path.relative(dir, path.join(e.parentPath, e.name)), fs.readFileSync(path.join(e.parentPath, e.name), "utf8")]),
  );
}

/** The paths under sdk/python/ that differ between two versions of it (added, removed or changed). */
export function sdkDifferences(want: Map<string, string>, have: Map<string, string>): string[] {
  const names = new Set([...want.keys(), ...have.keys()]);
  return [...names].filter((n) => want.get(n) !== have.get(n)).sort();
}

/** Writes sdk/python/ as generated from the repository's schema.json, removing files it no longer has. */
export function writePythonSdk(root: string): string[] {
  const want = generatePythonSdk(path.join(root, "schema.json"));
  const changed = sdkDifferences(want, committedPythonSdk(root));
  const dir = path.join(root, PYTHON_SDK_DIR);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [name, text] of want) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return changed.map((n) => `${PYTHON_SDK_DIR}/${n}`);
}

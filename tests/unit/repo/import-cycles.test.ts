// Layers read top-down: no module of api/, provider/ or emulator/ reaches itself through its
// imports (type-only imports included: a cycle of types still ties two files into one), and
// provider/'s parts import only the parts below them, so a tool built on the kinds (cims-import,
// the plugin) can change without the kinds or the engine under them moving.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";

const ROOT = path.resolve(__dirname, "../../..");
const DIRS = ["api", "provider", "emulator"];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The relative modules a file imports or requires (resolved to files). */
function importsOf(file: string): string[] {
  const src = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const specs: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specs.push(node.moduleSpecifier.text);
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.getText() === "require" &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specs.push(node.arguments[0].text);
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specs.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return specs
    .filter((s) => s.startsWith("."))
    .map((s) => path.resolve(path.dirname(file), s))
    .map((p) => [`${p}.ts`, path.join(p, "index.ts")].find((f) => fs.existsSync(f)))
    .filter((f): f is string => f !== undefined);
}

/** Every cycle, as the files around it (each reported once, from its first file in order). */
function cycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const found = new Map<string, string[]>();
  const walk = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at >= 0) {
      const cycle = trail.slice(at);
      const key = [...cycle].sort().join(" ");
      if (!found.has(key))
        found.set(
          key,
          cycle.map((f) => path.relative(ROOT, f)),
        );
      return;
    }
    for (const next of graph.get(file) ?? []) if (graph.has(next)) walk(next, [...trail, file]);
  };
  for (const f of files) walk(f, []);
  return [...found.values()];
}

test("no import cycle in api/, provider/ or emulator/", () => {
  const files = DIRS.flatMap((d) => sources(path.join(ROOT, d)));
  expect(files.length).toBeGreaterThan(50);
  expect(cycles(files)).toEqual([]);
});

test("the check can fail: two modules that import each other are a cycle", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cycles-"));
  fs.writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = b;\n');
  fs.writeFileSync(path.join(dir, "b.ts"), 'import type { a } from "./a";\nexport const b = 1 as unknown as typeof a;\n');
  try {
    expect(cycles([path.join(dir, "a.ts"), path.join(dir, "b.ts")]).length).toBe(1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * provider/'s parts from the bottom up (a part is a folder or a file at provider/'s root). A file
 * imports its own part and the parts of lower rows; parts of one row never import each other.
 */
const PROVIDER_LAYERS: ReadonlyArray<readonly string[]> = [
  ["api"],
  ["provider/version.ts", "provider/proto.ts"],
  ["provider/client"],
  ["provider/config.ts"],
  ["provider/methods"],
  ["provider/kinds", "provider/lookups"],
  ["provider/import", "provider/plugin", "provider/policy", "provider/testing"],
  ["provider/resources"],
  ["provider/index.ts"],
];

/** A file's part: its first folder under api/ or provider/, or itself at provider/'s root. */
function partOf(root: string, file: string): string {
  const [top, second] = path.relative(root, file).split(path.sep);
  return top === "provider" ? `${top}/${second}` : top;
}

/** Every import that reaches a part of the same or a higher row, and every part no row names. */
function upImports(root: string, files: string[], layers: ReadonlyArray<readonly string[]>): string[] {
  const row = (part: string) => layers.findIndex((r) => r.includes(part));
  const found: string[] = [];
  for (const file of files) {
    const from = partOf(root, file);
    if (row(from) < 0) {
      found.push(`${path.relative(root, file)}: its part ${from} is in no row of PROVIDER_LAYERS`);
      continue;
    }
    for (const target of importsOf(file)) {
      const to = partOf(root, target);
      if (to !== from && row(to) >= row(from))
        found.push(`${path.relative(root, file)} imports ${path.relative(root, target)} (${to} is not below ${from})`);
    }
  }
  return found;
}

test("provider/'s parts import only the parts below them", () => {
  const files = ["api", "provider"].flatMap((d) => sources(path.join(ROOT, d)));
  expect(upImports(ROOT, files, PROVIDER_LAYERS)).toEqual([]);
});

test("the check can fail: an import up the layers, or across one row, is named", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "layers-"));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const planted: Record<string, string> = {
    "provider/kinds/k.ts": 'import { p } from "../import/p";\nexport const k = p;\n',
    "provider/import/p.ts": 'import { q } from "../plugin/q";\nexport const p = q;\n',
    "provider/plugin/q.ts": 'import { m } from "../methods/m";\nexport const q = m;\n',
    "provider/methods/m.ts": "export const m = 1;\n",
  };
  for (const [file, text] of Object.entries(planted)) write(file, text);
  try {
    const files = Object.keys(planted).map((f) => path.join(root, f));
    expect(upImports(root, files, PROVIDER_LAYERS)).toEqual([
      "provider/kinds/k.ts imports provider/import/p.ts (provider/import is not below provider/kinds)",
      "provider/import/p.ts imports provider/plugin/q.ts (provider/plugin is not below provider/import)",
    ]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// Layers read top-down: no module of api/, provider/ or emulator/ reaches itself through its
// imports (type-only imports included: a cycle of types still ties two files into one).
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

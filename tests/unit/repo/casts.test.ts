// A cast tells the compiler to stop checking. The shipped code (api/, provider/, emulator/) may
// hold at most CEILING of them, and none in the files where data enters from outside (the
// service's answers, the engine's values, the emulator's request bodies, seeds and state
// files): there a value is parsed and checked, never asserted. Lower CEILING when casts go;
// never raise it to land a change.
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

const ROOT = path.resolve(__dirname, "../../..");
const DIRS = ["api", "provider", "emulator"];
const CEILING = 16;
/** Trust boundaries: files that must hold no cast at all. Grows as boundaries are cleaned. */
const NO_CASTS = [
  "provider/client/credentials.ts",
  "provider/plugin/import.ts",
  "provider/import/generate.ts",
  "provider/client/http.ts",
  "provider/client/answers.ts",
  "provider/client/tasks.ts",
  "provider/client/list.ts",
  "provider/client/transport.ts",
  "provider/plugin/values.ts",
  "provider/config.ts",
  "api/schema.ts",
  "provider/methods/schema.ts",
  "emulator/validation.ts",
  "api/tags.ts",
  "api/canonical.ts",
  "emulator/tags.ts",
  "provider/version.ts",
  "emulator/store/store.ts",
  "emulator/store/files.ts",
  "emulator/control.ts",
  "emulator/router.ts",
  "emulator/faults.ts",
  "emulator/pipeline/body.ts",
  "emulator/server.ts",
  "emulator/cli.ts",
  "emulator/collections/subnet.ts",
  "emulator/collections/lb-pool-settings.ts",
];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Each cast in a file as "file:line text". `as const` is no cast; `x as unknown as T` is one. */
function castsIn(file: string, text = fs.readFileSync(file, "utf8")): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(src) === "const";
      const innerOfDouble = ts.isAsExpression(node.parent) && node.parent.expression === node;
      if (!isConst && !innerOfDouble) {
        const line = src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1;
        found.push(`${path.relative(ROOT, file)}:${line} ${node.getText(src).replace(/\s+/g, " ").slice(0, 80)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return found;
}

const all = DIRS.flatMap((d) => sources(path.join(ROOT, d))).flatMap((f) => castsIn(f));

test("the counter sees casts and `as unknown as`, not `as const`", () => {
  const text = "const a = x as number;\nconst b = y as unknown as string;\nconst c = [1] as const;\nconst d = <T>z;\n";
  expect(castsIn(path.join(ROOT, "api/example.ts"), text)).toHaveLength(3);
});

test(`the shipped code holds at most ${CEILING} casts`, () => {
  if (all.length > CEILING) throw new Error(`${all.length} casts (ceiling ${CEILING}):\n${all.join("\n")}`);
  expect(all.length).toBeLessThanOrEqual(CEILING);
});

test.each(NO_CASTS)("%s, a trust boundary, holds no cast", (file) => {
  expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
  expect(all.filter((c) => c.startsWith(`${file}:`))).toEqual([]);
});

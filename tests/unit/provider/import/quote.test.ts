// Hostile text in what cims-import writes: a Terraform state (tests/fixtures/terraform/
// hostile.tfstate) whose for_each keys, names, module and provider hold newlines, quotes, `*/`,
// `${...}`, `#{`, backslashes, U+2028, ESC and bidi controls, and service records whose name and
// tags hold the same. Each language's program is parsed by its own parser (TypeScript's
// compiler API, Python's ast and PyYAML, Go's go/parser): it holds exactly the statements
// expected, with each hostile text inside a string literal and equal to what the record holds.
// Each `terraform state rm` line, pasted into bash, runs one command with one argument: the
// address as Terraform writes it.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { main } from "../../../../provider/import/cli";
import { generateModule, type Language } from "../../../../provider/import/generate";
import { goString, javaString, pyString, shellWord, tsString, visible, yamlString } from "../../../../provider/import/quote";
import { SEED_FILE } from "../../../support/cims";
import { subnetRecord } from "../../../support/records";
import { terraformSeed, TF_DIR } from "../../../support/terraform";

/** A name that ends every kind of string, comment and line it could land in. */
const HOSTILE =
  'x" + require("child_process").execSync("id") + "\n*/ ${process.exit()} #{y} %{z} \\ \'`$(id)`\r' +
  "\u2028a\u2029b\u0000c\u001b[31mred\u202edcba\u0085d\u007f\ufeff$$e";
const HOSTILE_SUBNET = "9e8d7c6b-5a49-4b3c-8d2e-1f0a9b8c7d6e";
const STATE = path.join(TF_DIR, "hostile.tfstate");

/** The addresses Terraform writes for the state's two adopted instances (HCL's quoting of the keys). */
const ADOPTED_ADDRESSES = [
  'gcore_subnet.app["it\'s \\"q\\" `t` */ $${x} %%{y} #{z} \\\\ a\\nb"]',
  "gcore_cloud_network_subnet.db[\"\\u2028x\\u001b[31m'$(touch /tmp/p)'\"]",
];

/** Characters no comment or terminal line may hold raw: controls but a line's end and Go's tab, format characters, U+2028/9. */
const RAW_UNSAFE = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** The arguments of each `terraform` command the lines run as, when pasted into bash. */
function pasted(lines: string[]): string[][] {
  const script = `terraform() { printf '%s\\0' "$#" "$@"; }\n${lines.join("\n")}\n`;
  const run = spawnSync("bash", ["-c", script], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const fields = run.stdout.split("\0").slice(0, -1);
  const commands: string[][] = [];
  while (fields.length > 0) {
    const n = Number(fields.shift());
    commands.push(fields.splice(0, n));
  }
  return commands;
}

/** The `terraform state rm` lines of a program, as a user pastes them (the comment mark dropped). */
const rmLines = (source: string) =>
  source
    .split("\n")
    .filter((l) => l.includes("terraform state rm "))
    .map((l) => l.replace(/^(\/\/|#)\s*/, ""));

/** TypeScript: its syntax errors, its top-level statements' kinds and every string literal's value. */
function typescriptShape(source: string) {
  const diagnostics = ts.transpileModule(source, { reportDiagnostics: true }).diagnostics ?? [];
  const file = ts.createSourceFile("index.ts", source, ts.ScriptTarget.Latest, true);
  const strings: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n)) strings.push(n.text);
    ts.forEachChild(n, visit);
  };
  visit(file);
  const statements = file.statements.map((s) =>
    ts.isExpressionStatement(s) && ts.isNewExpression(s.expression)
      ? `new ${s.expression.expression.getText(file)}`
      : ts.SyntaxKind[s.kind],
  );
  return { errors: diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")), statements, strings };
}

/** Python's ast of the program and PyYAML's reading of the YAML one (or each one's parse error), by one python3. */
function pythonAndYaml(python: string, yaml: string): { python: { body: string[]; strings: string[] } | string; yaml: unknown } {
  const script = [
    "import ast, json, sys, yaml",
    "src = json.load(sys.stdin)",
    "def py():",
    "    tree = ast.parse(src['python'])",
    "    body = [type(s).__name__ + (':' + ast.unparse(s.value.func) if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) else '') for s in tree.body]",
    "    return {'body': body, 'strings': [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]}",
    "def parsed(f):",
    "    try:",
    "        return f()",
    "    except Exception as e:",
    "        return repr(e)",
    "json.dump({'python': parsed(py), 'yaml': parsed(lambda: yaml.safe_load(src['yaml']))}, sys.stdout)",
  ].join("\n");
  const run = spawnSync("python3", ["-c", script], { input: JSON.stringify({ python, yaml }), encoding: "utf8" });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout);
}

const GO_SHAPE = `package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
)

func main() {
	f, err := parser.ParseFile(token.NewFileSet(), os.Args[1], nil, parser.ParseComments)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	decls := []string{}
	for _, d := range f.Decls {
		switch x := d.(type) {
		case *ast.GenDecl:
			decls = append(decls, x.Tok.String())
		case *ast.FuncDecl:
			decls = append(decls, "func "+x.Name.Name+" "+strconv.Itoa(len(x.Body.List)))
		}
	}
	closure, strs := []string{}, []string{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			for _, s := range x.Body.List {
				closure = append(closure, fmt.Sprintf("%T", s))
			}
		case *ast.BasicLit:
			if x.Kind == token.STRING {
				v, err := strconv.Unquote(x.Value)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				strs = append(strs, v)
			}
		}
		return true
	})
	json.NewEncoder(os.Stdout).Encode(map[string]any{"decls": decls, "closure": closure, "strings": strs})
}
`;

/** Go: its declarations, the statements of pulumi.Run's function and every string literal's value (go/parser). */
function goShape(dir: string, source: string): { decls: string[]; closure: string[]; strings: string[] } {
  const checker = path.join(dir, "goshape", "main.go");
  fs.mkdirSync(path.dirname(checker), { recursive: true });
  fs.writeFileSync(checker, GO_SHAPE);
  // Not named .go: `go run` would take it for a file of the checker.
  const program = path.join(dir, "main.go.txt");
  fs.writeFileSync(program, source);
  const run = spawnSync("go", ["run", checker, program], { encoding: "utf8", env: { ...process.env, GOFLAGS: "-mod=mod" } });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout);
}

/** What Pulumi YAML reads a string as: `$$` is one `$`, and a `$` not doubled would start `${...}`. */
function pulumiYamlText(raw: unknown): string {
  expect(typeof raw).toBe("string");
  const text = String(raw);
  expect(text.replace(/\$\$/g, "")).not.toContain("$");
  return text.replace(/\$\$/g, "$");
}

describe("a hostile Terraform state and hostile records, in every language cims-import writes", () => {
  const apiKey = "unit-hostile-key-5d1e";
  let emulator: RunningEmulator;
  let dir: string;
  let stderr: string[];
  const sources: Partial<Record<Language, string>> = {};
  const logs: Partial<Record<Language, string>> = {};

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey, seed: SEED_FILE, taskDurationMs: 50 });
    const seed = terraformSeed();
    seed.subnets.push(subnetRecord({ id: HOSTILE_SUBNET, name: HOSTILE, cidr: "10.62.0.0/24", tags: { [HOSTILE]: HOSTILE, $: "${a}" } }));
    const seeded = await fetch(`${emulator.url}/__emulator/seed`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(seed),
    });
    expect(seeded.status).toBe(204);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cims-import-hostile-"));
    for (const language of ["typescript", "yaml", "python", "go"] as const) {
      stderr = [];
      const write = jest.spyOn(process.stderr, "write").mockImplementation((chunk) => {
        stderr.push(String(chunk));
        return true;
      });
      const out = path.join(dir, `program.${language}`);
      const code = await main(["--from-terraform", STATE, "--language", language, "--out", out], {
        CIMS_API_URL: emulator.url,
        CIMS_API_KEY: apiKey,
      });
      write.mockRestore();
      logs[language] = stderr.join("");
      expect({ language, code, log: logs[language] }).toMatchObject({ code: 0 });
      sources[language] = fs.readFileSync(out, "utf8");
    }
    // Four imports, each reading the service and a Terraform state: seconds on a loaded machine.
  }, 60_000);
  afterAll(async () => {
    await emulator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("TypeScript: the import and the two adopting statements only; the hostile name and tags are string values", () => {
    const shape = typescriptShape(sources.typescript!);
    expect(shape.errors).toEqual([]);
    expect(shape.statements).toEqual(["ImportDeclaration", "new cims.Subnet", "new cims.Subnet"]);
    expect(shape.strings).toContain(HOSTILE);
    expect(shape.strings.filter((s) => s === HOSTILE)).toHaveLength(3); // the name, a tag's key and its value
    expect(shape.strings).toContain("${a}");
  });

  test("Python: two imports and the two adopting calls only; the hostile text is string values", () => {
    const { python } = pythonAndYaml(sources.python!, "");
    if (typeof python === "string") throw new Error(`the Python program does not parse: ${python}`);
    expect(python.body).toEqual(["Import", "Import", "Expr:cims.Subnet", "Expr:cims.Subnet"]);
    expect(python.strings.filter((s) => s === HOSTILE)).toHaveLength(3);
    expect(python.strings).toContain("${a}");
  });

  test("YAML: only `resources`, the two subnets; Pulumi YAML reads the hostile name and tags as they are", () => {
    const { yaml } = pythonAndYaml("", sources.yaml!);
    if (typeof yaml === "string") throw new Error(`the YAML program does not parse: ${yaml}`);
    expect(Object.keys(yaml as object)).toEqual(["resources"]);
    const resources = (yaml as { resources: Record<string, { type: string; properties: Record<string, unknown> }> }).resources;
    expect(Object.values(resources).map((r) => r.type)).toEqual(["cims:index:Subnet", "cims:index:Subnet"]);
    const hostile = Object.values(resources).find((r) => r.properties.importId === HOSTILE_SUBNET)!;
    expect(pulumiYamlText(hostile.properties.name)).toBe(HOSTILE);
    const tags = Object.entries(hostile.properties.tags as Record<string, unknown>).map(([k, v]) => [pulumiYamlText(k), pulumiYamlText(v)]);
    expect(tags).toEqual([
      [HOSTILE, HOSTILE],
      ["$", "${a}"],
    ]);
  });

  test("Go: the imports and main only, pulumi.Run's function two adopting statements and its return; the hostile text is string values", () => {
    const shape = goShape(dir, sources.go!);
    expect(shape.decls).toEqual(["import", "func main 1"]);
    expect(shape.closure).toEqual(["*ast.IfStmt", "*ast.IfStmt", "*ast.ReturnStmt"]);
    expect(shape.strings.filter((s) => s === HOSTILE)).toHaveLength(3);
  });

  test("each `terraform state rm` line, pasted into bash, is one command whose one address is Terraform's", () => {
    for (const language of ["typescript", "yaml", "python", "go"] as const) {
      const lines = rmLines(sources[language]!);
      expect(pasted(lines)).toEqual(ADOPTED_ADDRESSES.map((address) => ["state", "rm", address]));
    }
  });

  test("names no Terraform address could hold, another provider's text and the 404: named, visible, never a command", () => {
    const source = sources.typescript!;
    const log = logs.typescript!;
    for (const text of [source, log]) expect(text).not.toMatch(RAW_UNSAFE);
    expect(
      log
        .split("\n")
        .filter(Boolean)
        .every((line) => line.startsWith("cims-import: ")),
    ).toBe(true);
    expect(log).toContain(
      "not adopted: gcore_subnet.x\\nrequire('child_process').execSync('touch /tmp/pwned')\\n// (gcore_subnet): the state's module, type or name",
    );
    expect(log).toContain("not adopted: module.a\\nprint('x').gcore_subnet.m (gcore_subnet): the state's module, type or name");
    expect(log).toContain('not adopted: random_id.r (random_id): not the vendor\'s provider (provider["x"]\\n\\u001b[2Jimport os)');
    expect(log).toContain(
      'gone: gcore_subnet.gone["\'; rm -rf ~ #\\n\\u2029*/"] (gcore_subnet): the service answered 404 for subnet 0f0e0d0c-0b0a-4909-8807-060504030201',
    );
    expect(source).toContain('//   gcore_subnet.gone["\'; rm -rf ~ #\\n\\u2029*/"] (gcore_subnet): the service answered 404');
    expect(rmLines(source).join("\n")).not.toContain("gone");
  });
});

describe("one escaping per syntax", () => {
  const records = {
    Subnet: [subnetRecord({ id: HOSTILE_SUBNET, name: HOSTILE, tags: { [HOSTILE]: HOSTILE } })],
  };
  const omit = [{ type: "Subnet" as const, id: HOSTILE_SUBNET, arg: "gatewayIp", why: `a reason with ${HOSTILE}` }];
  const program = (language: Language, tags?: Record<string, string>) =>
    generateModule(
      tags ? { Subnet: [subnetRecord({ id: HOSTILE_SUBNET, tags })] } : records,
      { projectId: 1, regionId: 1 },
      {
        header: [`a header line with ${HOSTILE}`],
        omit,
        language,
      },
    );

  test("a comment (the head's lines, a left-out argument's reason) shows every control as an escape, and ends where it began", () => {
    for (const language of ["typescript", "yaml", "python", "go"] as const) {
      const source = program(language);
      expect(source).not.toMatch(RAW_UNSAFE);
      const mark = language === "yaml" || language === "python" ? "#" : "//";
      const comments = source.split("\n").filter((l) => l.includes("a header line with") || l.includes("a reason with"));
      expect(comments).toHaveLength(2);
      for (const line of comments) expect(line.trimStart().startsWith(`${mark} `)).toBe(true);
      expect(source).toContain("\\n*/ ${process.exit()} #{y} %{z} \\ '`$(id)`\\r\\u2028a\\u2029b\\u0000c\\u001b[31mred\\u202edcba");
    }
    expect(typescriptShape(program("typescript")).statements).toEqual(["ImportDeclaration", "new cims.Subnet"]);
  });

  test("string literals keep the value, controls escaped; U+2028 (a line end to TypeScript) and the BOM (refused by Go) never raw", () => {
    expect(tsString("a\u2028b\ufeff\u{e0001}")).toBe('"a\\u2028b\\ufeff\\u{e0001}"');
    expect(pyString("a\u2028b\u{e0001}")).toBe('"a\\u2028b\\U000e0001"');
    expect(goString('"\\\n\u0000\u007f')).toBe('"\\"\\\\\\n\\u0000\\u007f"');
    expect(yamlString("${x} $$ \u0085")).toBe('"$${x} $$$$ \\u0085"');
    // Java: a line end as \n (javac reads \u000a as a line end, in a string too), a hidden one beyond the BMP as a UTF-16 pair.
    expect(javaString('a\n"\\u0041\u{e0001}\u2028')).toBe('"a\\n\\"\\\\u0041\\udb40\\udc01\\u2028"');
    expect(visible("a\nb\u001b[0m\u{e0001}")).toBe("a\\nb\\u001b[0m\\u{e0001}");
  });

  test("a POSIX shell word: `'` as '\\'', and a control character refused", () => {
    expect(shellWord(`a'b"c$(d)\`e\``)).toBe(`'a'\\''b"c$(d)\`e\`'`);
    expect(pasted([`terraform ${shellWord("it's")} ${shellWord("'")}`])).toEqual([["it's", "'"]]);
    expect(() => shellWord("a\nb")).toThrow("a\\nb holds a control character: it is no shell word to paste");
  });

  test("YAML refuses a key Pulumi YAML reads as a function (`fn::readFile`), and Go and YAML a lone surrogate; the others write them", () => {
    expect(() => program("yaml", { "fn::readFile": "/etc/passwd" })).toThrow(
      'a key "fn::readFile" of the record\'s data: Pulumi YAML reads an object keyed `fn::...` as a function call',
    );
    expect(() => program("yaml", { "Fn::ToJSON": "x" })).toThrow("as a function call");
    expect(program("python", { "fn::readFile": "/etc/passwd" })).toContain('"fn::readFile": "/etc/passwd"');
    expect(() => program("go", { t: "a\ud800b" })).toThrow("holds a lone UTF-16 surrogate, which a Go string cannot hold");
    expect(() => program("yaml", { t: "a\ud800b" })).toThrow("which a YAML string cannot hold");
    expect(program("typescript", { t: "a\ud800b" })).toContain('t: "a\\ud800b"');
  });
});

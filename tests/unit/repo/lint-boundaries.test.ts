// The lint rule that keeps provider/ and emulator/ apart (each imports api/, never the
// other) fails on a planted cross import, and passes the same import where it is allowed.
import { spawnSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");
const LINT_TEXTS = path.join(ROOT, "tests/support/lint-texts.mjs");

/** Lints each source as if it were the file at its path (nothing is written), in one ESLint process. */
function lintAll(texts: Array<{ file: string; source: string }>): Array<{ status: number; output: string }> {
  const result = spawnSync(process.execPath, [LINT_TEXTS], { cwd: ROOT, input: JSON.stringify(texts), encoding: "utf8" });
  if (result.status !== 0) throw new Error(`lint-texts.mjs failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as Array<{ errors: number; output: string }>).map((r) => ({
    status: r.errors > 0 ? 1 : 0,
    output: r.output,
  }));
}

/** A function of `code` lines of code, plus `comments` comment lines. */
const fn = (code: number, comments = 0) =>
  `export function planted(): number {\n  let n = 0;\n${"  // why\n".repeat(comments)}${"  n += 1;\n".repeat(code - 4)}  return n;\n}\n`;

const CROSS_IMPORTS: Array<[string, string, string]> = [
  [
    "provider/methods/planted.ts",
    'import { Store } from "../../emulator/store/store";\nexport const s = Store;\n',
    "provider/ must not import emulator/",
  ],
  [
    "emulator/routes/planted.ts",
    'import { apiClient } from "../../provider/methods/context";\nexport const c = apiClient;\n',
    "emulator/ must not import provider/",
  ],
  [
    "api/planted.ts",
    'import { startEmulator } from "../emulator/server";\nexport const e = startEmulator;\n',
    "api/ must not import emulator/",
  ],
  [
    "provider/resources/planted.ts",
    'import { contractSchema } from "../../api/schema";\nexport const s = contractSchema;\n',
    "a program's resource classes must not load the provider process's code",
  ],
];

const API_IMPORT = 'import { PATHS } from "../../api/paths";\nexport const p = PATHS;\n';
const SHIPPED = ["api/planted.ts", "provider/methods/planted.ts", "emulator/routes/planted.ts", "scripts/planted.ts"];

/** Every source the tests below lint, each by its path and what it is. */
const TEXTS = {
  cross: CROSS_IMPORTS.map(([file, source]) => ({ file, source })),
  apiImport: ["provider/methods/planted.ts", "emulator/routes/planted.ts"].map((file) => ({ file, source: API_IMPORT })),
  long: SHIPPED.map((file) => ({ file, source: fn(81) })),
  allowed: [
    { file: "provider/methods/planted.ts", source: fn(80, 30) },
    { file: "tests/unit/planted.test.ts", source: fn(120) },
    { file: "provider/resources/generated/planted.ts", source: fn(120) },
  ],
};
let linted: { [K in keyof typeof TEXTS]: Array<{ status: number; output: string }> };

beforeAll(() => {
  const all = lintAll(Object.values(TEXTS).flat());
  let at = 0;
  linted = Object.fromEntries(
    Object.entries(TEXTS).map(([k, texts]) => {
      const results = all.slice(at, at + texts.length);
      at += texts.length;
      return [k, results];
    }),
  ) as typeof linted;
});

test.each(CROSS_IMPORTS.map(([file, , message], i) => [file, message, i] as const))(
  "%s: a cross import is an error",
  (_file, message, i) => {
    const { status, output } = linted.cross[i];
    expect(status).toBe(1);
    expect(output).toContain(message);
    expect(output).toContain("no-restricted-imports");
  },
);

test("the same kind of import of api/ is fine on both sides", () => {
  expect(linted.apiImport).toEqual([
    { status: 0, output: "" },
    { status: 0, output: "" },
  ]);
});

describe("functions stay short: at most 80 lines of code in shipped code", () => {
  test("a longer function is an error in api/, provider/, emulator/ and scripts/", () => {
    expect(linted.long).toHaveLength(SHIPPED.length);
    for (const { status, output } of linted.long) {
      expect(status).toBe(1);
      expect(output).toContain("max-lines-per-function");
    }
  });

  test("blank and comment lines do not count; tests and generated code are not held to it", () => {
    expect(linted.allowed.map((r) => r.status)).toEqual([0, 0, 0]);
  });
});

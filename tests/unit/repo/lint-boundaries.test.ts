// The lint rule that keeps provider/ and emulator/ apart (each imports api/, never the
// other) fails on a planted cross import, and passes the same import where it is allowed.
import { spawnSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");
const ESLINT = path.join(ROOT, "node_modules/.bin/eslint");

/** Lints `source` as if it were the file at `file` (nothing is written). */
function lint(file: string, source: string): { status: number | null; output: string } {
  const result = spawnSync(ESLINT, ["--stdin", "--stdin-filename", file, "--format", "stylish"], {
    cwd: ROOT,
    input: source,
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test.each([
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
])("%s: a cross import is an error", (file, source, message) => {
  const { status, output } = lint(file, source);
  expect(status).toBe(1);
  expect(output).toContain(message);
  expect(output).toContain("no-restricted-imports");
});

test("the same kind of import of api/ is fine on both sides", () => {
  expect(lint("provider/methods/planted.ts", 'import { PATHS } from "../../api/paths";\nexport const p = PATHS;\n')).toMatchObject({
    status: 0,
  });
  expect(lint("emulator/routes/planted.ts", 'import { PATHS } from "../../api/paths";\nexport const p = PATHS;\n')).toMatchObject({
    status: 0,
  });
});

describe("functions stay short: at most 80 lines of code in shipped code", () => {
  /** A function of `code` lines of code, plus `comments` comment lines. */
  const fn = (code: number, comments = 0) =>
    `export function planted(): number {\n  let n = 0;\n${"  // why\n".repeat(comments)}${"  n += 1;\n".repeat(code - 4)}  return n;\n}\n`;

  test("a longer function is an error in api/, provider/, emulator/ and scripts/", () => {
    for (const file of ["api/planted.ts", "provider/methods/planted.ts", "emulator/routes/planted.ts", "scripts/planted.ts"]) {
      const { status, output } = lint(file, fn(81));
      expect(status).toBe(1);
      expect(output).toContain("max-lines-per-function");
    }
  });

  test("blank and comment lines do not count; tests and generated code are not held to it", () => {
    expect(lint("provider/methods/planted.ts", fn(80, 30))).toMatchObject({ status: 0 });
    expect(lint("tests/unit/planted.test.ts", fn(120))).toMatchObject({ status: 0 });
    expect(lint("provider/resources/generated/planted.ts", fn(120))).toMatchObject({ status: 0 });
  });
});

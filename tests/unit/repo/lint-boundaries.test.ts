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

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readyOutDir } from "../../../bench/out-dir";

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-out-"));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

test("an --out folder that does not exist is created before anything is measured", () => {
  const dir = path.join(tmp, "runs", "today");
  expect(readyOutDir(dir)).toBe(dir);
  expect(fs.statSync(dir).isDirectory()).toBe(true);
});

test("an --out that is a file is refused at once, naming the flag and what to give", () => {
  const file = path.join(tmp, "results.json");
  fs.writeFileSync(file, "{}");
  expect(() => readyOutDir(file)).toThrow(
    /^--out .*results\.json: cannot write the results there \(E\w+\): give a folder you can write to/,
  );
});

// ts-node resolves `require("./x")` to x.json before x.ts: a module of bench/ beside a
// results file of the same name would load the numbers instead of the code (`npm run bench`
// then fails with "hintsExperiment is not a function"). No two files there may share a stem.
import * as fs from "node:fs";
import * as path from "node:path";

test("no bench module shares its name with a results file", () => {
  const dir = path.resolve(__dirname, "../../../bench");
  const stems = (ext: string) =>
    new Set(
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(ext))
        .map((f) => f.slice(0, -ext.length)),
    );
  const modules = stems(".ts");
  expect([...stems(".json")].filter((s) => modules.has(s))).toEqual([]);
  expect(modules.size).toBeGreaterThan(0);
});

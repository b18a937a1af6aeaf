// Lints sources as if each were the file at its path, with the repository's ESLint config and
// nothing written: reads [{ file, source }] as JSON on stdin, prints [{ errors, output }]. One
// ESLint process for them all (loading the config and the TypeScript parser is most of a run);
// jest cannot load ESLint's ES-module config itself.
import { ESLint } from "eslint";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const eslint = new ESLint({ cwd: process.cwd() });
const results = [];
for (const { file, source } of JSON.parse(input)) {
  const [result] = await eslint.lintText(source, { filePath: file });
  results.push({ errors: result.errorCount, output: result.messages.map((m) => `${m.ruleId}: ${m.message}`).join("\n") });
}
process.stdout.write(JSON.stringify(results));

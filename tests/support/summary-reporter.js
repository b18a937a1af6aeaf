// Prints one plain closing line, "tests: N passed, N failed", that CI tooling can read
// whatever runner produced it. The bench's smoke run, after the suite, labels its own line
// (`label`), so the suite's count stays the one under "tests:". Before it, where the run's
// files measured their CPU (cpu-per-file.js), the run's total and the files that cost most.
const fs = require("node:fs");
const path = require("node:path");
const { CPU_LOG_ENV, newCpuLog } = require("./cpu-per-file");

const ROOT = path.resolve(__dirname, "../..");
const CPU_KEEP_ENV = "CIMS_TEST_CPU_KEEP";

class SummaryReporter {
  constructor(_globalConfig, options = {}) {
    this.label = options.label ?? "tests";
    this.top = options.top ?? 12;
    this.cpuLog = newCpuLog();
    process.env[CPU_LOG_ENV] = this.cpuLog;
  }

  onRunComplete(_contexts, results) {
    const cpu = this.cpuLine();
    if (cpu) process.stdout.write(`${cpu}\n`);
    const skipped = results.numPendingTests + results.numTodoTests;
    const tail = skipped > 0 ? `, ${skipped} skipped` : "";
    process.stdout.write(`${this.label}: ${results.numPassedTests} passed, ${results.numFailedTests} failed${tail}\n`);
  }

  /** "CPU of the test files: S s in all; the most: file S s, ...", or undefined where nothing was measured. */
  cpuLine() {
    let text;
    try {
      text = fs.readFileSync(this.cpuLog, "utf8");
    } catch {
      return undefined;
    }
    // Every file's figure, one JSON line each, where CIMS_TEST_CPU_KEEP names a file for them.
    if (process.env[CPU_KEEP_ENV]) fs.writeFileSync(process.env[CPU_KEEP_ENV], text);
    fs.rmSync(this.cpuLog, { force: true });
    const files = text
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l))
      .sort((a, b) => b.seconds - a.seconds);
    const total = files.reduce((n, f) => n + f.seconds, 0);
    const most = files.slice(0, this.top).map((f) => `${path.relative(ROOT, f.file)} ${Math.round(f.seconds)} s`);
    return `CPU of the test files (theirs and their commands'): ${Math.round(total)} s in all; the most: ${most.join(", ")}`;
  }
}
module.exports = SummaryReporter;

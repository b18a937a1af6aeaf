// Prints one plain closing line, "tests: N passed, N failed", that CI tooling can read
// whatever runner produced it. The bench's smoke run, after the suite, labels its own line
// (`label`), so the suite's count stays the one under "tests:".
class SummaryReporter {
  constructor(_globalConfig, options = {}) {
    this.label = options.label ?? "tests";
  }

  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const tail = skipped > 0 ? `, ${skipped} skipped` : "";
    process.stdout.write(`${this.label}: ${results.numPassedTests} passed, ${results.numFailedTests} failed${tail}\n`);
  }
}
module.exports = SummaryReporter;

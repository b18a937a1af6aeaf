// The CPU each test file costs, its processes' and the processes it started and waited for
// (the engine's commands, their language hosts, programs and providers: /proc/self/stat's
// utime, stime, cutime and cstime), appended to the run's log for summary-reporter.js to
// rank. On this project's machine the suite is bound by CPU, not by waiting, so this, not a
// file's wall time (which counts the time it waited on other files' processes), says where
// the run's time goes. Linux only: elsewhere nothing is measured.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/** The run's log: the reporter names it in jest's process, before the workers start, and they inherit it. */
const CPU_LOG_ENV = "CIMS_TEST_CPU_LOG";
const newCpuLog = () => path.join(os.tmpdir(), `pulumi-cims-cpu-${process.pid}-${Date.now()}.jsonl`);

/** Seconds of CPU of this process and its waited-for children so far, or undefined off Linux. */
function cpuSeconds() {
  let stat;
  try {
    stat = fs.readFileSync("/proc/self/stat", "utf8");
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces), from field 3 on: utime is 14.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i]), 0);
  return ticks / 100; // USER_HZ is 100 on every Linux jest runs on
}

module.exports = { CPU_LOG_ENV, newCpuLog, cpuSeconds };

// As a setupFilesAfterEnv module: measure the file it runs in.
if (typeof beforeAll === "function" && typeof afterAll === "function") {
  let start;
  beforeAll(() => {
    start = cpuSeconds();
  });
  afterAll(() => {
    const end = cpuSeconds();
    const file = expect.getState().testPath;
    const log = process.env[CPU_LOG_ENV];
    if (start === undefined || end === undefined || !file || !log) return;
    fs.appendFileSync(log, `${JSON.stringify({ file, seconds: Math.round((end - start) * 10) / 10 })}\n`);
  });
}

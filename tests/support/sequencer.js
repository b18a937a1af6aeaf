// The order jest starts test files in: the longest first, so that the run does not end
// waiting on one long file that started late. jest knows each file's duration only from an
// earlier run on the same machine (its cache); a fresh clone has none, and jest then orders
// by file size, which put the shortest files here (a catalogue of 70 cases in 9 lines) last
// although they run for minutes. test-seconds.json holds each file's seconds from a full
// run; jest's own timings, where it has them, come first. A file in neither (a new one)
// starts before those it has timings for, as in jest's default order.
const path = require("node:path");
const TestSequencer = require("@jest/test-sequencer").default;
const SECONDS = require("./test-seconds.json");

const ROOT = path.resolve(__dirname, "../..");

class LongestFirst extends TestSequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const seconds = SECONDS[path.relative(ROOT, test.path).split(path.sep).join("/")];
    return seconds === undefined ? undefined : seconds * 1000;
  }
}

module.exports = LongestFirst;

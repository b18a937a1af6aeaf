// `npm run bench:smoke` (and `npm test`, beside the suite: scripts/test): tests/bench/, run as
// e2e files are (the built package, the same setup and teardown), in a jest process of its own.
const suite = require("./jest.config.js");

const e2e = suite.projects.find((p) => p.displayName === "e2e");

/** @type {import('jest').Config} */
module.exports = {
  ...suite,
  reporters: ["default", ["<rootDir>/tests/support/summary-reporter.js", { label: "bench" }]],
  projects: [{ ...e2e, displayName: "bench", testMatch: ["<rootDir>/tests/bench/**/*.test.ts"] }],
};

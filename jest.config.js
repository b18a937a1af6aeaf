// Three projects: `unit` (no engine, no network beyond loopback test servers), `conformance`
// (the vendor's Python SDK against the emulator) and `e2e` (the real pulumi CLI via
// scripts/pulumi). `npm test` runs them all, and beside them, in a jest process of its own
// (scripts/test), the bench's smoke run (jest.bench.config.js, `npm run bench:smoke`): one file
// of four minutes that would set the suite's end if it shared the workers; `npm run test:unit`
// the first project.
/** Each file's CPU, ranked at the end of the run by the summary reporter. */
const CPU_PER_FILE = "<rootDir>/tests/support/cpu-per-file.js";
const tsJest = ["ts-jest", { tsconfig: "tsconfig.check.json", diagnostics: false }];

/** @type {import('jest').Config} */
module.exports = {
  reporters: ["default", "<rootDir>/tests/support/summary-reporter.js"],
  // Longest files first, from committed timings, also in a fresh clone (the file says why).
  testSequencer: "<rootDir>/tests/support/sequencer.js",
  projects: [
    {
      displayName: "unit",
      testMatch: ["<rootDir>/tests/unit/**/*.test.ts"],
      transform: { "^.+\\.ts$": tsJest },
      testEnvironment: "node",
      setupFilesAfterEnv: [CPU_PER_FILE],
      // Unit tests import the package by name but run its TypeScript sources, so they need no build.
      moduleNameMapper: {
        "^pulumi-cims$": "<rootDir>/provider/index.ts",
        "^pulumi-cims/testing$": "<rootDir>/provider/testing/index.ts",
        "^pulumi-cims/emulator$": "<rootDir>/emulator/index.ts",
      },
    },
    {
      // The vendor's official Python SDK against the emulator (a venv built on first use).
      displayName: "conformance",
      testMatch: ["<rootDir>/tests/conformance/**/*.test.ts"],
      transform: { "^.+\\.ts$": tsJest },
      testEnvironment: "node",
      setupFilesAfterEnv: [CPU_PER_FILE],
      moduleNameMapper: { "^pulumi-cims/emulator$": "<rootDir>/emulator/index.ts" },
    },
    {
      displayName: "e2e",
      testMatch: ["<rootDir>/tests/e2e/**/*.test.ts"],
      transform: { "^.+\\.ts$": tsJest },
      testEnvironment: "node",
      globalSetup: "<rootDir>/tests/e2e/support/global-setup.js",
      globalTeardown: "<rootDir>/tests/e2e/support/global-teardown.ts",
      setupFilesAfterEnv: ["<rootDir>/tests/e2e/support/setup-timeout.js", CPU_PER_FILE],
      slowTestThreshold: 120,
    },
  ],
};

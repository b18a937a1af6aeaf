// Runs once before the e2e project: makes sure the package is built (programs load it from
// dist/ by name) and that the pinned Pulumi CLI is provisioned, so that a first-time CLI
// build shows its progress here instead of eating into a test's timeout; and gives the run a
// directory for the emulators' request logs, one for the programs the tests run and a log of
// the pulumi commands they run; and starts the run's secrets provider.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { startTransit } = require("../../support/transit");

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, "../../..");
  if (!fs.existsSync(path.join(root, "dist/provider/index.js"))) {
    throw new Error("dist/ is missing: run `npm run build` (npm test does it for you) before the e2e tests");
  }
  const version = execFileSync(path.join(root, "scripts/pulumi"), ["version"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  if (version !== "v3.248.0") {
    throw new Error(`scripts/pulumi reports ${version}, expected v3.248.0`);
  }
  // The stacks call the CLI the wrapper runs directly (tests/support/harness.ts): the wrapper's
  // check of the build hashes the CLI's sources, about 40 ms of CPU on each of the run's commands.
  process.env.CIMS_E2E_PULUMI_BIN = execFileSync(path.join(root, "scripts/pulumi"), [], {
    encoding: "utf8",
    env: { ...process.env, PULUMI_CIMS_WHERE: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  // Every emulator of the run logs its requests here (tests/support/cims.ts); global-teardown.ts
  // checks the bodies the provider sent against the vendor SDK's request types.
  process.env.CIMS_E2E_REQUEST_LOG_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cims-requests-"));
  // The programs the e2e stacks run transpiled only are kept here (tests/support/programs.ts)
  // and type-checked together by global-teardown.ts; they import this checkout's packages.
  const programs = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cims-programs-"));
  fs.symlinkSync(path.join(root, "node_modules"), path.join(programs, "node_modules"), "dir");
  process.env.CIMS_E2E_PROGRAMS_DIR = programs;
  // The pulumi commands the tests run are counted here (tests/support/commands.ts), and the
  // run's stack template is kept beside them (tests/support/harness.ts, stackTemplate).
  const commands = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cims-commands-"));
  process.env.CIMS_E2E_COMMAND_LOG = path.join(commands, "commands.jsonl");
  process.env.CIMS_E2E_STACK_TEMPLATE = path.join(commands, "stack-template.json");
  // The run's secrets provider (tests/support/transit.ts): the stacks' `pulumi` commands reach it
  // through VAULT_SERVER_URL and VAULT_SERVER_TOKEN, which they inherit; global-teardown.ts stops it.
  const transit = await startTransit();
  globalThis.cimsE2eTransit = transit;
  Object.assign(process.env, transit.env);
  process.env.CIMS_E2E_SECRETS_PROVIDER = transit.provider;
};

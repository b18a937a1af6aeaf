// The cims-emulator command: help, flag errors, start-up line, request log, clean stop.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { messageOf } from "../../../api/messages";
import { cliRequest, USAGE } from "../../../emulator/cli-options";
import { startEmulator } from "../../../emulator/server";

const ROOT = path.resolve(__dirname, "../../..");
const CLI = [path.join(ROOT, "node_modules/ts-node/dist/bin.js"), "--transpile-only", path.join(ROOT, "emulator/cli.ts")];
const KEY = "cli-key-9d2f";

// The flags' rules in process (cliRequest); the command itself is spawned twice below, for
// what only a process shows: its exit code on a bad state file, its start-up line, request
// log and stop. Each spawn compiles the emulator's sources first (about 2 s of CPU).
test("--help prints the flags", () => {
  const res = cliRequest(["--help"], {});
  expect(res).toEqual({ help: USAGE });
  for (const flag of ["--port", "--host", "--api-key", "--seed", "--state-file", "--task-duration-ms"]) expect(USAGE).toContain(flag);
});

test("an unknown flag or a missing key is a usage error", () => {
  const unknown = cliRequest(["--bogus"], { CIMS_API_KEY: KEY });
  expect("usage" in unknown && unknown.usage).toContain("--bogus");
  const noKey = cliRequest([], {});
  expect("usage" in noKey && noKey.usage).toContain("--api-key");
  expect(cliRequest([], { CIMS_API_KEY: KEY })).toMatchObject({ options: { apiKey: KEY, port: 0, taskDurationMs: 1000 } });
});

// Each run names every flag it refuses, so two runs check the four values.
test.each([
  ["", "1e3"],
  ["0x10", "-5"],
])("--port %p and --task-duration-ms %p are usage errors, not silent Number() coercions", (port, duration) => {
  const res = cliRequest(["--api-key", KEY, `--port=${port}`, `--task-duration-ms=${duration}`], {});
  const usage = "usage" in res ? res.usage : "";
  expect(usage).toContain(`--port must be 0..65535, got ${port};`);
  expect(usage).toContain(`--task-duration-ms must be an integer >= 0, got ${duration}\n`);
});

test.each([
  ["of another shape", JSON.stringify({ collections: { subnets: [] }, tasks: {} }), "collections.subnets must be a record, got []", false],
  ["cut short", '{"collections": {', "is not valid JSON", true],
])("a state file %s is refused at start: exit 1, naming the file and what to do", async (_what, text, problem, spawned) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cims-emu-cli-"));
  const stateFile = path.join(dir, "state.json");
  try {
    fs.writeFileSync(stateFile, text);
    if (spawned) {
      const res = spawnSync("node", [...CLI, "--api-key", KEY, "--state-file", stateFile], { encoding: "utf8", timeout: 90_000 });
      expect(res.stdout).not.toContain("listening");
      expect(res.stderr).toContain(`cims-emulator: state file ${stateFile} `);
      expect(res.stderr).toContain(problem);
      expect(res.stderr).toContain("Delete it (or pass another --state-file)");
      expect(res.status).toBe(1);
    } else {
      const request = cliRequest(["--api-key", KEY, "--state-file", stateFile], {});
      if (!("options" in request)) throw new Error(`refused: ${JSON.stringify(request)}`);
      const refusal = await startEmulator(request.options).then(
        async (emulator) => {
          await emulator.close();
          return "started";
        },
        (err: unknown) => messageOf(err),
      );
      expect(refusal).toContain(`state file ${stateFile} `);
      expect(refusal).toContain(problem);
      expect(refusal).toContain("Delete it (or pass another --state-file)");
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("prints its URL, logs requests without the key, and stops on SIGTERM", async () => {
  const child = spawn("node", [...CLI, "--api-key", KEY, "--seed", path.join(ROOT, "examples/emulator-seed.json")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A failure before the SIGTERM below must not leave the emulator running after the test.
  const killIfRunning = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      // ts-node compiles the emulator's sources first: 2 s of CPU, more than 15 s on a loaded machine.
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 60_000);
      child.stdout.on("data", () => {
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const res = await fetch(`${url}/cloud/v1/lifecycle_policy/1/1/101`, { headers: { authorization: `apikey ${KEY}` } });
    expect(res.status).toBe(200);
    const code = await new Promise<number | null>((resolve) => {
      child.on("exit", resolve);
      child.kill("SIGTERM");
    });
    expect(code).toBe(0);
    expect(out).toMatch(/GET \/cloud\/v1\/lifecycle_policy\/1\/1\/101 200 \d+ms/);
    expect(out).toContain("SIGTERM, stopping");
    expect(out).not.toContain(KEY);
  } finally {
    killIfRunning();
  }
}, 90_000);

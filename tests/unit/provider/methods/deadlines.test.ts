// How an operation's deadline is chosen: the resource's `timeouts` input, Pulumi's
// `customTimeouts` (the plugin face receives them per call), and `cims:taskTimeoutSeconds`.
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { deadlineFor, setConfig, withEngineTimeout } from "../../../../provider/methods/context";
import { REPO_ROOT } from "../../../support/harness";

const config: Record<string, string> = {
  "cims:apiUrl": "http://127.0.0.1:1",
  "cims:apiKey": "unit-key",
  "cims:taskTimeoutSeconds": "300",
};

beforeEach(() => setConfig((key) => config[key]));

/** The seconds and the advice of the deadline chosen, with `custom` as the engine's customTimeouts for the call. */
async function limit(timeouts: Record<string, number> | undefined, custom?: number) {
  const { timeoutSeconds, raise } = await withEngineTimeout(custom, async () => deadlineFor("create", { timeouts }));
  return { timeoutSeconds, raise };
}

test("neither per-resource limit: cims:taskTimeoutSeconds", async () => {
  expect(await limit(undefined)).toEqual({ timeoutSeconds: 300, raise: expect.stringContaining("cims:taskTimeoutSeconds") });
  // No customTimeouts comes as 0 from the engine: none.
  expect((await limit({ update: 5 }, 0)).timeoutSeconds).toBe(300);
});

test("either per-resource limit overrides cims:taskTimeoutSeconds, up or down", async () => {
  expect(await limit({ create: 900 })).toEqual({ timeoutSeconds: 900, raise: "raise the resource's `timeouts.create` input" });
  expect(await limit(undefined, 8)).toEqual({ timeoutSeconds: 8, raise: "raise the resource's `customTimeouts` option (create)" });
  expect((await limit(undefined, 3600)).timeoutSeconds).toBe(3600);
});

test("both given: the smaller wins, and the advice names both", async () => {
  expect(await limit({ create: 60 }, 8)).toEqual({
    timeoutSeconds: 8,
    raise: "raise the resource's `customTimeouts` option (create) and its `timeouts.create` input",
  });
  expect(await limit({ create: 8 }, 60)).toEqual({
    timeoutSeconds: 8,
    raise: "raise the resource's `timeouts.create` input and its `customTimeouts` option (create)",
  });
});

test("the engine's limit holds only for the call it came with", async () => {
  const inside = withEngineTimeout(8, async () => {
    await new Promise((r) => setTimeout(r, 10));
    return deadlineFor("create", {}).timeoutSeconds;
  });
  const outside = deadlineFor("create", {}).timeoutSeconds;
  expect([await inside, outside]).toEqual([8, 300]);
});

test("the run's cancel signal takes any number of listeners: 50 subnets' concurrent waits raise no listener-leak warning", () => {
  // In a process of its own, as the provider runs: Node warns on stderr past 10 listeners of
  // one AbortSignal.
  const script = `
    const { setTimeout: sleep } = require("node:timers/promises");
    const { cancelSignal } = require(${JSON.stringify(path.join(REPO_ROOT, "provider/methods/context.ts"))});
    Promise.all(Array.from({ length: 50 }, () => sleep(20, undefined, { signal: cancelSignal() }))).then(() => console.log("waited"));
  `;
  const run = spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], { cwd: REPO_ROOT, encoding: "utf8" });
  expect({ stdout: run.stdout.trim(), stderr: run.stderr }).toEqual({ stdout: "waited", stderr: "" });
});

// E2E helpers for CIMS programs: a fresh emulator per test (its own port, so tests run in
// parallel) and a stack configured to talk to it, with the API key as a secret.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { type EmulatorOptions, startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { createStack, REPO_ROOT, stackTemplate, type StackOptions, type TestStack } from "./harness";

export const SEED_FILE = path.join(REPO_ROOT, "examples/emulator-seed.json");
export const SEED = {
  networkId: "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01",
  routerId: "5e2a8f1d-3c4b-4a6e-9d7f-1b2c3d4e5f60",
  volumeId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  /** A volume of project 1, region 1 that no policy holds (policy 101 holds volumeId). */
  appVolumeId: "2b3c4d5e-6f70-4a81-9b2c-3d4e5f6a7b8c",
  poolId: "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
  keptMemberId: "7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e",
  policyId: "101",
  clientId: "1",
};

/** The path parameters of the seed's records: its project and region, pool, policy and client. */
export const SEEDED_PARAMS: Readonly<Record<string, string>> = {
  project_id: "1",
  region_id: "1",
  pool_id: SEED.poolId,
  policy_id: SEED.policyId,
  client_id: SEED.clientId,
};

export interface CimsTestEnv {
  emulator: RunningEmulator;
  apiKey: string;
  stack: TestStack;
  dispose(): Promise<void>;
}

export async function cimsStack(
  opts: StackOptions & {
    taskDurationMs?: number;
    /** "env": the key is given as CIMS_API_KEY, not stack config. */ keyVia?: "config" | "env";
    /** More emulator options (a page size cap...). */
    emulator?: Partial<EmulatorOptions>;
  } = {},
): Promise<CimsTestEnv> {
  const template = await stackTemplate();
  const apiKey = template?.apiKey ?? `e2e-key-${randomBytes(8).toString("hex")}`;
  const emulator = await startEmulator({
    apiKey,
    seed: SEED_FILE,
    taskDurationMs: opts.taskDurationMs ?? 300,
    requestLog: requestLogFile(),
    ...opts.emulator,
  });
  const viaEnv = opts.keyVia === "env";
  const stack = await createStack(
    {
      // The run type-checks every program once at its end (support/programs.ts).
      typeCheck: false,
      ...opts,
      env: { ...opts.env, ...(viaEnv ? { CIMS_API_KEY: apiKey } : {}) },
      config: { "cims:apiUrl": emulator.url, "cims:projectId": "1", "cims:regionId": "1", ...opts.config },
      secrets: { ...(viaEnv ? {} : { "cims:apiKey": apiKey }), ...opts.secrets },
    },
    template,
  );
  return {
    emulator,
    apiKey,
    stack,
    dispose: async () => {
      await stack.dispose();
      await emulator.close();
    },
  };
}

/** What useStacks() makes: each tracked for disposal. */
export interface Stacks {
  stack: typeof cimsStack;
  program: typeof programStack;
  /** A stack with no emulator (the engine's own tests). */
  bare: typeof createStack;
}

/**
 * The one fixture for e2e tests: `const stacks = useStacks();` at the top of a file, then
 * `const env = await stacks.stack({...})` (or `.program(name, config)`) in a test. Every
 * emulator and stack a test made is disposed after it (`"all"`: after the file's last test,
 * for a stack shared by a `describe`'s tests).
 */
export function useStacks(scope: "each" | "all" = "each"): Stacks {
  const made: Array<{ dispose(): Promise<void> }> = [];
  (scope === "each" ? afterEach : afterAll)(async () => {
    for (const it of made.splice(0)) await it.dispose();
  });
  const track = <T extends { dispose(): Promise<void> }>(it: T): T => {
    made.push(it);
    return it;
  };
  return {
    stack: async (opts) => track(await cimsStack(opts)),
    program: async (name, config, opts) => track(await programStack(name, config, opts)),
    bare: async (opts) => track(await createStack(opts)),
  };
}

/**
 * Where this emulator logs its requests: a file of its own in the e2e run's request-log
 * directory (global-setup.ts), whose every provider request body global-teardown.ts checks
 * against the vendor SDK's request types.
 */
export function requestLogFile(): string | undefined {
  const dir = process.env.CIMS_E2E_REQUEST_LOG_DIR;
  return dir ? path.join(dir, `${process.pid}-${randomBytes(6).toString("hex")}.jsonl`) : undefined;
}

/** The requests an emulator logged to `file` (its `requestLog`), in order, as `METHOD path`. */
export async function loggedRequests(file: string): Promise<string[]> {
  const lines = (await fs.readFile(file, "utf8").catch(() => "")).split("\n").filter(Boolean);
  return lines.map((l) => JSON.parse(l) as { method: string; path: string }).map((r) => `${r.method} ${r.path}`);
}

/** Where a project finds the `pulumi-resource-cims` plugin: this package's bin/, through its node_modules, as in a user's project. */
const PLUGIN_PROVIDERS = "plugins:\n  providers:\n    - name: cims\n      path: node_modules/pulumi-cims/bin\n";

/**
 * A Pulumi.yaml whose program reaches the `pulumi-resource-cims` plugin (`cims.native.*`,
 * `cims:index:*`).
 */
export const PLUGIN_PROJECT = (name: string, runtime = "nodejs"): string => `name: ${name}\nruntime: ${runtime}\n${PLUGIN_PROVIDERS}`;

/** The project directory's entry that a Python project's `virtualenv` names (linkPythonVenv). */
const PYTHON_VENV = "venv";

/**
 * The Pulumi.yaml of a Python program (`__main__.py`) whose interpreter is the venv that
 * linkPythonVenv links into the project. `plugin: false`: no `plugins.providers`, for a plugin
 * installed into PULUMI_HOME; `toolchain`: the runtime option, as written (the host refuses
 * all but pip, poetry and uv).
 */
export const PYTHON_PROJECT = (name: string, opts: { plugin?: boolean; toolchain?: string } = {}): string =>
  `name: ${name}\nruntime:\n  name: python\n  options:\n` +
  (opts.toolchain ? `    toolchain: ${opts.toolchain}\n` : "") +
  `    virtualenv: ${PYTHON_VENV}\n` +
  (opts.plugin === false ? "" : PLUGIN_PROVIDERS);

/** Links `venv` (support/python-sdk.ts's pythonSdkVenv()) where a PYTHON_PROJECT's `virtualenv` points. */
export const linkPythonVenv = (stack: TestStack, venv: string): Promise<void> =>
  fs.symlink(venv, path.join(stack.projectDir, PYTHON_VENV), "dir");

/**
 * The two faces a program can use: the dynamic resources (`cims.Subnet`, the default) or the
 * plugin (`cims.native.Subnet`, types `cims:index:<Kind>`). Tests that hold on both run their
 * programs through `onFace`.
 */
export type Face = "dynamic" | "native";

/** A program for the dynamic face, for `face`: `new cims.X(` becomes `new cims.native.X(`. */
export const onFace = (source: string, face: Face): string =>
  face === "dynamic" ? source : source.replace(/new cims\.(?!native\.)(\w+)\(/g, "new cims.native.$1(");

/** The Pulumi.yaml of a project named `name` on `face`. */
export const faceProject = (name: string, face: Face): string =>
  face === "dynamic" ? `name: ${name}\nruntime: nodejs\n` : PLUGIN_PROJECT(name);

/** The state's type token of a kind on a face. */
export const cimsType = (kind: string, face: Face = "dynamic"): string =>
  face === "dynamic" ? `pulumi-nodejs:dynamic/cims:${kind}` : `cims:index:${kind}`;

/** Whether a state type token is this kind, on either face. */
export const isKind = (type: string, kind: string): boolean => type === cimsType(kind, "dynamic") || type === cimsType(kind, "native");

/** The emulator's POST, PATCH, PUT and DELETE requests since its metrics were reset, `METHOD route status xN`. */
export const writes = (e: Pick<CimsTestEnv, "emulator">): string[] =>
  Object.entries(e.emulator.metrics.snapshot().requests)
    .filter(([k]) => /^(POST|PATCH|PUT|DELETE) /.test(k))
    .map(([k, n]) => `${k} x${n}`);

/** Calls the emulator directly (outside Pulumi), e.g. to cause drift. */
export async function api(
  env: Pick<CimsTestEnv, "emulator" | "apiKey">,
  method: string,
  p: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const send = () =>
    fetch(`${env.emulator.url}${p}`, {
      method,
      headers: { authorization: `apikey ${env.apiKey}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  let res = await send();
  // Under the emulator's rate limit the test's own calls share the key's budget: wait as told.
  for (let i = 0; res.status === 429 && i < 30; i++) {
    await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after") ?? "1") * 1000));
    res = await send();
  }
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A one-file program from tests/fixtures/programs/<name>.ts as a project (on the dynamic face unless told). */
export async function programStack(
  name: string,
  config: Record<string, string>,
  opts: { taskDurationMs?: number; face?: Face } = {},
): Promise<CimsTestEnv> {
  const face = opts.face ?? "dynamic";
  const source = await fs.readFile(path.join(REPO_ROOT, "tests/fixtures/programs", `${name}.ts`), "utf8");
  return cimsStack({
    taskDurationMs: opts.taskDurationMs,
    files: { "Pulumi.yaml": faceProject(`e2e-${name}`, face), "index.ts": onFace(source, face) },
    config,
  });
}

/** The outputs of the one resource of this type in the stack's state (of the one named `name`, where the stack holds several). */
export async function stateOf(env: CimsTestEnv, type: string, name?: string): Promise<Record<string, unknown> | undefined> {
  const resources = (await env.stack.exportState()).deployment.resources ?? [];
  return resources.find((r) => isKind(r.type, type) && (name === undefined || r.urn.endsWith(`::${name}`)))?.outputs;
}

/**
 * The subnets as the service and the state hold them, each sorted: their names and ids in the
 * service, and the ids of the state's Subnets (either face). Equal `ids` and `stateIds` mean
 * every subnet exists once in both.
 */
export async function subnetsSeen(env: CimsTestEnv): Promise<{ names: string[]; ids: string[]; stateIds: string[] }> {
  const subnets = env.emulator.store.list("subnets");
  const resources = (await env.stack.exportState()).deployment.resources ?? [];
  return {
    names: subnets.map((s) => String(s.name)).sort(),
    ids: subnets.map((s) => String(s.id)).sort(),
    stateIds: resources
      .filter((r) => isKind(r.type, "Subnet"))
      .map((r) => String(r.id))
      .sort(),
  };
}

/** The CLI's warning lines (`warning: ...`) of a command's output, joined: where a warning of ours must appear. */
export const warningLines = (out: string): string =>
  out
    .split("\n")
    .filter((l) => /^\s*warning: /.test(l))
    .join("\n");

// E2E harness: throw-away stacks driven through the real `pulumi` CLI (scripts/pulumi).
//
// Why the CLI directly and not the Automation API: our users type `pulumi preview --diff`
// and `pulumi up`, and later tests need exactly what they see (the diff text, exit codes,
// `--expect-no-changes`) and process control (SIGINT/SIGKILL mid-update). Driving the CLI
// gives all of that with nothing in between; outputs and state are read back with
// `pulumi stack output --json` and `pulumi stack export`.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { logCommand } from "./commands";
import { keepProgram, PROGRAMS_DIR_ENV, runAsJavaScript } from "./programs";

export const REPO_ROOT = path.resolve(__dirname, "../..");
export const PULUMI = path.join(REPO_ROOT, "scripts/pulumi");
/** Generous per-test budget: a stack's first `up` type-checks TypeScript and starts plugins. */
export const E2E_TIMEOUT_MS = 10 * 60_000;
const COMMAND_TIMEOUT_MS = 5 * 60_000;
const PASSPHRASE = "pulumi-cims-e2e-passphrase";
/**
 * The key that marks a special value (a secret, a resource, an asset) in a checkpoint: the
 * SDK's `specialSigKey`, written out as provider/plugin/provider-config.ts does (importing the
 * SDK's runtime here would load it into every e2e file).
 */
const SIG_KEY = "4dabf18193072939515e22adb298388d";

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Resolve instead of throwing when the command exits non-zero. */
  allowFailure?: boolean;
  timeoutMs?: number;
  cwd?: string;
}

export interface StackOptions {
  /**
   * Run in this existing project directory instead of a temp copy (e.g. the repo's own demo
   * project). Only the backend and PULUMI_HOME are temporary then; the stack's config file
   * (Pulumi.<stack>.yaml) is written there and removed by dispose().
   */
  projectDir?: string;
  /** A directory whose files are copied into the project (e.g. tests/fixtures/echo-program). */
  programDir?: string;
  /** Files to write into the project, relative path -> content (after programDir). */
  files?: Record<string, string>;
  /**
   * node_modules to link into the project: the repo's by default (it holds `pulumi-cims`
   * as a link to this checkout); `null` when the test installs its own.
   */
  nodeModules?: string | null;
  stackName?: string;
  /** Stack config set before the first command (`cims:apiUrl` etc.). */
  config?: Record<string, string>;
  /** Stack config set with --secret. */
  secrets?: Record<string, string>;
  /** Extra environment for every command. */
  env?: Record<string, string>;
  /**
   * false: `pulumi` runs the program transpiled only (PULUMI_NODEJS_TRANSPILE_ONLY), as
   * JavaScript the harness compiles before each run (programs.ts `runAsJavaScript`), and each
   * source it ran is kept for the e2e run's one type-check of them all at its end
   * (programs.ts): the same diagnostics, without parsing the SDK's typings on every `up`.
   * Only where that check runs (an e2e run) and the program is checked as ts-node would
   * check it (no tsconfig.json of its own, this checkout's node_modules); otherwise, and by
   * default, the program is type-checked as it runs, as a user's is.
   */
  typeCheck?: boolean;
  /**
   * "passphrase": the stack's secrets are a passphrase's, the CLI's default for a `file://`
   * backend, for a test of what a passphrase does (a salt of the stack's own). Otherwise the
   * run's secrets provider where the run has one (transit.ts), else a passphrase.
   */
  secretsProvider?: "passphrase";
}

/** The run's secrets provider (global-setup.js, transit.ts); unset outside e2e runs. */
const SECRETS_PROVIDER_ENV = "CIMS_E2E_SECRETS_PROVIDER";

/** Environment with nothing inherited that could point Pulumi at a real backend or account. */
function isolatedEnv(root: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith("PULUMI_") && !k.startsWith("CIMS_")) env[k] = v;
  }
  return {
    ...env,
    PULUMI_BACKEND_URL: `file://${path.join(root, "state")}`,
    PULUMI_HOME: path.join(root, "home"),
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    NO_COLOR: "1",
    ...extra,
  };
}

/**
 * The CLI scripts/pulumi runs, as the e2e run's global setup found it, with the environment the
 * wrapper gives it (its directory first on PATH): the wrapper's check of the build costs about
 * 40 ms of CPU a command, and the run checks once. Without it (outside an e2e run), the wrapper.
 */
function resolvedCli(env: NodeJS.ProcessEnv): [string, NodeJS.ProcessEnv] {
  const dir = process.env.CIMS_E2E_PULUMI_BIN;
  if (!dir) return [PULUMI, env];
  const PATH = env.PATH ? `${dir}${path.delimiter}${env.PATH}` : dir;
  return [path.join(dir, "pulumi"), { ...env, PATH, PULUMI_SKIP_UPDATE_CHECK: env.PULUMI_SKIP_UPDATE_CHECK ?? "true" }];
}

/** Runs a command in its own process group so a timeout can stop the plugins it started. */
export function runCommand(file: string, args: string[], env: NodeJS.ProcessEnv, opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: opts.cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timeoutMs = opts.timeoutMs ?? COMMAND_TIMEOUT_MS;
    const timer = setTimeout(() => {
      stderr += `\n[harness] ${path.basename(file)} ${args.join(" ")} timed out after ${timeoutMs} ms\n`;
      killGroup(child.pid, "SIGKILL");
    }, timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const result = { code, signal, stdout, stderr };
      if (code !== 0 && !opts.allowFailure) {
        reject(new Error(`${path.basename(file)} ${args.join(" ")} exited ${code ?? signal}\n${stdout}\n${stderr}`));
      } else {
        resolve(result);
      }
    });
  });
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

export class TestStack {
  readonly projectDir: string;
  readonly env: NodeJS.ProcessEnv;
  private readonly inPlace: boolean;
  /** The `--secrets-provider` its `stack init` takes; undefined: the CLI's default, a passphrase. */
  secretsProvider: string | undefined;

  /** Where the sources of the programs this stack runs are kept for the run's type-check (typeCheck: false). */
  private programsDir?: string;

  constructor(
    readonly root: string,
    readonly name: string,
    extraEnv: Record<string, string> = {},
    projectDir?: string,
  ) {
    this.projectDir = projectDir ?? path.join(root, "project");
    this.inPlace = projectDir !== undefined;
    this.env = isolatedEnv(root, extraEnv);
    this.secretsProvider = process.env[SECRETS_PROVIDER_ENV] || undefined;
  }

  /** Whether the program runs as JavaScript the harness compiles (programs.ts `runAsJavaScript`). */
  private javaScript = false;

  get runsJavaScript(): boolean {
    return this.javaScript;
  }

  /** Runs programs transpiled only, keeping each one's sources in `dir` (programs.ts). */
  transpileOnly(dir: string): void {
    this.programsDir = dir;
    this.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
  }

  /** Runs a TypeScript program transpiled only as JavaScript compiled by the harness before each run (programs.ts). */
  asJavaScript(): void {
    this.javaScript = true;
  }

  /**
   * Call before `pulumi` runs the program (run() does, for `up` and `preview`; a test that
   * spawns `pulumi up` itself with this.env must too): keeps its sources for the run's
   * type-check when it runs transpiled only.
   */
  async programRuns(): Promise<void> {
    if (this.programsDir) await keepProgram(this.projectDir, this.programsDir, currentTestName() ?? this.root);
    if (this.javaScript) await runAsJavaScript(this.projectDir);
  }

  /** `pulumi <args> --non-interactive` in the project directory. */
  async run(args: string[], opts: RunOptions = {}): Promise<RunResult> {
    if (args[0] === "up" || args[0] === "preview") await this.programRuns();
    const [cli, env] = resolvedCli(this.env);
    await logCommand(currentTestFile() ?? scriptFile(), args);
    return runCommand(cli, [...args, "--non-interactive"], env, { cwd: this.projectDir, ...opts });
  }

  private stackRun(command: string[], extra: string[], opts?: RunOptions): Promise<RunResult> {
    return this.run([...command, "--stack", this.name, ...extra], opts);
  }

  up(extra: string[] = [], opts?: RunOptions) {
    return this.stackRun(["up", "--yes", "--skip-preview"], extra, opts);
  }
  preview(extra: string[] = [], opts?: RunOptions) {
    return this.stackRun(["preview"], extra, opts);
  }
  refresh(extra: string[] = [], opts?: RunOptions) {
    return this.stackRun(["refresh", "--yes", "--skip-preview"], extra, opts);
  }
  destroy(extra: string[] = [], opts?: RunOptions) {
    return this.stackRun(["destroy", "--yes", "--skip-preview"], extra, opts);
  }

  async setConfig(key: string, value: string, secret = false): Promise<void> {
    await this.stackRun(["config", "set", key, value], secret ? ["--secret"] : []);
  }

  /**
   * Sets each key as `config set` would, and each of `secrets` as `config set --secret`, in one
   * command: `set-all --plaintext` stores a value untyped, as `config set` does. Each `pulumi`
   * start costs 0.3 to 0.5 s of CPU, and every test makes a stack.
   */
  async setConfigs(values: Record<string, string>, secrets: Record<string, string> = {}): Promise<void> {
    const pairs = [
      ...Object.entries(values).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
      ...Object.entries(secrets).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
    ];
    if (pairs.length > 0) await this.stackRun(["config", "set-all"], pairs);
  }

  /**
   * What `pulumi stack output --json --show-secrets` prints: read from the checkpoint (the
   * stack resource's outputs) where they hold no special value (a secret, which only the CLI
   * can decrypt, a resource, an asset); each `pulumi` start costs 0.3 to 0.5 s of CPU.
   */
  async outputs(): Promise<Record<string, unknown>> {
    const stored = (await this.storedDeployment())?.deployment.resources?.find((r) => r.type === "pulumi:pulumi:Stack");
    if (stored && !JSON.stringify(stored.outputs ?? {}).includes(`"${SIG_KEY}"`)) return stored.outputs ?? {};
    const { stdout } = await this.stackRun(["stack", "output", "--json", "--show-secrets"], []);
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  /** The stack's checkpoint as `pulumi stack export` prints it. */
  async exportState(extra: string[] = []): Promise<StackExport> {
    const stored = extra.length === 0 ? await this.storedDeployment() : undefined;
    if (stored) return stored;
    const { stdout } = await this.stackRun(["stack", "export"], extra);
    return JSON.parse(stdout) as StackExport;
  }

  /**
   * What `pulumi stack export` prints, read where the CLI reads it: the file backend's
   * checkpoint of this stack, whose `latest` is the deployment it prints. The tests read the
   * state after most commands, and each export was a CLI start. Undefined (the CLI exports)
   * unless the backend is a directory holding one checkpoint of this stack, with a deployment.
   */
  private async storedDeployment(): Promise<StackExport | undefined> {
    const latest = (await this.storedCheckpoint())?.stored.checkpoint.latest;
    return latest ? ({ version: 3, deployment: latest } as StackExport) : undefined;
  }

  /**
   * Empties the stack's state, as `pulumi state delete --all --yes` does, in the file backend's
   * checkpoint of this stack, where the CLI reads it: its latest deployment keeps no resource and
   * no pending operation (which would name one), the rest as it was. A CLI start less for what
   * empties a stack between the bench's rows; where there is no such checkpoint, the CLI does it.
   */
  async deleteAllState(): Promise<void> {
    const found = await this.storedCheckpoint();
    if (!found) {
      await this.stackRun(["state", "delete", "--all", "--yes"], []);
      return;
    }
    const { file, stored } = found;
    stored.checkpoint.latest = { ...stored.checkpoint.latest, resources: [] };
    delete stored.checkpoint.latest.pending_operations;
    // Written aside and renamed, as the CLI writes it: a reader never meets half a file.
    const aside = `${file}.${randomBytes(4).toString("hex")}`;
    await fs.writeFile(aside, JSON.stringify(stored));
    await fs.rename(aside, file);
  }

  /** The file backend's one checkpoint of this stack, parsed, with a deployment; else undefined. */
  private async storedCheckpoint(): Promise<{ file: string; stored: StoredCheckpoint } | undefined> {
    const state = fileBackendState(this.env);
    if (!state) return undefined;
    const stacks = path.join(state, "stacks");
    const projects = await fs.readdir(stacks).catch(() => [] as string[]);
    const files = projects.map((p) => path.join(stacks, p, `${this.name}.json`));
    const texts = await Promise.all(files.map((f) => fs.readFile(f, "utf8").catch(() => undefined)));
    const found = texts.flatMap((text, i) => (text === undefined ? [] : [{ file: files[i], text }]));
    if (found.length !== 1) return undefined;
    let stored: { version?: number; checkpoint?: { latest?: unknown } };
    try {
      stored = JSON.parse(found[0].text) as typeof stored;
    } catch {
      return undefined; // not a checkpoint this reads: the CLI says what it is
    }
    const latest = stored.checkpoint?.latest;
    if (stored.version !== 3 || typeof latest !== "object" || latest === null) return undefined;
    return { file: found[0].file, stored: stored as StoredCheckpoint };
  }

  /**
   * Removes the temp directory and, for an in-place project, the stack's config file (the
   * secrets provider writes its salt or key there). Stacks hold no cloud resources to clean up.
   */
  async dispose(): Promise<void> {
    await killStrays(this.root);
    await fs.rm(this.root, { recursive: true, force: true });
    if (this.inPlace) {
      await fs.rm(path.join(this.projectDir, `Pulumi.${this.name}.yaml`), { force: true });
    }
  }
}

/**
 * Kills processes still running with this stack's PULUMI_HOME (plugins of a run that was
 * killed, or timed out, outlive it), so tests leave nothing behind.
 */
async function killStrays(root: string): Promise<void> {
  const marker = `PULUMI_HOME=${path.join(root, "home")}\0`;
  for (const pid of await fs.readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const environ = await fs.readFile(`/proc/${pid}/environ`, "utf8").catch(() => "");
    if (environ.includes(marker)) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }
}

export interface StackExport {
  deployment: {
    resources?: Array<{
      urn: string;
      type: string;
      id?: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
      /** Why its create did not complete: the resource was recorded partly created. */
      initErrors?: string[];
    }>;
  };
}

/** Creates a throw-away project, file:// backend, PULUMI_HOME and stack in a temp directory. */
export async function createStack(opts: StackOptions = {}, template?: StackTemplate): Promise<TestStack> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "pulumi-cims-e2e-"));
  const stack = new TestStack(root, opts.stackName ?? "e2e", opts.env, opts.projectDir);
  if (opts.secretsProvider === "passphrase") stack.secretsProvider = undefined;
  await fs.mkdir(path.join(root, "state"), { recursive: true });
  if (!opts.projectDir) await prepareProject(stack, opts);
  const programsDir = process.env[PROGRAMS_DIR_ENV];
  const tsconfig = await projectHas(stack, "tsconfig.json");
  if (opts.typeCheck === false && programsDir && checkedLikeTsNode(opts) && !tsconfig) {
    stack.transpileOnly(programsDir);
  }
  if (stack.env.PULUMI_NODEJS_TRANSPILE_ONLY === "true" && !opts.projectDir && opts.nodeModules === undefined && !tsconfig) {
    stack.asJavaScript();
  }
  const written = template !== undefined && (await writeStackConfig(stack, opts.config ?? {}, opts.secrets ?? {}, template));
  if (!(written && (await initAsTheCli(stack, template)))) {
    await stack.run(["stack", "init", stack.name, ...(stack.secretsProvider ? ["--secrets-provider", stack.secretsProvider] : [])]);
  }
  if (!written) await stack.setConfigs(opts.config ?? {}, opts.secrets ?? {});
  return stack;
}

/** Where the e2e run keeps its StackTemplate (global-setup.js names the file); unset outside e2e runs. */
const STACK_TEMPLATE_ENV = "CIMS_E2E_STACK_TEMPLATE";

/** A file backend's checkpoint of a stack, as the CLI writes it (version 3), with a deployment. */
interface StoredCheckpoint {
  version: 3;
  checkpoint: { latest: Record<string, unknown> & { resources?: unknown[]; pending_operations?: unknown[] } };
}

/**
 * What `pulumi config set --secret` wrote for one value, the run's API key, in a stack the CLI
 * made: the stack config file's secrets lines (a passphrase's `encryptionsalt`, or the run's
 * provider's `secretsprovider` and `encryptedkey`: the stack's data key, wrapped) and the
 * value's ciphertext. A stack of the same secrets provider whose config file starts with those
 * lines decrypts it (`pulumi stack init` keeps a config file it finds, as for a stack file a
 * team commits), so a test's stack needs no `config set-all`, and on a file backend no `stack
 * init` either (initAsTheCli): about 0.4 s of CPU each, and nearly every e2e test makes a stack.
 */
export interface StackTemplate {
  apiKey: string;
  /** The provider the template's stack was made with (TestStack.secretsProvider). */
  secretsProvider?: string;
  /** The config file's lines before `config:`, each ending in a newline. */
  secretsLines: string;
  secureApiKey: string;
  /**
   * What `pulumi stack init` wrote to the file backend for the template's stack: its checkpoint
   * (the CLI's manifest, and the passphrase's salt, the config file's) and the backend's
   * meta.yaml. A stack of a file backend whose config file the template wrote is those files
   * under its own name (initAsTheCli), with no CLI start at all.
   */
  checkpoint?: { version: number; checkpoint: { stack: string; latest?: unknown } };
  meta?: string;
}

/** This process's StackTemplate of each template file, as its first ask made or found it: stacks made at once ask together. */
const asked = new Map<string, Promise<StackTemplate | undefined>>();

/** The run's StackTemplate, made by the CLI for the first test that asks; undefined outside e2e runs. */
export function stackTemplate(): Promise<StackTemplate | undefined> {
  const file = process.env[STACK_TEMPLATE_ENV];
  if (!file) return Promise.resolve(undefined);
  let template = asked.get(file);
  if (!template) {
    template = keptOrNewTemplate(file).catch((err: unknown) => {
      asked.delete(file);
      throw err;
    });
    asked.set(file, template);
  }
  return template;
}

async function keptOrNewTemplate(file: string): Promise<StackTemplate> {
  const kept = await fs.readFile(file, "utf8").catch(() => undefined);
  if (kept !== undefined) return JSON.parse(kept) as StackTemplate;
  const apiKey = `e2e-key-${randomBytes(8).toString("hex")}`;
  const stack = await createStack({
    files: { "Pulumi.yaml": "name: stack-template\nruntime: nodejs\n" },
    nodeModules: null,
    secrets: { "cims:apiKey": apiKey },
  });
  try {
    const text = await fs.readFile(path.join(stack.projectDir, `Pulumi.${stack.name}.yaml`), "utf8");
    const secretsLines = /^(?:(?:encryptionsalt|secretsprovider|encryptedkey): \S+\n)+(?=config:$)/m.exec(text)?.[0];
    const secureApiKey = /^ {2}cims:apiKey:\n {4}secure: (\S+)$/m.exec(text)?.[1];
    if (!secretsLines || !text.startsWith(secretsLines) || !secureApiKey) {
      throw new Error(`the CLI's stack config file is not as expected:\n${text}`);
    }
    const state = path.join(stack.root, "state", ".pulumi");
    const checkpoint = JSON.parse(
      await fs.readFile(path.join(state, "stacks", "stack-template", `${stack.name}.json`), "utf8"),
    ) as StackTemplate["checkpoint"];
    const meta = await fs.readFile(path.join(state, "meta.yaml"), "utf8");
    const template: StackTemplate = { apiKey, secretsProvider: stack.secretsProvider, secretsLines, secureApiKey, checkpoint, meta };
    // Written aside and renamed, so a reader finds it whole (two first tests of two workers at
    // once each make one, each under a name of its own).
    const aside = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    await fs.writeFile(aside, JSON.stringify(template));
    await fs.rename(aside, file);
    return template;
  } finally {
    await stack.dispose();
  }
}

/** Where a `file://` backend keeps its stacks and meta.yaml (`<dir>/.pulumi`); undefined for another backend. */
function fileBackendState(env: NodeJS.ProcessEnv): string | undefined {
  const backend = env.PULUMI_BACKEND_URL;
  return backend?.startsWith("file://") ? path.join(backend.slice("file://".length), ".pulumi") : undefined;
}

/**
 * `pulumi stack init` of a file backend, without the CLI: the files it writes for the template's
 * stack (StackTemplate), under this stack's project and name, and this stack selected in its
 * PULUMI_HOME (the workspace file the CLI keys by the project file's path). About 0.35 s of CPU
 * a stack, and nearly every e2e test makes one. False, writing nothing, where the CLI must do
 * it: no template files, another backend, a qualified stack name, a project name this does not
 * read, or a stack or a backend layout already there.
 */
async function initAsTheCli(stack: TestStack, template: StackTemplate): Promise<boolean> {
  const state = fileBackendState(stack.env);
  const home = stack.env.PULUMI_HOME;
  if (!template.checkpoint || !template.meta || !state || !home || stack.name.includes("/")) return false;
  const projectFile = path.join(await fs.realpath(stack.projectDir), "Pulumi.yaml");
  const project = /^name: *([A-Za-z0-9_.-]+) *$/m.exec(await fs.readFile(projectFile, "utf8").catch(() => ""))?.[1];
  if (!project) return false;
  const stackFile = path.join(state, "stacks", project, `${stack.name}.json`);
  const meta = await fs.readFile(path.join(state, "meta.yaml"), "utf8").catch(() => undefined);
  if ((meta !== undefined && meta !== template.meta) || (await fs.stat(stackFile).catch(() => undefined))) return false;
  const qualified = `organization/${project}/${stack.name}`;
  await fs.mkdir(path.dirname(stackFile), { recursive: true });
  if (meta === undefined) await fs.writeFile(path.join(state, "meta.yaml"), template.meta);
  await fs.writeFile(
    stackFile,
    JSON.stringify({ ...template.checkpoint, checkpoint: { ...template.checkpoint.checkpoint, stack: qualified } }),
  );
  const workspaces = path.join(home, "workspaces");
  const key = createHash("sha1").update(projectFile).digest("hex");
  await fs.mkdir(workspaces, { recursive: true });
  await fs.writeFile(path.join(workspaces, `${project}-${key}-workspace.json`), JSON.stringify({ stack: qualified }, null, 4));
  return true;
}

/**
 * Writes the stack's config file as `config set-all` would have, with the secrets lines and the
 * key's ciphertext from `template`, before `stack init`. False, writing nothing, where the CLI
 * must set them: a secret other than the template's key, a secrets provider other than the
 * template's, a passphrase of the test's own, or a config file already there.
 */
async function writeStackConfig(
  stack: TestStack,
  config: Record<string, string>,
  secrets: Record<string, string>,
  template: StackTemplate,
): Promise<boolean> {
  const file = `Pulumi.${stack.name}.yaml`;
  const otherSecret = Object.values(secrets).some((v) => v !== template.apiKey);
  const otherProvider = stack.secretsProvider !== template.secretsProvider || stack.env.PULUMI_CONFIG_PASSPHRASE !== PASSPHRASE;
  if (otherSecret || otherProvider || (await projectHas(stack, file))) return false;
  const lines = [
    `${template.secretsLines}config:`,
    ...Object.entries(config).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`),
    ...Object.keys(secrets).flatMap((k) => [`  ${JSON.stringify(k)}:`, `    secure: ${template.secureApiKey}`]),
  ];
  await fs.writeFile(path.join(stack.projectDir, file), `${lines.join("\n")}\n`);
  return true;
}

/** Whether the run's type-check (programs.ts) checks this stack's program as `pulumi` would: a temp project on this checkout's node_modules, transpiling unless the test says otherwise. */
function checkedLikeTsNode(opts: StackOptions): boolean {
  return !opts.projectDir && opts.nodeModules === undefined && opts.env?.PULUMI_NODEJS_TRANSPILE_ONLY === undefined;
}

/** Whether the stack's project directory holds `file`. */
const projectHas = (stack: TestStack, file: string) =>
  fs.stat(path.join(stack.projectDir, file)).then(
    () => true,
    () => false,
  );

/** jest's state of the running test, where there is one. */
const testState = () =>
  (globalThis as { expect?: { getState?: () => { currentTestName?: string; testPath?: string } } }).expect?.getState?.();

/** The running jest test's full name, where there is one. */
function currentTestName(): string | undefined {
  const state = testState();
  return state?.currentTestName ? `${path.relative(REPO_ROOT, state.testPath ?? "")}: ${state.currentTestName}` : undefined;
}

/** The script this process runs (the bench's, when a test started it), relative to the repository. */
const scriptFile = () => path.relative(REPO_ROOT, require.main?.filename ?? process.argv[1] ?? "?");

/** The running test's file, relative to the repository. */
function currentTestFile(): string | undefined {
  const file = testState()?.testPath;
  return file ? path.relative(REPO_ROOT, file) : undefined;
}

/** Copies the program into the temp project and links node_modules. */
async function prepareProject(stack: TestStack, opts: StackOptions): Promise<void> {
  await fs.mkdir(stack.projectDir, { recursive: true });
  if (opts.programDir) {
    await fs.cp(opts.programDir, stack.projectDir, { recursive: true });
  }
  for (const [rel, content] of Object.entries(opts.files ?? {})) {
    const file = path.join(stack.projectDir, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  }
  const nodeModules = opts.nodeModules === undefined ? path.join(REPO_ROOT, "node_modules") : opts.nodeModules;
  if (nodeModules !== null) {
    await fs.symlink(nodeModules, path.join(stack.projectDir, "node_modules"), "dir");
  }
}

/** `npm pack` of this checkout (already built by `npm test`) into `dir`; returns the tarball path. */
export async function packTarball(dir: string): Promise<string> {
  const { stdout } = await runCommand("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], process.env, {
    cwd: REPO_ROOT,
  });
  const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf("["))) as Array<{ filename: string }>;
  return path.join(dir, filename);
}

// What makes the e2e run fast without checking less: the order its files start in
// (tests/support/sequencer.js) and the one type-check, at its end, of the programs its
// stacks ran transpiled only (tests/support/programs.ts); and the count of the pulumi
// commands it ran (tests/support/commands.ts), which is what its time is made of.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { COMMAND_LOG_ENV, commandSummary, logCommand } from "../../support/commands";
import { keepProgram, runAsJavaScript, typeCheckPrograms } from "../../support/programs";
import { createStack, REPO_ROOT, stackTemplate, TestStack } from "../../support/harness";
import { startTransit, type Transit } from "../../support/transit";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const LongestFirst = require("../../support/sequencer.js") as new () => { sort<T>(tests: T[]): T[] };

describe("test order", () => {
  // A fresh clone: jest has no timings of its own (cache off), as on a first run.
  const file = (rel: string, size: number) => ({
    path: path.join(REPO_ROOT, rel),
    context: { config: { cache: false }, hasteFS: { getSize: () => size } },
  });

  test("the longest files by the committed timings start first, whatever their size; unknown files before them", () => {
    const order = new LongestFirst()
      .sort([
        file("tests/unit/provider/testing/echo.test.ts", 5_000),
        file("tests/e2e/kinds/subnet.test.ts", 4_000),
        file("tests/e2e/engine/lifecycle-model.test.ts", 400),
        file("tests/e2e/not-timed-yet.test.ts", 100),
      ])
      .map((t) => path.relative(REPO_ROOT, t.path));
    // The two timed files in the order of their committed seconds, whatever those are today.
    const seconds = JSON.parse(readFileSync(path.join(REPO_ROOT, "tests/support/test-seconds.json"), "utf8")) as Record<string, number>;
    const timed = ["tests/e2e/engine/lifecycle-model.test.ts", "tests/e2e/kinds/subnet.test.ts"].sort((a, b) => seconds[b] - seconds[a]);
    expect(order).toEqual(["tests/e2e/not-timed-yet.test.ts", ...timed, "tests/unit/provider/testing/echo.test.ts"]);
  });
});

describe("programs run transpiled only, type-checked once", () => {
  let root: string;
  let kept: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "pulumi-cims-programs-test-"));
    kept = path.join(root, "kept");
    await fs.mkdir(kept);
    await fs.symlink(path.join(REPO_ROOT, "node_modules"), path.join(kept, "node_modules"), "dir");
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  const project = async (name: string, source: string): Promise<string> => {
    const dir = path.join(root, name);
    await fs.mkdir(path.join(dir, "lib"), { recursive: true });
    await fs.symlink(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    await fs.writeFile(path.join(dir, "index.ts"), `import { port } from "./lib/port";\n${source}`);
    await fs.writeFile(path.join(dir, "lib/port.ts"), "export const port = 80;\n");
    return dir;
  };

  test("each distinct program is kept once, with its local modules; a type error fails the check, naming the test that ran it", async () => {
    const clean = await project(
      "clean",
      `import * as pulumi from "@pulumi/pulumi";\nexport const n: number = port + (new pulumi.Config().getNumber("n") ?? 0);\n`,
    );
    const broken = await project(
      "broken",
      `import * as pulumi from "@pulumi/pulumi";\nexport const n: number = new pulumi.Config().require("n") + port;\n`,
    );
    await keepProgram(clean, kept, "clean.test.ts: runs");
    await keepProgram(clean, kept, "clean.test.ts: runs again");
    await keepProgram(broken, kept, "broken.test.ts: breaks");

    const { checked, failures } = await typeCheckPrograms(kept);
    expect(checked).toBe(2);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^index\.ts of a program run by "broken\.test\.ts: breaks"/);
    expect(failures[0]).toMatch(/TS2322: Type 'string' is not assignable to type 'number'/);
  }, 120_000);
});

describe("transpile-only programs run as the JavaScript the harness compiles", () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "pulumi-cims-javascript-test-"));
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  const project = async (name: string, pulumiYaml: string): Promise<string> => {
    const dir = path.join(root, name);
    await fs.mkdir(path.join(dir, "lib"), { recursive: true });
    await fs.writeFile(path.join(dir, "Pulumi.yaml"), pulumiYaml);
    await fs.writeFile(path.join(dir, "lib/port.ts"), "export const port: number = 80;\n");
    return dir;
  };
  const exported = (dir: string): string =>
    execFileSync(process.execPath, ["-e", `process.stdout.write(JSON.stringify(require(${JSON.stringify(dir)}).n))`], { encoding: "utf8" });

  test("each source is compiled beside it before each run, and the project says it is JavaScript, with index.js its entry point", async () => {
    const dir = await project("plain", "name: plain\nruntime: nodejs\ndescription: kept\n");
    await fs.writeFile(path.join(dir, "index.ts"), 'import { port } from "./lib/port";\nexport const n: number = port + 1;\n');
    expect(await runAsJavaScript(dir)).toBe(true);
    const converted = "name: plain\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\ndescription: kept\n";
    expect(await fs.readFile(path.join(dir, "Pulumi.yaml"), "utf8")).toBe(converted);
    expect(exported(dir)).toBe("81");

    await fs.writeFile(path.join(dir, "index.ts"), 'import { port } from "./lib/port";\nexport const n: number = port + 2;\n');
    expect(await runAsJavaScript(dir)).toBe(true);
    expect(exported(dir)).toBe("82");
    expect(await fs.readFile(path.join(dir, "Pulumi.yaml"), "utf8")).toBe(converted);
  });

  test("a JavaScript file it did not compile is refused, not overwritten; another runtime is left as it is", async () => {
    const dir = await project("own-js", "name: own-js\nruntime: nodejs\n");
    await fs.writeFile(path.join(dir, "index.ts"), "export const n = 1;\n");
    await fs.writeFile(path.join(dir, "index.js"), "exports.n = 2;\n");
    await expect(runAsJavaScript(dir)).rejects.toThrow(/index\.js exists beside its TypeScript source/);
    expect(await fs.readFile(path.join(dir, "index.js"), "utf8")).toBe("exports.n = 2;\n");

    const yaml = await project("yaml", "name: yaml\nruntime: yaml\n");
    expect(await runAsJavaScript(yaml)).toBe(false);
    expect((await fs.readdir(path.join(yaml, "lib"))).sort()).toEqual(["port.ts"]);
    expect(await fs.readFile(path.join(yaml, "Pulumi.yaml"), "utf8")).toBe("name: yaml\nruntime: yaml\n");
  });
});

describe("the run's pulumi commands, counted", () => {
  let dir: string;
  const saved = process.env[COMMAND_LOG_ENV];
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "pulumi-cims-commands-test-"));
  });
  afterEach(async () => {
    if (saved === undefined) delete process.env[COMMAND_LOG_ENV];
    else process.env[COMMAND_LOG_ENV] = saved;
    await fs.rm(dir, { recursive: true, force: true });
  });

  test("each command is logged; the summary counts the engine's by kind and by file, apart from the others", async () => {
    const log = path.join(dir, "commands.jsonl");
    process.env[COMMAND_LOG_ENV] = log;
    const runs: Array<[string, string[]]> = [
      ["tests/e2e/kinds/subnet.test.ts", ["up", "--yes"]],
      ["tests/e2e/kinds/subnet.test.ts", ["preview", "--diff"]],
      ["tests/e2e/kinds/subnet.test.ts", ["config", "set", "x", "1"]],
      ["tests/e2e/engine/engine.test.ts", ["destroy"]],
      ["tests/e2e/kinds/subnet.test.ts", ["preview"]],
      ["tests/e2e/engine/engine.test.ts", ["stack", "output"]],
    ];
    for (const [file, args] of runs) await logCommand(file, args);
    expect(commandSummary(await fs.readFile(log, "utf8"), 1)).toBe(
      "pulumi commands run: 4 of the engine (up 1, preview 2, destroy 1) and 2 others; the most engine commands: subnet.test.ts 3",
    );
  });
});

describe("CPU per test file", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { cpuSeconds } = require("../../support/cpu-per-file.js") as { cpuSeconds(): number | undefined };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Reporter = require("../../support/summary-reporter.js") as new (
    g: unknown,
    o: { top: number },
  ) => {
    cpuLog: string;
    cpuLine(): string | undefined;
  };

  test("a child's CPU counts once it is waited for", () => {
    const before = cpuSeconds();
    expect(before).toBeDefined();
    execFileSync(process.execPath, ["-e", "while (process.cpuUsage().user < 400_000);"]);
    expect(cpuSeconds()! - before!).toBeGreaterThanOrEqual(0.35);
  });

  test("the summary ranks the files by their CPU, keeps every figure where told, and removes the log", async () => {
    const reporter = new Reporter({}, { top: 2 });
    const line = (file: string, seconds: number) => `${JSON.stringify({ file: path.join(REPO_ROOT, file), seconds })}\n`;
    const figures = line("tests/a.test.ts", 3.2) + line("tests/b.test.ts", 40.4) + line("tests/c.test.ts", 7);
    await fs.writeFile(reporter.cpuLog, figures);
    const kept = path.join(os.tmpdir(), `pulumi-cims-cpu-kept-${process.pid}.jsonl`);
    process.env.CIMS_TEST_CPU_KEEP = kept;
    try {
      expect(reporter.cpuLine()).toBe(
        "CPU of the test files (theirs and their commands'): 51 s in all; the most: tests/b.test.ts 40 s, tests/c.test.ts 7 s",
      );
      expect(await fs.readFile(kept, "utf8")).toBe(figures);
    } finally {
      delete process.env.CIMS_TEST_CPU_KEEP;
      await fs.rm(kept, { force: true });
    }
    expect(reporter.cpuLine()).toBeUndefined();
  });
});

/**
 * Each test of the block in a temp dir of its own (`root()`), its `pulumi` the script `script`
 * writes there (given the dir): the harness runs it where it would run the CLI.
 */
function withFakeCli(prefix: string, script: (root: string) => string): () => string {
  let root = "";
  let saved: string | undefined;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    await fs.mkdir(path.join(root, "bin"));
    await fs.writeFile(path.join(root, "bin/pulumi"), script(root), { mode: 0o755 });
    saved = process.env.CIMS_E2E_PULUMI_BIN;
    process.env.CIMS_E2E_PULUMI_BIN = path.join(root, "bin");
  });
  afterEach(async () => {
    if (saved === undefined) delete process.env.CIMS_E2E_PULUMI_BIN;
    else process.env.CIMS_E2E_PULUMI_BIN = saved;
    await fs.rm(root, { recursive: true, force: true });
  });
  return () => root;
}

describe("TestStack.outputs", () => {
  // A `pulumi` that only says it ran: what outputs() returns when it asks the CLI.
  const root = withFakeCli("outputs-", () => '#!/bin/sh\necho \'{"from": "the CLI"}\'\n');

  const checkpoint = async (stack: TestStack, outputs: Record<string, unknown>) => {
    const dir = path.join(root(), "state/.pulumi/stacks/project");
    await fs.mkdir(dir, { recursive: true });
    const resources = [{ urn: "urn:pulumi:e2e::project::pulumi:pulumi:Stack::project-e2e", type: "pulumi:pulumi:Stack", outputs }];
    await fs.writeFile(path.join(dir, `${stack.name}.json`), JSON.stringify({ version: 3, checkpoint: { latest: { resources } } }));
  };

  test("read from the checkpoint while they hold plain values; from the CLI once one is a secret", async () => {
    const stack = new TestStack(root(), "e2e");
    await fs.mkdir(stack.projectDir, { recursive: true });
    await checkpoint(stack, { subnetId: "a1", nested: { n: 1 } });
    expect(await stack.outputs()).toEqual({ subnetId: "a1", nested: { n: 1 } });
    await checkpoint(stack, { key: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "x" } });
    expect(await stack.outputs()).toEqual({ from: "the CLI" });
  });
});

describe("TestStack.deleteAllState", () => {
  // A `pulumi` that only notes what it was asked: the command deleteAllState leaves to the CLI.
  const root = withFakeCli("delete-all-", (dir) => `#!/bin/sh\necho "$@" > ${path.join(dir, "asked")}\n`);

  test("empties the checkpoint's resources and pending operations, keeping the rest of it, with no CLI start", async () => {
    const stack = new TestStack(root(), "e2e");
    await fs.mkdir(stack.projectDir, { recursive: true });
    const dir = path.join(root(), "state/.pulumi/stacks/project");
    await fs.mkdir(dir, { recursive: true });
    const resources = [
      { urn: "urn:pulumi:e2e::project::pulumi:pulumi:Stack::project-e2e", type: "pulumi:pulumi:Stack" },
      { urn: "urn:pulumi:e2e::project::cims:index:Subnet::s0", type: "cims:index:Subnet", id: "a1" },
    ];
    const latest = {
      manifest: { version: "v3.248.0" },
      secrets_providers: { type: "passphrase" },
      resources,
      pending_operations: [{ type: "creating" }],
    };
    await fs.writeFile(path.join(dir, "e2e.json"), JSON.stringify({ version: 3, checkpoint: { stack: "e2e", latest } }));
    await stack.deleteAllState();
    expect(JSON.parse(await fs.readFile(path.join(dir, "e2e.json"), "utf8"))).toEqual({
      version: 3,
      checkpoint: { stack: "e2e", latest: { manifest: latest.manifest, secrets_providers: latest.secrets_providers, resources: [] } },
    });
    expect((await stack.exportState()).deployment.resources).toEqual([]);
    expect(await fs.readdir(dir)).toEqual(["e2e.json"]);
    await expect(fs.access(path.join(root(), "asked"))).rejects.toThrow();
  });

  test("with no checkpoint of the stack to write, asks the CLI", async () => {
    const stack = new TestStack(root(), "e2e");
    await fs.mkdir(stack.projectDir, { recursive: true });
    await stack.deleteAllState();
    expect((await fs.readFile(path.join(root(), "asked"), "utf8")).trim()).toBe("state delete --all --yes --stack e2e --non-interactive");
  });
});

describe("the run's stack template", () => {
  // The environment as the test found it: a worker that ran an e2e file holds the run's
  // template and secrets provider (the projects share their workers); each test here says its own.
  const saved = { ...process.env };
  beforeEach(() => {
    delete process.env.CIMS_E2E_SECRETS_PROVIDER;
  });
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });

  // Three stacks made at once (a test's Promise.all) each made a template, and each wrote it
  // aside under the process's one name before renaming it: the second rename found nothing.
  test("stacks made at once in one process share one template, made once", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "stack-template-"));
    try {
      process.env.CIMS_E2E_STACK_TEMPLATE = path.join(dir, "stack-template.json");
      const three = await Promise.all([stackTemplate(), stackTemplate(), stackTemplate()]);
      expect(three[0]?.apiKey).toMatch(/^e2e-key-/);
      expect(three.map((t) => t?.apiKey)).toEqual([three[0]?.apiKey, three[0]?.apiKey, three[0]?.apiKey]);
      expect(JSON.parse(await fs.readFile(path.join(dir, "stack-template.json"), "utf8"))).toEqual(three[0]);
      expect(await fs.readdir(dir)).toEqual(["stack-template.json"]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  // `pulumi stack init` is a CLI start of about 0.35 s of CPU for every stack a test makes; from
  // the template its files are written instead, and the CLI must find the stack as its own:
  // with a passphrase (outside an e2e run), and with the run's secrets provider (transit.ts).
  test.each(["a passphrase", "the run's secrets provider"])(
    "with %s, a stack made from it needs no `stack init`: the CLI finds it selected, with its config and secret",
    async (secrets) => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "stack-template-"));
      const transit = secrets === "a passphrase" ? undefined : await startTransit();
      if (transit) Object.assign(process.env, transit.env, { CIMS_E2E_SECRETS_PROVIDER: transit.provider });
      let stack: TestStack | undefined;
      try {
        process.env.CIMS_E2E_STACK_TEMPLATE = path.join(dir, "stack-template.json");
        const template = await stackTemplate();
        process.env[COMMAND_LOG_ENV] = path.join(dir, "commands.jsonl");
        stack = await createStack(
          {
            files: { "Pulumi.yaml": "name: from-template\nruntime: nodejs\n" },
            nodeModules: null,
            stackName: "dev",
            config: { "cims:regionId": "7" },
            secrets: { "cims:apiKey": template!.apiKey },
          },
          template,
        );
        // No --stack: the stack the workspace selects.
        const shown = await stack.run(["config", "--show-secrets", "--json"]);
        expect(JSON.parse(shown.stdout)).toEqual({
          "cims:apiKey": { value: template!.apiKey, secret: true },
          "cims:regionId": { value: "7", secret: false },
        });
        const commands = (await fs.readFile(path.join(dir, "commands.jsonl"), "utf8")).trim().split("\n");
        expect(commands.map((l) => (JSON.parse(l) as { command: string }).command)).toEqual(["config"]);
        const configFile = await fs.readFile(path.join(stack.projectDir, "Pulumi.dev.yaml"), "utf8");
        expect(configFile.split("\n")[0]).toMatch(transit ? /^secretsprovider: hashivault:\/\/pulumi-cims-e2e$/ : /^encryptionsalt: v1:/);
      } finally {
        await stack?.dispose();
        await transit?.close();
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe("the run's secrets provider (transit.ts)", () => {
  let transit: Transit;
  beforeAll(async () => {
    transit = await startTransit();
  });
  afterAll(() => transit.close());

  const call = (op: string, body: object, token = transit.env.VAULT_SERVER_TOKEN, key = "pulumi-cims-e2e") =>
    fetch(`${transit.env.VAULT_SERVER_URL}/v1/transit/${op}/${key}`, {
      method: "PUT",
      headers: { "x-vault-token": token, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: Record<string, string>; errors?: string[] } }));

  test("encrypts as Vault's transit engine answers, and decrypts what it encrypted, and only that", async () => {
    const plaintext = Buffer.from("a stack's data key").toString("base64");
    const sealed = await call("encrypt", { plaintext });
    expect(sealed.status).toBe(200);
    const ciphertext = sealed.body.data!.ciphertext;
    expect(ciphertext).toMatch(/^vault:v1:/);
    expect(ciphertext).not.toContain(plaintext);
    expect(await call("decrypt", { ciphertext })).toEqual({ status: 200, body: { data: { plaintext } } });
    const raw = Buffer.from(ciphertext.slice("vault:v1:".length), "base64");
    raw[raw.length - 1] ^= 1;
    const tampered = await call("decrypt", { ciphertext: `vault:v1:${raw.toString("base64")}` });
    expect(tampered.status).toBe(400);
  });

  test("refuses another token and another key's name", async () => {
    expect((await call("encrypt", { plaintext: "eA==" }, "not-the-token")).status).toBe(403);
    expect((await call("encrypt", { plaintext: "eA==" }, undefined, "another-key")).status).toBe(400);
  });
});

// The bad-input catalogue, every case sent to a face's real provider process over gRPC, as the
// engine sends it: the process the engine starts (the plugin `bin/pulumi-resource-cims`, or
// Pulumi's Node dynamic-provider host with the resource's serialized `__provider`), configured
// with what the engine sends it, each case's inputs serialized by the Pulumi SDK's own
// serializer, as a program's are. Its `Check` must fail naming the property and the rule, with
// zero requests reaching the emulator.
//
// Two of the cases also run through `pulumi preview` (catalogue.ts), to show the engine
// prints the provider's answer. Why not every case through the CLI: the engine stops a preview
// at the first invalid resource, so that would be one preview per case (over 70 on each face,
// some 6 minutes of CPU each) to prove the engine's printing again and again.
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { serializeProperties, specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { type RunningEmulator, startEmulator } from "pulumi-cims/emulator";
import { grpc, providerPb, providerRpc, structpb } from "../../../../provider/proto";
import { KIND_NAMES, type Kind } from "../../../../provider/kinds/registry";
import { type BadCase, VALID } from "./catalogue";
import { cimsType, type Face, faceProject, SEED_FILE, useStacks } from "../../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../../../support/harness";

/**
 * Two cases, a rule about a value and a wrong JSON type (an int64 written as a JavaScript
 * number, its digits lost on the way from the program): the engine's printing of a failed Check is the same for every case, and every
 * case above already fails in the real provider process with its inputs serialized as a
 * program's are. Each sample is a preview on each face (about 4.5 s of CPU each).
 */
export const THROUGH_THE_CLI = ["subnet: cidr with host bits", "quota: a limit that lost digits as a number"];

const problemOf = (c: BadCase): RegExp => new RegExp(`^${c.property.replace(/[[\].]/g, "\\$&")}[: ]`);

type Client = InstanceType<typeof providerRpc.ResourceProviderClient>;
const call = <Req, Res>(client: Client, method: (req: Req, cb: (err: Error | null, res: Res) => void) => unknown, req: Req): Promise<Res> =>
  new Promise((resolve, reject) => method.call(client, req, (err, res) => (err ? reject(err) : resolve(res))));

/** Each kind's `__provider`, as a program serializes it: read from `pulumi preview --json` of one valid resource of every kind. */
async function serializedProviders(stacks: ReturnType<typeof useStacks>): Promise<Map<string, string>> {
  const program = [
    'import * as cims from "pulumi-cims";',
    `new cims.Subnet("subnet", ${VALID.subnet});`,
    `new cims.BaremetalImage("image", ${VALID.image});`,
    `new cims.LbPoolSettings("pool", ${VALID.pool});`,
    `new cims.SnapshotPolicyState("policy", ${VALID.policy});`,
    `new cims.QuotaThreshold("quota", ${VALID.quota});`,
    `new cims.LbPoolMember("member", ${VALID.member});`,
    `new cims.SnapshotPolicy("snapshots", ${VALID.snapshots});`,
    `new cims.SnapshotPolicyVolume("policy-volume", ${VALID.policyVolume});`,
  ].join("\n");
  const env = await stacks.stack({ files: { "Pulumi.yaml": faceProject("serialized", "dynamic"), "index.ts": program } });
  const { stdout } = await env.stack.preview(["--json"]);
  const steps = (JSON.parse(stdout) as { steps: Array<{ newState?: { type: string; inputs?: { __provider?: string } } }> }).steps;
  const texts = new Map<string, string>();
  for (const step of steps) {
    const text = step.newState?.inputs?.__provider;
    if (step.newState && text) texts.set(step.newState.type, text);
  }
  return texts;
}

/** Starts a face's provider process as the engine does and reads the port it prints. */
async function startProvider(face: Face): Promise<{ process: ChildProcess; port: string }> {
  // The dynamic-provider host takes the engine's address as its argument and uses it for nothing here.
  const [file, args] =
    face === "native"
      ? [path.join(REPO_ROOT, "bin/pulumi-resource-cims"), []]
      : [process.execPath, [require.resolve("@pulumi/pulumi/cmd/dynamic-provider"), "127.0.0.1:0"]];
  const child = spawn(file, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, PULUMI_NODEJS_PROJECT: "bad-inputs", PULUMI_NODEJS_STACK: "e2e" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the ${face} provider exited (${code}) before saying its port`)));
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  return { process: child, port: port.trim() };
}

/**
 * What the engine configures a face's provider with from the stack's `cims:` config: the
 * plugin gets `cims:config:<key>` variables; a dynamic provider gets the whole stack config,
 * namespaced, its secrets wrapped (deploy.Target.GetPackageConfig).
 */
function configureRequest(
  face: Face,
  config: Record<string, string>,
  secretKeys: string[],
): InstanceType<typeof providerPb.ConfigureRequest> {
  const req = new providerPb.ConfigureRequest();
  if (face === "native") {
    const variables = req.getVariablesMap();
    for (const [key, value] of Object.entries(config)) variables.set(`cims:config:${key}`, value);
    return req;
  }
  const args = Object.fromEntries(
    Object.entries(config).map(([key, value]) => [
      `cims:${key}`,
      secretKeys.includes(key) ? { [specialSigKey]: specialSecretSig, value } : value,
    ]),
  );
  req.setArgs(structpb.Struct.fromJavaScript(args));
  return req;
}

/** Every case through the face's provider's Check, after a valid resource passes it. */
export function throughCheck(title: string, face: Face, cases: BadCase[]): void {
  describe(title, () => {
    const stacks = useStacks("all");
    let emulator: RunningEmulator;
    let provider: ChildProcess | undefined;
    let client: Client;
    let providers = new Map<string, string>();

    beforeAll(async () => {
      const apiKey = "check-every-case-key";
      emulator = await startEmulator({ apiKey, seed: SEED_FILE, taskDurationMs: 300 });
      if (face === "dynamic") providers = await serializedProviders(stacks);
      const started = await startProvider(face);
      provider = started.process;
      client = new providerRpc.ResourceProviderClient(`127.0.0.1:${started.port}`, grpc.credentials.createInsecure());
      const config = { apiUrl: emulator.url, apiKey, projectId: "1", regionId: "1" };
      await call(client, client.configure, configureRequest(face, config, ["apiKey"]));
    }, E2E_TIMEOUT_MS);

    afterAll(async () => {
      client?.close();
      // SIGKILL, as the engine ends a plugin: a dynamic provider takes a first SIGTERM as a cancel.
      provider?.kill("SIGKILL");
      await emulator?.close();
    });

    test("each kind's serialized provider was read from the preview", () => {
      if (face === "dynamic") expect([...providers.keys()].sort()).toEqual(KIND_NAMES.map((k) => cimsType(k, face)).sort());
      else expect(providers.size).toBe(0);
    });

    /** Check of one resource of `kind` with these args (TypeScript source), as the engine sends it. */
    const check = async (kind: Kind, source: string) => {
      // The program's args, as the SDK sends them: undefined dropped, the rest as JSON.
      const args = new Function(`return (${source});`)() as Record<string, unknown>;
      const news = await serializeProperties("r", args);
      if (face === "dynamic") news.__provider = providers.get(cimsType(kind, face));
      const req = new providerPb.CheckRequest();
      req.setUrn(`urn:pulumi:e2e::bad-inputs::${cimsType(kind, face)}::r`);
      req.setOlds(new structpb.Struct());
      req.setNews(structpb.Struct.fromJavaScript(news));
      return call<providerPb.CheckRequest, providerPb.CheckResponse>(client, client.check, req);
    };

    test("a valid subnet passes Check, which reads its network with the configured key", async () => {
      emulator.metrics.reset();
      const resp = await check("Subnet", VALID.subnet);
      expect(resp.getFailuresList().map((f) => f.getReason())).toEqual([]);
      expect(emulator.metrics.snapshot().requests).toEqual({
        "GET /cloud/v1/subnets/:project_id/:region_id 200": 1,
        "GET /cloud/v1/projects/:project_id 200": 1,
      });
    });

    test.each(cases.map((c) => [c.what, c] as const))("%s", async (_what, c) => {
      emulator.metrics.reset();
      const resp = await check(c.resource, c.args);
      // The engine prints each failure as "<type> resource 'r': ... has a problem: <reason>".
      const reason = resp
        .getFailuresList()
        .map((f) => f.getReason())
        .find((r) => problemOf(c).test(r));
      expect(reason).toBeDefined();
      expect(reason).toMatch(c.rule);
      expect(emulator.metrics.snapshot().total_requests).toBe(0);
    });

    test("the sample run through the CLI is in the catalogue", () => {
      expect(THROUGH_THE_CLI.filter((what) => !cases.some((c) => c.what === what))).toEqual([]);
    });
  });
}

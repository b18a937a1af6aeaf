// The bad-input catalogue on the plugin face: every case of tests/e2e/bad-inputs/ through
// `cims.native.<Kind>` fails with the same property and rule as on the dynamic face, with
// zero requests reaching the emulator.
//
// Every case goes to the real plugin (`bin/pulumi-resource-cims`, the file the engine starts)
// over gRPC, its inputs serialized by the Pulumi SDK's own serializer, as a program's are. A
// sample of them also runs through `pulumi preview`, to show the engine prints the plugin's
// answer. Why not every case through the CLI: the engine stops a preview at the first invalid
// resource, so that would be one preview per case (over 70, some 8 minutes of the suite) to
// prove the engine's printing again and again; the dynamic face's catalogue runs each case
// through the CLI.
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { serializeProperties } from "@pulumi/pulumi/runtime/rpc";
import { type RunningEmulator, startEmulator } from "pulumi-cims/emulator";
import { grpc, providerPb, providerRpc, structpb } from "../../provider/plugin/proto";
import { type BadCase, catalogue } from "./bad-inputs/catalogue";
import { MEMBER } from "./bad-inputs/member";
import { POLICY_QUOTA } from "./bad-inputs/policy-quota";
import { POOL } from "./bad-inputs/pool";
import { SUBNET_IMAGE } from "./bad-inputs/subnet-image";
import { SEED_FILE } from "../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../support/harness";

const ALL: BadCase[] = [...SUBNET_IMAGE, ...POOL, ...POLICY_QUOTA, ...MEMBER];

/** One case of each kind, and each way a JSON type can be wrong (null, a string, an array, a lossy number). */
const THROUGH_THE_CLI = [
  "subnet: cidr with host bits",
  "subnet: gatewayIp null without connectToNetworkRouter false",
  "subnet: enableDhcp as a string",
  "image: isBaremetal as 1",
  "pool: members as a string",
  "policy: a field the API does not accept",
  "quota: a limit that lost digits as a number",
  "member: neither subnetId nor instanceId",
];

const problemOf = (c: BadCase): RegExp => new RegExp(`^${c.property.replace(/[[\].]/g, "\\$&")}[: ]`);

describe("bad inputs on the plugin face: every case through the plugin's Check", () => {
  let emulator: RunningEmulator;
  let plugin: ChildProcess;
  let client: InstanceType<typeof providerRpc.ResourceProviderClient>;

  const call = <Req, Res>(method: (req: Req, cb: (err: Error | null, res: Res) => void) => unknown, req: Req): Promise<Res> =>
    new Promise((resolve, reject) => method.call(client, req, (err, res) => (err ? reject(err) : resolve(res))));

  beforeAll(async () => {
    const apiKey = "plugin-check-key";
    emulator = await startEmulator({ apiKey, seed: SEED_FILE, taskDurationMs: 300 });
    plugin = spawn(path.join(REPO_ROOT, "bin/pulumi-resource-cims"), [], { stdio: ["ignore", "pipe", "inherit"] });
    const port = await new Promise<string>((resolve, reject) => {
      plugin.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before saying its port`)));
      createInterface({ input: plugin.stdout! }).once("line", resolve);
    });
    client = new providerRpc.ResourceProviderClient(`127.0.0.1:${port.trim()}`, grpc.credentials.createInsecure());
    // What the engine sends: the stack's `cims:` config as `cims:config:<key>`.
    const configure = new providerPb.ConfigureRequest();
    const variables = configure.getVariablesMap();
    for (const [key, value] of Object.entries({ apiUrl: emulator.url, apiKey, projectId: "1", regionId: "1" })) {
      variables.set(`cims:config:${key}`, value);
    }
    await call(client.configure, configure);
  }, E2E_TIMEOUT_MS);

  afterAll(async () => {
    client?.close();
    plugin?.kill();
    await emulator?.close();
  });

  test.each(ALL.map((c) => [c.what, c] as const))("%s", async (_what, c) => {
    // The program's args, as the SDK sends them: undefined dropped, the rest as JSON.
    const args = new Function(`return (${c.args});`)() as Record<string, unknown>;
    const req = new providerPb.CheckRequest();
    req.setUrn(`urn:pulumi:bad-inputs::bad-inputs::cims:index:${c.resource}::r`);
    req.setOlds(new structpb.Struct());
    req.setNews(structpb.Struct.fromJavaScript(await serializeProperties("r", args)));
    emulator.metrics.reset();
    const resp = await call<providerPb.CheckRequest, providerPb.CheckResponse>(client.check, req);
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
    expect(THROUGH_THE_CLI.filter((what) => !ALL.some((c) => c.what === what))).toEqual([]);
  });
});

catalogue(
  "bad inputs on the plugin face: a sample through pulumi preview",
  ALL.filter((c) => THROUGH_THE_CLI.includes(c.what)),
  "native",
);

// The plugin's CheckConfig and DiffConfig, called as the engine calls them: a provider's
// arguments (the default provider's: the stack's `cims:` config) are held to the dynamic
// face's rules before anything is called, and a changed setting is a diff that replaces nothing.
import { providerPb } from "../../../../provider/proto";
import { providerServer } from "../../../../provider/plugin/server";
import { fromStruct, toStruct } from "../../../../provider/plugin/values";
import { UNKNOWN } from "../../../../provider/methods/schema";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { SECRET_SIG, SIG_KEY } from "../../../../provider/plugin/provider-config";
import { Config } from "@pulumi/pulumi/cmd/dynamic-provider/config";
import * as fs from "node:fs";
import * as path from "node:path";
import { ConfigurationError } from "../../../../provider/client/errors";
import { CONFIG_KEYS, CONFIG_TABLE } from "../../../../provider/config";
import { installMethods, type Methods } from "../../../../provider/methods/install";
import { PROVIDER_CONFIG } from "../../../../scripts/package-schema";

const EXPLICIT = "urn:pulumi:dev::infra::pulumi:providers:cims::prod";
const DEFAULT = "urn:pulumi:dev::infra::pulumi:providers:cims::default_0_1_0";
const KEY = "sk-unit-checkconfig-5d1e";
const good = { apiUrl: "http://127.0.0.1:9", apiKey: KEY, projectId: 2, regionId: 3, version: "0.1.0" };

type Handler = (call: unknown, done: (err: unknown, reply: unknown) => void) => void;
const handlers = providerServer(undefined) as Record<string, Handler>;
const call = <T>(method: string, request: unknown): Promise<T> =>
  new Promise((resolve, reject) => handlers[method]({ request }, (err, reply) => (err ? reject(err) : resolve(reply as T))));

async function checkConfig(news: Record<string, unknown>, urn = EXPLICIT) {
  const req = new providerPb.CheckRequest();
  req.setUrn(urn);
  req.setNews(toStruct(news));
  const resp = await call<InstanceType<typeof providerPb.CheckResponse>>("checkConfig", req);
  const failures = resp.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
  return { inputs: fromStruct(resp.getInputs()), failures };
}

async function diffConfig(olds: Record<string, unknown>, news: Record<string, unknown>, ignoreChanges: string[] = []) {
  const req = new providerPb.DiffRequest();
  req.setUrn(EXPLICIT);
  req.setId("a1b2c3");
  req.setOldInputs(toStruct(olds));
  req.setOlds(toStruct(olds));
  req.setNews(toStruct(news));
  req.setIgnorechangesList(ignoreChanges);
  return call<InstanceType<typeof providerPb.DiffResponse>>("diffConfig", req);
}

function kinds(resp: InstanceType<typeof providerPb.DiffResponse>): Record<string, number> {
  const found: Record<string, number> = {};
  resp.getDetaileddiffMap().forEach((d, k) => (found[k] = d.getKind()));
  return found;
}

describe("CheckConfig", () => {
  test("valid arguments pass and come back as they came", async () => {
    expect(await checkConfig(good)).toEqual({ inputs: good, failures: [] });
  });

  test("each malformed argument fails, named as the program wrote it, with its rule", async () => {
    const { failures } = await checkConfig({
      ...good,
      apiUrl: "not a url",
      projectId: "abc",
      regionId: 0,
      taskPath: "/tasks",
      coalesceReads: "yes",
      maxRequestsPerSecond: "fast",
    });
    expect(failures).toEqual([
      { property: "apiUrl", reason: 'apiUrl must be an absolute http(s) URL, got "not a url"' },
      { property: "projectId", reason: 'projectId must be an integer >= 1, got "abc"' },
      { property: "regionId", reason: 'regionId must be an integer >= 1, got "0"' },
      { property: "taskPath", reason: 'taskPath must start with "/" and contain {task_id}, got "/tasks"' },
      { property: "coalesceReads", reason: 'coalesceReads must be true or false, got "yes"' },
      { property: "maxRequestsPerSecond", reason: 'maxRequestsPerSecond must be a positive number of requests per second, got "fast"' },
    ]);
  });

  test("defaultTags and ignoreTags are objects, as a program gives them or as stack config's JSON; each rule broken is named with what to do", async () => {
    const tags = { defaultTags: { costCentre: "cc-42" }, ignoreTags: { keys: ["owner"], keyPrefixes: ["k8s.io/"] } };
    expect((await checkConfig({ ...good, ...tags })).failures).toEqual([]);
    const asText = { defaultTags: JSON.stringify(tags.defaultTags), ignoreTags: JSON.stringify(tags.ignoreTags) };
    expect((await checkConfig({ ...good, ...asText }, DEFAULT)).failures).toEqual([]);
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { defaultTags: { costCentre: 42 } },
        'defaultTags: the value of tag "costCentre" must be text, got 42; quote it ({"costCentre":"42"})',
      ],
      [{ defaultTags: ["cc-42"] }, 'defaultTags must be an object, such as {"costCentre": "cc-42"}; got "[\\"cc-42\\"]"'],
      [{ defaultTags: { "": "x" } }, 'defaultTags: a tag key must be 1 to 255 characters, got ""'],
      [
        { defaultTags: { team: "x".repeat(256) } },
        'defaultTags: the value of tag "team" is 256 characters; a tag\'s value has at most 255',
      ],
      [
        { ignoreTags: { keyPrefixes: [""] } },
        "ignoreTags.keyPrefixes holds an empty prefix, which every key starts with: it would leave every tag alone; remove it, or list the keys in ignoreTags.keys",
      ],
      [{ ignoreTags: { keys: [""] } }, "ignoreTags.keys holds an empty key, which no tag has; remove it"],
      [{ ignoreTags: { keys: "owner" } }, 'ignoreTags.keys must be a list of tag keys, got "owner"'],
      [
        { ignoreTags: { prefixes: ["k8s.io/"] } },
        'ignoreTags takes `keys` and `keyPrefixes` only, got `prefixes`; such as {"keys": ["owner"], "keyPrefixes": ["k8s.io/"]}',
      ],
    ];
    for (const [given, reason] of cases) {
      const property = Object.keys(given)[0];
      expect((await checkConfig({ ...good, ...given })).failures).toEqual([{ property, reason }]);
    }
    const { failures } = await checkConfig({ ...good, defaultTags: JSON.stringify({ a: 1 }) }, DEFAULT);
    expect(failures).toEqual([
      { property: "defaultTags", reason: expect.stringContaining('cims:defaultTags: the value of tag "a" must be text') },
    ]);
  });

  test("the default provider's failures name the stack config key", async () => {
    const { failures } = await checkConfig({ ...good, apiUrl: "ftp://x", projectId: "1.5" }, DEFAULT);
    expect(failures).toEqual([
      { property: "apiUrl", reason: "cims:apiUrl must use http or https, got ftp:" },
      { property: "projectId", reason: 'cims:projectId must be an integer >= 1, got "1.5"' },
    ]);
  });

  test("a missing key or URL says how to give it; the environment stands in as it does for Configure", async () => {
    const saved = { ...process.env };
    try {
      delete process.env.CIMS_API_KEY;
      delete process.env.CIMS_API_URL;
      const { failures } = await checkConfig({ projectId: 2 });
      expect(failures.map((f) => f.reason)).toEqual([
        "no CIMS API URL: give the provider its `apiUrl` argument or the CIMS_API_URL environment variable",
        "no CIMS API key: give the provider its `apiKey` argument (a secret) or the CIMS_API_KEY environment variable",
      ]);
      expect((await checkConfig({}, DEFAULT)).failures.map((f) => f.reason)).toContainEqual(
        expect.stringContaining("pulumi config set --secret cims:apiKey"),
      );
      process.env.CIMS_API_KEY = "from-env";
      process.env.CIMS_API_URL = "http://127.0.0.1:9";
      expect((await checkConfig({ projectId: 2 })).failures).toEqual([]);
    } finally {
      process.env = saved;
    }
  });

  test("an unknown key fails, as registry providers answer one, naming the key and what the provider takes", async () => {
    const explicit = await checkConfig({ ...good, apikey: "x", region: "3" });
    expect(explicit.failures.map((f) => f.property)).toEqual(["", ""]);
    expect(explicit.failures[0].reason).toMatch(
      /^`apikey` is not an argument of the cims provider \(it takes apiUrl, apiKey, .*\); did you mean `apiKey`\?$/,
    );
    expect(explicit.failures[1].reason).toMatch(/^`region` is not an argument/);
    const stack = await checkConfig({ ...good, projectID: "2" }, DEFAULT);
    expect(stack.failures.map((f) => f.reason)).toEqual([
      expect.stringMatching(
        /^`cims:projectID` is not a configuration key of the cims provider .*did you mean `cims:projectId`\?; a key not meant for the provider belongs in another namespace than `cims:`$/,
      ),
    ]);
  });

  test("the dynamic face refuses the stack's unknown `cims:` keys with the plugin's words, at check; other namespaces are not its own", async () => {
    const checked: unknown[] = [];
    const notUsed = () => Promise.reject(new Error("not used"));
    const methods = { diff: notUsed, create: notUsed, read: notUsed, update: notUsed, delete: notUsed };
    const dynamicCheck = (raw: Record<string, string>) => {
      const target = {};
      const check = (_olds: unknown, news: unknown) => {
        checked.push(news);
        return Promise.resolve({ inputs: {} });
      };
      // The host's own Config object, as the dynamic-provider host builds it from the engine's config.
      installMethods(target, { ...methods, check } as Methods, { config: new Config(raw, "infra") });
      return (target as Methods).check({}, { name: "n" });
    };
    const refused = await dynamicCheck({ "cims:apiUrl": "http://127.0.0.1:9", "cims:projectID": "2", "infra:projectID": "x" }).catch(
      (e: unknown) => e,
    );
    const plugin = await checkConfig({ apiUrl: "http://127.0.0.1:9", projectID: "2" }, DEFAULT);
    expect(refused).toBeInstanceOf(ConfigurationError);
    expect((refused as Error).message).toBe(plugin.failures[0].reason);
    expect((refused as Error).message).toContain("did you mean `cims:projectId`?");
    expect(checked).toEqual([]);
    await dynamicCheck({ "cims:apiUrl": "http://127.0.0.1:9", "cims:projectId": "2", "infra:projectID": "x" });
    expect(checked).toEqual([{ name: "n" }]);
  });

  test("the key is in no failure, even where it is what is wrong; its failure names no property, whose value the engine would print", async () => {
    const { failures } = await checkConfig({ ...good, apiUrl: `http://user:${KEY}@x.test`, apiKey: UNKNOWN });
    expect(JSON.stringify(failures)).not.toContain(KEY.slice(3));
    // The URL carried a credential: the rule is named, not the value.
    expect(failures).toHaveLength(1);
    expect(failures[0]).toEqual({ property: "apiUrl", reason: "apiUrl must not carry credentials; use apiKey" });
    const saved = process.env.CIMS_API_KEY;
    delete process.env.CIMS_API_KEY;
    try {
      const { apiKey: _, ...noKey } = good;
      expect((await checkConfig(noKey)).failures).toEqual([{ property: "", reason: expect.stringContaining("no CIMS API key") }]);
    } finally {
      if (saved !== undefined) process.env.CIMS_API_KEY = saved;
    }
  });

  test("the plugin knows a secret by the SDK's own mark", () => {
    expect({ SIG_KEY, SECRET_SIG }).toEqual({ SIG_KEY: specialSigKey, SECRET_SIG: specialSecretSig });
  });

  test("an object with the signature key but another signature is a value, not a secret", async () => {
    const asset = { [specialSigKey]: "c44067f5952c0a294b673a41bacd8c17", value: 5 };
    const { failures } = await checkConfig({ ...good, projectId: asset });
    expect(failures).toEqual([{ property: "projectId", reason: expect.stringContaining("projectId must be an integer >= 1") }]);
  });

  test("a value unknown during preview is not judged; the known ones are", async () => {
    const { failures } = await checkConfig({ ...good, apiKey: UNKNOWN, apiUrl: UNKNOWN, regionId: "x" });
    expect(failures).toEqual([{ property: "regionId", reason: 'regionId must be an integer >= 1, got "x"' }]);
  });

  test("a secret comes back wrapped as the engine sent it, and is judged by its value", async () => {
    const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });
    const news = { ...good, apiKey: secret(KEY), projectId: secret("abc") };
    const { inputs, failures } = await checkConfig(news);
    expect(inputs).toEqual(news);
    expect(failures).toEqual([{ property: "projectId", reason: 'projectId must be an integer >= 1, got "abc"' }]);
  });
});

describe("DiffConfig", () => {
  test("unchanged arguments are no diff; a number and its digits are the same setting, as Configure reads them", async () => {
    const resp = await diffConfig(good, { ...good, projectId: "2" });
    expect(resp.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_NONE);
    expect(resp.getDiffsList()).toEqual([]);
  });

  test("a rotated key, a new URL and a new default scope are updates of the provider that replace nothing", async () => {
    const resp = await diffConfig(good, { ...good, apiKey: "sk-rotated", apiUrl: "https://other.test", projectId: 4, regionId: 5 });
    expect(resp.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_SOME);
    expect(resp.getDiffsList()).toEqual(["apiKey", "apiUrl", "projectId", "regionId"]);
    expect(resp.getReplacesList()).toEqual([]);
    expect(resp.getDeletebeforereplace()).toBe(false);
    const { UPDATE } = providerPb.PropertyDiff.Kind;
    expect(kinds(resp)).toEqual({ apiKey: UPDATE, apiUrl: UPDATE, projectId: UPDATE, regionId: UPDATE });
  });

  test("an added or removed setting is named as such; a value unknown during preview may change; ignoreChanges is honoured", async () => {
    const { version: _, ...rest } = good;
    const resp = await diffConfig(good, { ...rest, maxRetries: 0, apiKey: UNKNOWN, apiUrl: "https://other.test" }, ["apiUrl"]);
    const { ADD, DELETE, UPDATE } = providerPb.PropertyDiff.Kind;
    expect(kinds(resp)).toEqual({ apiKey: UPDATE, maxRetries: ADD, version: DELETE });
    expect(resp.getReplacesList()).toEqual([]);
  });
});

describe("the configuration table", () => {
  test("the schema's config and the README's table say each key of the table: its type, default and environment variable; no enum", () => {
    const readme = fs.readFileSync(path.join(__dirname, "../../../../README.md"), "utf8");
    expect(Object.keys(PROVIDER_CONFIG)).toEqual(CONFIG_KEYS);
    for (const key of CONFIG_KEYS) {
      const entry: { env?: string; type: string; default?: unknown; schema?: object } = CONFIG_TABLE[key];
      const property = PROVIDER_CONFIG[key];
      // An object of named fields is a type of the schema's own (ignoreTags).
      expect(property).toMatchObject(entry.schema && "$ref" in entry.schema ? entry.schema : { type: entry.type });
      expect(property).not.toHaveProperty("enum");
      const row = readme.split("\n").find((l) => l.startsWith(`| \`cims:${key}\``));
      expect(row).toContain(` | ${entry.type} | `);
      if (entry.env) expect([row, property.description].join("\n").split(entry.env)).toHaveLength(3);
      if (entry.default !== undefined) expect(row).toContain(`\`${String(entry.default)}\``);
      if (entry.default !== undefined) expect(property.description).toContain(`Default: ${String(entry.default)}`);
    }
    expect(PROVIDER_CONFIG.apiKey).toMatchObject({ secret: true });
  });
});

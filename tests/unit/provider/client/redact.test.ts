// The key out of every message, never out of data: the redactor itself, and the provider's
// boundaries on the dynamic face (a failure, a check failure's reason, a log line or warning).
import { inspect } from "node:util";
import { redactor } from "../../../../provider/client/redact";
import { PartialCreateError } from "../../../../provider/methods/resource-errors";
import { log, setConfig, setLogSink, type Severity, warn } from "../../../../provider/methods/context";
import { installMethods, type Methods } from "../../../../provider/methods/install";

const KEY = "sk-unit-3b9d-redact";

describe("redactor", () => {
  test("text: the key raw and with its slashes escaped as JSON writes them", () => {
    const r = redactor("abcd/efgh");
    expect(r.text('key abcd/efgh in "abcd\\/efgh"')).toBe('key [redacted] in "[redacted]"');
  });

  test("a key shorter than 8 characters is searched for nowhere: names and ids that hold its text stay whole", () => {
    const said = 'subnet "abc-prod" exists: adopt it with importId: "abc1234"';
    expect(redactor("abc").text(said)).toBe(said);
    expect(redactor("abcdefg").text("abcdefg")).toBe("abcdefg");
    const err = new Error(said);
    expect(redactor("abc").error(err).message).toBe(said);
    expect(redactor("abcdefgh").text("abcdefgh-prod")).toBe("[redacted]-prod");
  });

  test("an error: message, stack and nested fields, in place, keeping its class; a partial create's properties are data", () => {
    const err = new PartialCreateError(`create failed for ${KEY}`, "id-1", { name: `named ${KEY}` });
    Object.assign(err, { tasks: [{ id: "t", error: `denied ${KEY}` }] });
    expect(redactor(KEY).error(err)).toBe(err);
    expect(err).toBeInstanceOf(PartialCreateError);
    expect(err.properties).toEqual({ name: `named ${KEY}` });
    const { properties: _data, ...shown } = err;
    expect([err.message, err.stack, JSON.stringify(shown), inspect(shown, { depth: 9 })].join("\n")).not.toContain(KEY);
    expect(err.message).toBe("create failed for [redacted]");
  });

  test("an empty key redacts nothing", () => {
    expect(redactor("").text("abc")).toBe("abc");
  });
});

describe("the dynamic face's boundary", () => {
  const lines: string[] = [];
  beforeAll(() => {
    setLogSink((line) => {
      lines.push(line);
    });
  });

  function installed(methods: Partial<Methods>): Methods {
    const target = {};
    const config = new Map([["cims:apiKey", KEY]]);
    const notUsed = () => Promise.reject(new Error("not used"));
    const all = { check: notUsed, diff: notUsed, create: notUsed, read: notUsed, update: notUsed, delete: notUsed, ...methods };
    installMethods(target, all as Methods, { config: { get: (k: string) => config.get(k) } } as never);
    setLogSink((line) => {
      lines.push(line);
    });
    return target as Methods;
  }

  test("a failure a kind builds from what the service holds (a record's name quoting the key) is redacted", async () => {
    const face = installed({
      create: () => Promise.reject(new Error(`subnet "${KEY}" overlaps`)),
    });
    const err = (await face.create({}).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe('subnet "[redacted]" overlaps');
    expect(err.stack).not.toContain(KEY);
  });

  test("a check failure's reason is redacted; the inputs are data and stay as given", async () => {
    const face = installed({
      check: () => Promise.resolve({ inputs: { name: KEY }, failures: [{ property: "name", reason: `taken by ${KEY}` }] }),
    });
    const result = await face.check({}, {});
    expect(result.failures).toEqual([{ property: "name", reason: "taken by [redacted]" }]);
    expect(result.inputs).toEqual({ name: KEY });
  });

  test("a failure's trace goes to the log for debugging only (debug severity; with CIMS_DEBUG=1, info), without the key", async () => {
    const face = installed({ delete: () => Promise.reject(new Error(`gone ${KEY}`)) });
    const said: Array<[string, Severity]> = [];
    setLogSink((line, severity) => {
      said.push([line, severity]);
    });
    const saved = process.env.CIMS_DEBUG;
    try {
      delete process.env.CIMS_DEBUG;
      await face.delete("id", {}).catch(() => undefined);
      process.env.CIMS_DEBUG = "1";
      await face.delete("id", {}).catch(() => undefined);
    } finally {
      if (saved === undefined) delete process.env.CIMS_DEBUG;
      else process.env.CIMS_DEBUG = saved;
      setLogSink((line) => {
        lines.push(line);
      });
    }
    expect(said.map(([, severity]) => severity)).toEqual(["debug", "info"]);
    for (const [line] of said) expect(line).toMatch(/^Error: gone \[redacted\]\n\s+at /);
  });

  test("log lines and warnings never show the key", async () => {
    setConfig((k) => (k === "cims:apiKey" ? KEY : undefined));
    log(`read subnet ${KEY}`);
    await warn(`removes member of ${KEY}`);
    expect(lines.slice(-2)).toEqual(["cims: read subnet [redacted]", "cims: removes member of [redacted]"]);
  });
});

// Credentials and reachability proven at preview, on both faces, through the real CLI: a
// preview with a refused key fails naming cims:apiKey and the URL (never the key), even when
// every resource is unchanged; a URL that does not answer fails within 30 s naming
// cims:apiUrl (on the plugin face); cims:skipCredentialsValidation=true lets the unchanged
// stack's preview pass with the wrong key. The proof is one GET per provider process, whatever the number of
// kinds. Each such error is said once, under what it is about, with no stack trace unless
// `--debug` asks, and then through the package's dist/ files; a typo'd `cims:` key fails with
// a did-you-mean. The proof's other answers (a server that is not a CIMS API, a project the
// key cannot see...) and their messages: tests/unit/provider/client/credentials.test.ts.
import { type CimsTestEnv, type Face, faceProject, onFace, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { closedPort } from "../../support/test-server";

const stacks = useStacks();

// Two kinds: the dynamic face configures its provider once per kind, the plugin once.
const program = (face: Face) =>
  onFace(
    `import * as cims from "pulumi-cims";
new cims.Subnet("net", { name: "creds", cidr: "10.170.0.0/24", networkId: "${SEED.networkId}" });
new cims.QuotaThreshold("quota", { clientId: ${SEED.clientId}, threshold: 85 });
`,
    face,
  );

const stackOn = (face: Face, config: Record<string, string> = {}) =>
  stacks.stack({ files: { "Pulumi.yaml": faceProject(`creds-${face}`, face), "index.ts": program(face) }, config });

/** Requests of the probe (GET of the configured project) and writes, from the emulator's metrics. */
function counts(env: CimsTestEnv): { probes: number; writes: number } {
  const requests = Object.entries(env.emulator.metrics.snapshot().requests);
  const sum = (test: (k: string) => boolean) => requests.filter(([k]) => test(k)).reduce((n, [, c]) => n + c, 0);
  return {
    probes: sum((k) => k.startsWith("GET /cloud/v1/projects/:project_id ")),
    writes: sum((k) => /^(POST|PATCH|PUT|DELETE) /.test(k)),
  };
}

/** The error lines of a failed command (the engine prints the provider's message there). */
const said = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;

/** The CLI's summary of what went wrong: its Diagnostics section, where each message is said once. */
const diagnostics = (r: { stdout: string }) => r.stdout.slice(r.stdout.indexOf("\nDiagnostics:"), r.stdout.indexOf("\nResources:"));
const times = (text: string, part: string) => text.split(part).length - 1;

/** Stack frames through this package's TypeScript sources, which it does not ship. */
const sourceFrames = (text: string) =>
  text.split("\n").filter((l) => /\/(provider|api)\/[^\s:()]+\.ts:\d+/.test(l) && !l.includes("node_modules"));

describe.each<Face>(["dynamic", "native"])("on the %s face", (face) => {
  test(
    "an unchanged stack: one probe per preview; a refused key fails the preview naming cims:apiKey and the URL, not the key; skipCredentialsValidation lets it pass; another namespace's key is not the provider's",
    async () => {
      // A key of another namespace beside the provider's own: not refused as a typo of one.
      const env = await stackOn(face, { "other:projectID": "1" });
      await env.stack.up();

      env.emulator.metrics.reset();
      await env.stack.preview(["--expect-no-changes"]);
      expect(counts(env)).toEqual({ probes: 1, writes: 0 });

      const wrongKey = "wrong-key-5b2e9d0c";
      await env.stack.setConfig("cims:apiKey", wrongKey, true);
      env.emulator.metrics.reset();
      const refused = await env.stack.preview([], { allowFailure: true });
      expect(refused.code).not.toBe(0);
      expect(said(refused)).toContain(`cims:apiKey was refused by the CIMS API at ${env.emulator.url}/`);
      expect(said(refused)).toContain("CIMS_API_KEY");
      expect(said(refused)).toContain("AuthenticationFailed");
      expect(said(refused)).not.toContain(wrongKey);
      expect(counts(env)).toEqual({ probes: 1, writes: 0 });
      // Said once, as the message alone: no error class, no trace.
      expect(times(diagnostics(refused), "cims:apiKey was refused by the CIMS API")).toBe(1);
      expect(said(refused)).not.toMatch(/CredentialsCheckError|^\s+at /m);
      expect(sourceFrames(said(refused))).toEqual([]);

      // --debug: the trace follows, through the files the package ships.
      const traced = await env.stack.preview(["--debug"], { allowFailure: true });
      expect(traced.code).not.toBe(0);
      expect(said(traced)).toMatch(/at probeFailure \(\S*\/dist\/provider\/client\/credentials\.js:\d+:\d+\)/);
      expect(sourceFrames(said(traced))).toEqual([]);
      expect(said(traced)).not.toContain(wrongKey);

      await env.stack.setConfig("cims:skipCredentialsValidation", "true");
      env.emulator.metrics.reset();
      await env.stack.preview(["--expect-no-changes"]);
      expect(counts(env)).toEqual({ probes: 0, writes: 0 });
    },
    E2E_TIMEOUT_MS,
  );

  test(
    "a `cims:` key the provider does not read (cims:projectID) fails the preview once with a did-you-mean, before any call",
    async () => {
      const env = await stackOn(face, { "cims:projectID": "1" });
      const refused = await env.stack.preview([], { allowFailure: true });
      expect(refused.code).not.toBe(0);
      const told = diagnostics(refused);
      expect(times(told, "`cims:projectID` is not a configuration key of the cims provider")).toBe(1);
      expect(told).toContain("did you mean `cims:projectId`?");
      expect(said(refused)).not.toMatch(/ConfigurationError|^\s+at /m);
      expect(counts(env)).toEqual({ probes: 0, writes: 0 });
    },
    E2E_TIMEOUT_MS,
  );
});

// The proof's failure reaches the CLI as the refused key's does on each face (above); what
// differs for a URL that does not answer is the provider's alone (its retries and message, the
// same behind either face; in process: tests/unit/provider/client/credentials.test.ts), so it
// runs on the plugin face, the cheaper one.
test(
  "a closed port: the preview fails within 30 s naming cims:apiUrl",
  async () => {
    const port = await closedPort();
    const env = await stackOn("native", { "cims:apiUrl": `http://127.0.0.1:${port}` });
    const started = Date.now();
    const result = await env.stack.preview([], { allowFailure: true });
    expect((Date.now() - started) / 1000).toBeLessThan(30);
    expect(result.code).not.toBe(0);
    expect(said(result)).toMatch(new RegExp(`cims:apiUrl http://127\\.0\\.0\\.1:${port}/ could not be reached \\(.*ECONNREFUSED`));
    expect(said(result)).toContain("CIMS_API_URL");
    expect(times(diagnostics(result), "could not be reached")).toBe(1);
  },
  E2E_TIMEOUT_MS,
);

// Many CI machines, one self-managed state backend: a real S3-compatible server
// (scripts/s3-server) holds the bucket; each "machine" is a PULUMI_HOME and checkout of its
// own. What one deploys the other previews and refreshes with no changes, and of two `up`s
// of one stack started at once never both run: the other fails at once on the stack's lock,
// and the state and the service agree afterwards. The file backend takes a lock by writing
// its lock file and then listing the stack's locks (pkg/backend/diy/lock.go), so two `up`s
// that write theirs at the same moment each see the other's and both refuse, naming it;
// nothing changes, and the next `up` runs. What is shared and locked is the backend's, the
// same whichever provider the stack's resources use, so the program runs on the plugin face,
// whose commands cost about a second of CPU less each.
import { onFace, PLUGIN_PROJECT, SEED, subnetsSeen, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, type RunResult, type TestStack } from "../../support/harness";
import { anotherMachine, type S3Server, startS3Server } from "../../support/s3";

const stacks = useStacks();
let s3: S3Server;
const machines: TestStack[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
}, E2E_TIMEOUT_MS);
afterAll(async () => {
  for (const m of machines.splice(0)) await m.dispose();
  await s3?.close();
});

const PROGRAM = onFace(
  [
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as cims from "pulumi-cims";',
    'const count = new pulumi.Config().requireNumber("count");',
    "for (let i = 0; i < count; i++) {",
    `  new cims.Subnet(\`s\${i}\`, { name: \`shared-\${i}\`, cidr: \`10.70.\${i}.0/24\`, networkId: "${SEED.networkId}" });`,
    "}",
  ].join("\n"),
  "native",
);

/** A command's result with the time it ended. */
const timed = (run: Promise<RunResult>) => run.then((r) => ({ ...r, endedAt: Date.now(), out: r.stdout + r.stderr }));
type Timed = Awaited<ReturnType<typeof timed>>;

const ONE_RAN = "one ran; the other failed first, naming the lock";
const BOTH_REFUSED = "both failed, each naming the other's lock";
const namesLock = (r: Timed) => r.code !== 0 && /currently locked by 1 lock/.test(r.out);

/** What two `up`s of one stack started at once did: ONE_RAN, BOTH_REFUSED, or else what they did. */
function raceOutcome(ra: Timed, rb: Timed): string {
  if (namesLock(ra) && namesLock(rb)) return BOTH_REFUSED;
  const [winner, loser] = ra.code === 0 ? [ra, rb] : [rb, ra];
  if (winner.code === 0 && namesLock(loser) && loser.endedAt <= winner.endedAt) return ONE_RAN;
  return JSON.stringify({ codes: [ra.code, rb.code], locks: [namesLock(ra), namesLock(rb)], ended: [ra.endedAt, rb.endedAt] });
}

test(
  "two machines, one bucket: one deploys, the other sees no changes; of two simultaneous ups never both run",
  async () => {
    const env = await stacks.stack({
      files: { "Pulumi.yaml": PLUGIN_PROJECT("shared"), "index.ts": PROGRAM },
      config: { count: "2" },
      env: { ...s3.credentials, PULUMI_BACKEND_URL: s3.backendUrl },
    });
    const a = env.stack;
    const deployed = await a.up();
    const b = await anotherMachine(a, s3.backendUrl, s3.credentials);
    machines.push(b);

    s3.resetTraffic();
    const preview = await b.preview(["--expect-no-changes"], { allowFailure: true });
    const previewWrites = (s3.traffic().byMethod.PUT ?? 0) + (s3.traffic().byMethod.DELETE ?? 0);
    const refresh = await b.refresh(["--expect-no-changes"], { allowFailure: true });
    expect({ preview: preview.code, previewWrites, refresh: refresh.code }).toEqual({ preview: 0, previewWrites: 0, refresh: 0 });

    // Both machines now want a third subnet: one of them creates it, once.
    const races: string[] = [];
    for (const m of [a, b]) await m.setConfig("count", "3");
    for (let round = 0; round < 3; round++) {
      const [ra, rb] = await Promise.all([timed(a.up([], { allowFailure: true })), timed(b.up([], { allowFailure: true }))]);
      races.push(raceOutcome(ra, rb));
      // Both refused on each other's lock: nothing ran, and the next up does.
      if (ra.code !== 0 && rb.code !== 0) await a.up();
      const seen = await subnetsSeen(env);
      expect(seen.names).toEqual(["shared-0", "shared-1", "shared-2"]);
      expect(seen.stateIds).toEqual(seen.ids);
      for (const r of [ra, rb]) expect(r.out).not.toContain(s3.credentials.AWS_SECRET_ACCESS_KEY);
    }
    expect(races.filter((r) => r !== ONE_RAN && r !== BOTH_REFUSED)).toEqual([]);
    for (const r of [deployed, preview, refresh]) expect(r.stdout + r.stderr).not.toContain(s3.credentials.AWS_SECRET_ACCESS_KEY);
    // Both see the same state afterwards: no lock left behind, nothing to change.
    for (const m of [a, b]) expect((await m.preview(["--expect-no-changes"], { allowFailure: true })).code).toBe(0);
  },
  E2E_TIMEOUT_MS,
);

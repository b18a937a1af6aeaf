// Many CI machines, one self-managed state backend: a real S3-compatible server
// (scripts/s3-server) holds the bucket; each "machine" is a PULUMI_HOME and checkout of its
// own. What one deploys the other previews and refreshes with no changes, and of two `up`s
// of one stack started at once exactly one runs: the other fails at once on the stack's lock,
// and the state and the service agree afterwards.
import { SEED, subnetsSeen, useStacks } from "../../support/cims";
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

const PROGRAM = [
  'import * as pulumi from "@pulumi/pulumi";',
  'import * as cims from "pulumi-cims";',
  'const count = new pulumi.Config().requireNumber("count");',
  "for (let i = 0; i < count; i++) {",
  `  new cims.Subnet(\`s\${i}\`, { name: \`shared-\${i}\`, cidr: \`10.70.\${i}.0/24\`, networkId: "${SEED.networkId}" });`,
  "}",
].join("\n");

/** A command's result with the time it ended. */
const timed = (run: Promise<RunResult>) => run.then((r) => ({ ...r, endedAt: Date.now(), out: r.stdout + r.stderr }));

test(
  "two machines, one bucket: one deploys, the other sees no changes; of two simultaneous ups exactly one runs",
  async () => {
    const env = await stacks.stack({
      files: { "Pulumi.yaml": "name: shared\nruntime: nodejs\n", "index.ts": PROGRAM },
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
      const [winner, loser] = ra.code === 0 ? [ra, rb] : [rb, ra];
      races.push(
        JSON.stringify({
          codes: [winner.code, loser.code].sort(),
          loserNamesLock: /currently locked by 1 lock/.test(loser.out),
          loserEndedFirst: loser.endedAt <= winner.endedAt,
        }),
      );
      const seen = await subnetsSeen(env);
      expect(seen.names).toEqual(["shared-0", "shared-1", "shared-2"]);
      expect(seen.stateIds).toEqual(seen.ids);
      for (const r of [ra, rb]) expect(r.out).not.toContain(s3.credentials.AWS_SECRET_ACCESS_KEY);
    }
    expect(races).toEqual(Array(3).fill(JSON.stringify({ codes: [0, 1], loserNamesLock: true, loserEndedFirst: true })));
    for (const r of [deployed, preview, refresh]) expect(r.stdout + r.stderr).not.toContain(s3.credentials.AWS_SECRET_ACCESS_KEY);
    // Both see the same state afterwards: no lock left behind, nothing to change.
    for (const m of [a, b]) expect((await m.preview(["--expect-no-changes"], { allowFailure: true })).code).toBe(0);
  },
  E2E_TIMEOUT_MS,
);

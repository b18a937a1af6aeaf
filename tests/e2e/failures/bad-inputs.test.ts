// The bad-input catalogue (tests/e2e/support/bad-inputs/) on the dynamic face: every case through
// the dynamic provider's Check over gRPC (through-check.ts says why), a sample through
// `pulumi preview`; and valid edge values of every resource passing preview with no write.
import { ALL } from "../support/bad-inputs/all";
import { catalogue, VALID, withField } from "../support/bad-inputs/catalogue";
import { THROUGH_THE_CLI, throughCheck } from "../support/bad-inputs/through-check";
import { useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

throughCheck("bad inputs: every case through the dynamic provider's Check", "dynamic", ALL);

catalogue(
  "bad inputs: a sample through pulumi preview",
  ALL.filter((c) => THROUGH_THE_CLI.includes(c.what)),
);

const stacks = useStacks();

test(
  "valid edge values pass preview with no write: 0 and 86400000 ms, 60 and 100 %, 255-character tags, int64 max",
  async () => {
    const tag = `{ ${"k".repeat(255)}: "${"v".repeat(255)}" }`;
    const program = [
      'import * as cims from "pulumi-cims";',
      `new cims.Subnet("s", ${withField("subnet", "tags", tag)});`,
      `new cims.BaremetalImage("i", ${withField("image", "tags", tag)});`,
      `new cims.LbPoolSettings("p", ${withField("pool", "timeoutClientData", "0, timeoutMemberConnect: 86400000, timeoutMemberData: null")});`,
      `new cims.SnapshotPolicyState("pol", ${VALID.policy});`,
      `new cims.QuotaThreshold("q60", { clientId: 1, threshold: 60 });`,
      `new cims.QuotaThreshold("q100", { clientId: 2, threshold: 100, lastMessage: { globalQuotas: { projectCountLimit: { limit: "9223372036854775807", usage: "-9223372036854775808" } } } });`,
    ].join("\n");
    const env = await stacks.stack({ files: { "Pulumi.yaml": "name: edge\nruntime: nodejs\n", "index.ts": program } });
    const res = await env.stack.preview();
    expect(res.stdout).toMatch(/\+ 7 to create/);
    // The four reads: the configured project, which proves the key (once per provider
    // process), the new subnet's network, for a CIDR already taken there (and a record of its
    // name a lost create may have made), the scope's images, for such a record of the new
    // image's name, and the pool, for what the LbPoolSettings create would take from it.
    expect(env.emulator.metrics.snapshot().requests).toEqual({
      "GET /cloud/v1/projects/:project_id 200": 1,
      "GET /cloud/v1/subnets/:project_id/:region_id 200": 1,
      "GET /cloud/v1/bmimages/:project_id/:region_id 200": 1,
      "GET /cloud/v1/lbpools/:project_id/:region_id/:pool_id 200": 1,
    });
  },
  E2E_TIMEOUT_MS,
);

// Self-service: one command gives a team its own subnet on the shared network and its own
// member in the shared load balancer pool, as a stack of its own (named after the team),
// through Pulumi's Automation API. Run it again and it changes nothing; `--destroy` removes
// the team's resources and its stack.
//
//   npx ts-node index.ts --team payments --cidr 10.60.1.0/24
//   npx ts-node index.ts --team payments --destroy
//
// The environment says where and with what: CIMS_API_URL, CIMS_API_KEY, CIMS_PROJECT_ID,
// CIMS_REGION_ID, and the network and pool the platform team shares, CIMS_NETWORK_ID and
// CIMS_POOL_ID. Stacks live in the backend `pulumi login` chose (or PULUMI_BACKEND_URL); the
// `pulumi` CLI must be on PATH.
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, type ConfigMap } from "@pulumi/pulumi/automation";
import * as cims from "pulumi-cims";
import { parseArgs } from "node:util";

const PROJECT = "cims-self-service";
const MEMBER_PORT = 8080;

/** The member's address: the tenth host of the team's subnet, so a rerun asks for the same one. */
function memberAddress(cidr: string): string {
  const octets = cidr.split("/")[0].split(".").map(Number);
  return [...octets.slice(0, 3), octets[3] + 10].join(".");
}

/** The team's resources; everything it needs comes from the stack's config. */
async function program(): Promise<Record<string, unknown>> {
  const config = new pulumi.Config();
  const team = pulumi.getStack();
  const cidr = config.require("cidr");
  const subnet = new cims.Subnet(`${team}-subnet`, {
    name: `${team}-subnet`,
    cidr,
    networkId: config.require("networkId"),
    tags: { team, "managed-by": PROJECT },
  });
  const member = new cims.LbPoolMember(`${team}-member`, {
    poolId: config.require("poolId"),
    address: memberAddress(cidr),
    protocolPort: MEMBER_PORT,
    subnetId: subnet.id,
  });
  return { subnetId: subnet.id, memberId: member.id, memberAddress: member.address };
}

function fail(message: string): never {
  process.stderr.write(`self-service: ${message}\n`);
  process.exit(2);
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) fail(`${name} is not set: export it (see the comment at the top of index.ts)`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { team: { type: "string" }, cidr: { type: "string" }, destroy: { type: "boolean", default: false } },
  });
  const team = values.team ?? fail("--team <name> is required");
  // A team name becomes a stack name and resource names: keep it to what both accept.
  if (!/^[a-z][a-z0-9-]{0,39}$/.test(team)) fail(`--team must be lowercase letters, digits and '-' (at most 40), got '${team}'`);

  // The workspace is this directory: the dynamic resources load pulumi-cims from its node_modules.
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: team, projectName: PROJECT, program },
    { workDir: __dirname, projectSettings: { name: PROJECT, runtime: "nodejs" } },
  );
  const progress = { onOutput: (line: string) => process.stderr.write(line) };

  if (values.destroy) {
    const result = await stack.destroy(progress);
    await stack.workspace.removeStack(team);
    process.stdout.write(`destroyed: ${JSON.stringify(result.summary.resourceChanges ?? {})}\n`);
    return;
  }

  const cidr = values.cidr ?? fail("--cidr <subnet CIDR> is required (e.g. 10.60.1.0/24)");
  const config: ConfigMap = {
    "cims:apiUrl": { value: env("CIMS_API_URL") },
    "cims:apiKey": { value: env("CIMS_API_KEY"), secret: true },
    "cims:projectId": { value: env("CIMS_PROJECT_ID") },
    "cims:regionId": { value: env("CIMS_REGION_ID") },
    [`${PROJECT}:networkId`]: { value: env("CIMS_NETWORK_ID") },
    [`${PROJECT}:poolId`]: { value: env("CIMS_POOL_ID") },
    [`${PROJECT}:cidr`]: { value: cidr },
  };
  await stack.setAllConfig(config);
  const result = await stack.up(progress);
  process.stdout.write(`changes: ${JSON.stringify(result.summary.resourceChanges ?? {})}\n`);
  for (const [name, output] of Object.entries(result.outputs)) {
    process.stdout.write(`${name}: ${String(output.value)}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`self-service: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

// The lookups under the real engine: a TypeScript program on the default face finds its network,
// a volume, a pool's members and a policy (20 lookups of one policy, one list request a run),
// deploys a subnet on the network it found, and a lookup that finds none fails the preview,
// naming the filter and the candidates, with nothing written; a YAML program's `fn::invoke`
// reaches the plugin's Invoke. What the lookups find, and every message, is tested in process
// (tests/unit/provider/lookups/).
import { PLUGIN_PROJECT, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();
const POLICIES_ROUTE = "GET /cloud/v1/lifecycle_policy/:project_id/:region_id 200";

const program = `import * as pulumi from "@pulumi/pulumi";
import * as cims from "pulumi-cims";

const config = new pulumi.Config();
const net = cims.getNetworkOutput({ name: "demo-net" });
const golden = cims.getVolumeOutput({ name: "golden-root" });
const members = cims.getPoolMembersOutput({ poolName: "web-pool" });
const policies = Promise.all(Array.from({ length: 20 }, () => cims.getSnapshotPolicy({ name: "nightly-snapshots" })));
const app = new cims.Subnet("app", { name: "lookup-app", cidr: "10.180.0.0/24", networkId: net.id });

export const networkId = net.id;
export const subnetNetwork = app.networkId;
export const volumeSize = golden.size;
export const volumeId = cims.getVolumeOutput({ name: config.get("volume") ?? "golden-root" }).id;
export const memberAddresses = members.members.apply((all) => all.map((m) => m.address));
export const policyIds = policies.then((all) => [...new Set(all.map((p) => p.id))]);
`;

test(
  "the default face: lookups at preview and up, one list a run for 20 lookups of a kind; none found fails the preview naming the filter",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": "name: e2e-lookups\nruntime: nodejs\n", "index.ts": program } });
    env.emulator.metrics.reset();
    await env.stack.preview();
    expect(env.emulator.metrics.snapshot().requests[POLICIES_ROUTE]).toBe(1);
    await env.stack.up();
    expect(env.emulator.metrics.snapshot().requests[POLICIES_ROUTE]).toBe(2);
    expect(await env.stack.outputs()).toMatchObject({
      networkId: SEED.networkId,
      subnetNetwork: SEED.networkId,
      volumeSize: 20,
      volumeId: SEED.volumeId,
      memberAddresses: ["10.0.0.10"],
      policyIds: [Number(SEED.policyId)],
    });

    await env.stack.setConfig("e2e-lookups:volume", "nope");
    env.emulator.metrics.reset();
    const failed = await env.stack.preview([], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    const said = failed.stdout + failed.stderr;
    expect(said).toContain('getVolume found no volume in project 1, region 1 with name="nope"');
    expect(said).toContain(`${SEED.volumeId} "golden-root"`);
    expect(said).not.toContain(env.apiKey);
    expect(writes(env)).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "the plugin face: a YAML program's fn::invoke finds the network its subnet is made on",
  async () => {
    const yaml = `${PLUGIN_PROJECT("e2e-lookups-yaml", "yaml")}variables:
  net:
    fn::invoke:
      function: cims:index:getNetwork
      arguments:
        name: demo-net
resources:
  app:
    type: cims:index:Subnet
    properties:
      name: yaml-lookup
      cidr: 10.181.0.0/24
      networkId: \${net.id}
outputs:
  networkId: \${net.id}
  mtu: \${net.mtu}
  subnetNetwork: \${app.networkId}
`;
    const env = await stacks.stack({ files: { "Pulumi.yaml": yaml } });
    await env.stack.up();
    expect(await env.stack.outputs()).toMatchObject({ networkId: SEED.networkId, mtu: 1450, subnetNetwork: SEED.networkId });
    expect(env.emulator.store.list("subnets").map((s) => s.name)).toEqual(["yaml-lookup"]);
  },
  E2E_TIMEOUT_MS,
);

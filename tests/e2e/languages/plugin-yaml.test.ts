// YAML programs through the plugin, with `pulumi-language-yaml` built by
// scripts/pulumi beside the CLI: all five kinds deploy from a YAML program against the
// emulator (a subnet without gateway too: `gatewayIp: disable`, as YAML cannot give null),
// then preview and refresh show no changes, and destroy removes what it made; and
// `pulumi import` writes YAML for a subnet without gateway made outside Pulumi, which, as the
// program, previews with no changes.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, PLUGIN_PROJECT, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { subnetRecord } from "../../support/records";

const stacks = useStacks();
const LEGACY = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

const program = `${PLUGIN_PROJECT("yaml-face", "yaml")}resources:
  net:
    type: cims:index:Subnet
    properties:
      name: yaml-net
      cidr: 10.170.0.0/24
      networkId: ${SEED.networkId}
      ipVersion: 4
      tags:
        env: dev
  # No gateway: YAML drops a null input, so the word that stands for it.
  isolated:
    type: cims:index:Subnet
    properties:
      name: yaml-isolated
      cidr: 10.170.1.0/24
      networkId: ${SEED.networkId}
      gatewayIp: disable
      connectToNetworkRouter: false
  img:
    type: cims:index:BaremetalImage
    properties:
      name: yaml-img
      volumeId: ${SEED.volumeId}
  pool:
    type: cims:index:LbPoolSettings
    properties:
      poolId: ${SEED.poolId}
      members:
        - address: 10.170.0.10
          protocolPort: 8080
          weight: 2
          subnetId: \${net.id}
  policy:
    type: cims:index:SnapshotPolicyState
    properties:
      policyId: ${SEED.policyId}
      status: paused
  quota:
    type: cims:index:QuotaThreshold
    properties:
      clientId: ${SEED.clientId}
      threshold: 85
outputs:
  subnetId: \${net.id}
  totalIps: \${net.totalIps}
`;

test(
  "a YAML program deploys all five kinds, then no changes on preview and refresh, then destroy",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": program } });
    const { store } = env.emulator;
    const up = await env.stack.up();
    // Not a word from pulumi-yaml's type check: the enums (a number one, `ipVersion`, too) hold what the program sets.
    expect(up.stdout + up.stderr).not.toMatch(/warning|internal error/i);
    const outputs = await env.stack.outputs();
    expect(outputs.totalIps).toBe("254");
    expect(store.get("subnets", String(outputs.subnetId))).toMatchObject({ name: "yaml-net", cidr: "10.170.0.0/24", ip_version: 4 });
    expect(store.list("subnets").filter((s) => s.name === "yaml-isolated")).toEqual([
      expect.objectContaining({ gateway_ip: null, has_router: false }),
    ]);
    expect(store.list("images")).toEqual([expect.objectContaining({ name: "yaml-img" })]);
    // The program's member (the seeded one, another's as far as the stack knows, stays beside it).
    expect(
      (store.get("lbpools", SEED.poolId)?.members as Array<Record<string, unknown>>).find((m) => m.address === "10.170.0.10"),
    ).toMatchObject({
      address: "10.170.0.10",
      weight: 2,
      subnet_id: outputs.subnetId,
    });
    expect(store.get("lifecycle_policies", Number(SEED.policyId))?.status).toBe("paused");
    expect(store.get("client_quotas", Number(SEED.clientId))?.threshold).toBe(85);

    await env.stack.preview(["--expect-no-changes"]);
    await env.stack.refresh(["--expect-no-changes"]);
    await env.stack.destroy();
    expect(store.list("subnets").filter((s) => String(s.name).startsWith("yaml-"))).toEqual([]);
    expect(store.list("images")).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "pulumi import writes YAML for a subnet without gateway made outside Pulumi (`gatewayIp: disable`); that YAML as the program has no changes",
  async () => {
    const header = PLUGIN_PROJECT("yaml-import", "yaml");
    const env = await stacks.stack({ files: { "Pulumi.yaml": header } });
    // Without a gateway: the YAML must say so with the word for it (YAML drops a null, and an
    // omitted gatewayIp asks for the gateway the service allocates).
    const seeded = await api(env, "POST", "/__emulator/seed", {
      subnets: [subnetRecord({ id: LEGACY, gateway_ip: null, tags: { team: "net" } })],
    });
    expect(seeded.status).toBe(204);
    env.emulator.metrics.reset();

    const out = path.join(env.stack.projectDir, "imported.yaml");
    await env.stack.run([
      "import",
      "cims:index:Subnet",
      "legacy",
      `1/1/${LEGACY}`,
      "--yes",
      "--protect=false",
      "--out",
      out,
      "--stack",
      env.stack.name,
    ]);
    const written = await fs.readFile(out, "utf8");
    expect(written).toMatch(/legacy:\n\s+type: cims:(index:)?Subnet\n/);
    expect(written).toMatch(/cidr: 10\.60\.0\.0\/24/);
    expect(written).toMatch(/team: net/);
    expect(written).toMatch(/gatewayIp: disable\n/);
    expect(written).toMatch(/connectToNetworkRouter: false\n/);

    await fs.writeFile(path.join(env.stack.projectDir, "Pulumi.yaml"), header + written);
    await env.stack.preview(["--expect-no-changes"]);
    expect(writes(env)).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

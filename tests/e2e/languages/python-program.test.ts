// Python programs through the plugin, with `pulumi-language-python` built by scripts/pulumi
// beside the CLI and the `pulumi_cims` SDK of sdk/python/ installed in a venv with the pinned
// `pulumi` SDK (support/python-sdk.ts), named by the `toolchain: pip` and `virtualenv` runtime
// options. One stack: the committed SDK is what
// `pulumi package gen-sdk --language python` writes from schema.json; a Python program
// deploys all six kinds (a subnet inside a `pulumi.ComponentResource`, a legacy subnet adopted
// with the `import_` resource option, an image of a volume found by `get_volume`), then refresh shows no changes; a changed
// threshold is an update in place; `pulumi import` writes Python for another subnet, which
// appended to the program previews with no changes; a bad port fails at preview naming the property
// (the schema's camelCase name, not the argument's snake_case one); a program that raises shows
// its traceback once; a toolchain the host does not know fails with the ones it does.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { committedPythonSdk, generatePythonSdk, sdkDifferences } from "../../../scripts/gen-sdk-python";
import { api, linkPythonVenv, PYTHON_PROJECT, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../../support/harness";
import { pythonSdkVenv } from "../../support/python-sdk";
import { subnetRecord } from "../../support/records";

const stacks = useStacks();
const LEGACY = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const LEGACY2 = "5c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f";
// The seed's other pool and network, in project 2, region 3: LbPoolSettings owns the first
// pool's member list, so the member alone goes in this one.
const API_POOL = "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70";
const PROD_NET = "6f1c2a3b-8d4e-4f5a-b6c7-d8e9f0a1b2c3";

const program = `import pulumi
import pulumi_cims as cims

config = pulumi.Config()
step = config.get("step") or "create"
if step == "raise":
    raise RuntimeError("stopped on purpose")


class Network(pulumi.ComponentResource):
    def __init__(self, name, opts=None):
        super().__init__("cims-e2e:index:Network", name, None, opts)
        self.subnet = cims.Subnet(
            "net",
            name="py-net",
            cidr="10.180.0.0/24",
            network_id="${SEED.networkId}",
            tags={"env": "dev"},
            opts=pulumi.ResourceOptions(parent=self),
        )
        self.register_outputs({"subnetId": self.subnet.id})


network = Network("app")
legacy = cims.Subnet(
    "legacy",
    name="legacy",
    cidr="10.60.0.0/24",
    network_id="${SEED.networkId}",
    gateway_ip="10.60.0.1",
    dns_nameservers=[],
    host_routes=[],
    ip_version=4,
    tags={"team": "net"},
    opts=pulumi.ResourceOptions(import_="1/1/${LEGACY}"),
)
# A lookup through the plugin's Invoke: the volume by its name.
cims.BaremetalImage("img", name="py-img", volume_id=cims.get_volume(name="golden-root").id)
cims.LbPoolSettings(
    "pool",
    pool_id="${SEED.poolId}",
    members=[cims.PoolMemberArgs(address="10.180.0.10", protocol_port=8080, weight=2, subnet_id=network.subnet.id)],
)
cims.SnapshotPolicyState("policy", policy_id=${SEED.policyId}, status=cims.SnapshotPolicyStatus.PAUSED)
quota = cims.QuotaThreshold("quota", client_id=${SEED.clientId}, threshold=90 if step == "update" else 85)
api_net = cims.Subnet("api-net", name="py-api", cidr="10.99.0.0/24", network_id="${PROD_NET}", project_id=2, region_id=3)
member = cims.LbPoolMember(
    "member",
    pool_id="${API_POOL}",
    address="10.99.0.5",
    protocol_port=70000 if step == "bad" else 9090,
    subnet_id=api_net.id,
    project_id=2,
    region_id=3,
)

pulumi.export("subnetId", network.subnet.id)
pulumi.export("totalIps", network.subnet.total_ips)
pulumi.export("legacyId", legacy.id)
pulumi.export("memberId", member.id)
`;

const writes = (metrics: Record<string, number>) => Object.keys(metrics).filter((k) => /^(POST|PATCH|PUT|DELETE) /.test(k));

test(
  "a Python program: the generated SDK is committed; six kinds, a component, import_ and pulumi import; no changes; an update in place; a bad input, a raise and an unknown toolchain at preview",
  async () => {
    const [generated, venv, env] = await Promise.all([
      Promise.resolve().then(() => generatePythonSdk(path.join(REPO_ROOT, "schema.json"))),
      pythonSdkVenv(),
      stacks.stack({ files: { "Pulumi.yaml": PYTHON_PROJECT("python-face", { toolchain: "pip" }), "__main__.py": program } }),
    ]);
    // sdk/python/ is what the generator writes now (npm run gen), stamped with the package's version.
    expect(sdkDifferences(generated, committedPythonSdk(REPO_ROOT))).toEqual([]);
    const { version } = JSON.parse(await fs.readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    expect(generated.get("pyproject.toml")).toContain(`version = "${version}"`);
    expect(JSON.parse(generated.get("pulumi_cims/pulumi-plugin.json") ?? "{}")).toEqual({
      resource: true,
      name: "cims",
      version,
      // The schema's pluginDownloadURL: where `pulumi plugin install` fetches the plugin from.
      server: "github://api.github.com/pulumi-cims/pulumi-cims",
    });

    await linkPythonVenv(env.stack, venv);
    const { stack, emulator } = env;
    const { store } = emulator;
    const legacy2 = subnetRecord({ id: LEGACY2, name: "legacy2", cidr: "10.61.0.0/24", gateway_ip: "10.61.0.1" });
    const seeded = await api(env, "POST", "/__emulator/seed", { subnets: [subnetRecord({ id: LEGACY, tags: { team: "net" } }), legacy2] });
    expect(seeded.status).toBe(204);

    const up = await stack.up();
    expect(up.stdout).toMatch(/= .*cims:index:Subnet.*legacy.*import/);
    expect(up.stdout).not.toMatch(/removed from the program/);
    const outputs = await stack.outputs();
    expect(outputs.totalIps).toBe("254");
    expect(outputs.legacyId).toBe(LEGACY);
    expect(store.get("subnets", String(outputs.subnetId))).toMatchObject({ name: "py-net", cidr: "10.180.0.0/24" });
    expect(store.list("images")).toEqual([expect.objectContaining({ name: "py-img" })]);
    // The program's member (the seeded one, another's as far as the stack knows, stays beside it).
    expect(
      (store.get("lbpools", SEED.poolId)?.members as Array<Record<string, unknown>>).find((m) => m.address === "10.180.0.10"),
    ).toMatchObject({
      address: "10.180.0.10",
      weight: 2,
      subnet_id: outputs.subnetId,
    });
    expect(store.get("lifecycle_policies", Number(SEED.policyId))?.status).toBe("paused");
    expect(store.get("client_quotas", Number(SEED.clientId))?.threshold).toBe(85);
    expect((store.get("lbpools", API_POOL)?.members as Array<Record<string, unknown>>).map((m) => m.id)).toEqual([outputs.memberId]);
    // The component is the subnet's parent: its type is in the subnet's URN.
    const resources = (await stack.exportState()).deployment.resources ?? [];
    expect(resources.map((r) => r.urn)).toContainEqual(expect.stringMatching(/::cims-e2e:index:Network\$cims:index:Subnet::net$/));

    // No preview here: that the program's inputs equal what the state records is what the
    // preview below shows, the same program (and the subnet `pulumi import` wrote) after an
    // update that records them as a create does.
    await stack.refresh(["--expect-no-changes"]);
    // `pulumi about` names the venv's interpreter and the program's packages.
    const about = await stack.run(["about", "--stack", stack.name]);
    expect(about.stdout).toContain(`This project is written in python: executable='${path.join(stack.projectDir, "venv/bin/python")}'`);
    expect(about.stdout).toMatch(/^pulumi-cims\s+0\.1\.0$/m);
    expect(about.stdout + about.stderr).not.toMatch(/not implemented/);

    // A new threshold: an update in place, nothing replaced.
    // `up --diff` prints the step's diff as `preview --diff` does: one Python run where a
    // preview and an up were two.
    await stack.setConfig("step", "update");
    const diff = await stack.up(["--diff"]);
    expect(diff.stdout).toMatch(/~ cims:index:QuotaThreshold: \(update\)[\s\S]*~ threshold: 85 => 90/);
    expect(diff.stdout).toMatch(/~ 1 updated/);
    expect(diff.stdout).not.toMatch(/replace/);
    expect(store.get("client_quotas", Number(SEED.clientId))?.threshold).toBe(90);

    // `pulumi import` writes Python for another subnet; appended to the program, no changes.
    const out = path.join(stack.projectDir, "imported.py");
    await stack.run([
      "import",
      "cims:index:Subnet",
      "legacy2",
      `1/1/${LEGACY2}`,
      "--yes",
      "--protect=false",
      "--out",
      out,
      "--stack",
      stack.name,
    ]);
    const written = await fs.readFile(out, "utf8");
    expect(written).toMatch(/^legacy2 = cims\.Subnet\("legacy2",$/m);
    expect(written).toContain('cidr="10.61.0.0/24"');
    await fs.appendFile(path.join(stack.projectDir, "__main__.py"), `\n${written}`);
    await stack.preview(["--expect-no-changes"]);

    // A bad input fails at preview, with no request: the message names the schema's
    // (camelCase) property, `protocolPort`, though the program wrote `protocol_port`.
    await stack.setConfig("step", "bad");
    emulator.metrics.reset();
    const bad = await stack.preview([], { allowFailure: true });
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toContain("property protocolPort value {70000} has a problem: protocolPort: must be at most 65535");
    expect(bad.stdout + bad.stderr).not.toContain("protocol_port");

    // A program that raises: its traceback, shown once (the exec script's exit code 32 means
    // "already shown", so the engine adds no "non-zero exit code" error of its own).
    await stack.setConfig("step", "raise");
    const raised = await stack.preview([], { allowFailure: true });
    expect(raised.code).not.toBe(0);
    expect(raised.stdout).toMatch(/Program failed with an unhandled exception:[\s\S]*__main__\.py[\s\S]*RuntimeError: stopped on purpose/);
    expect(raised.stdout + raised.stderr).not.toMatch(/exit code/);

    // The host resolves `toolchain` as Pulumi's own toolchain code does: a value it has no
    // toolchain for fails before the program runs, naming the option and the values it takes.
    const projectFile = path.join(stack.projectDir, "Pulumi.yaml");
    await fs.writeFile(projectFile, PYTHON_PROJECT("python-face", { toolchain: "conda" }));
    const conda = await stack.preview([], { allowFailure: true });
    expect(conda.code).not.toBe(0);
    expect(conda.stdout + conda.stderr).toContain("unsupported toolchain option conda: use pip, poetry or uv");
    await fs.writeFile(projectFile, PYTHON_PROJECT("python-face", { toolchain: "pip" }));
    expect(writes(emulator.metrics.snapshot().requests)).toEqual([]);

    // No destroy: it runs no Python, only the plugin over the state, whose destroy leaving what
    // the import option and `pulumi import` adopted is plugin-import.test.ts's, and of what a
    // stack made plugin-face.test.ts's and lb-pool-member.test.ts's.
  },
  E2E_TIMEOUT_MS,
);

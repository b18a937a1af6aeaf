// The docs examples' program model (provider/kinds/program-model.ts) as cims-import's renderers write
// it: config values read once per program, a resource bound to a variable only when its outputs
// are used (Go refuses an unused one), the stack's outputs, and in Java, which only the examples
// are written in; and the examples combined into one program only when their names do not
// clash. tests/e2e/tools/docs-examples.test.ts runs them.
import {
  combineExamples,
  config,
  configValues,
  type ExampleProgram,
  item,
  lookup,
  lookupValues,
  output,
} from "../../../../provider/kinds/program-model";
import { renderExample } from "../../../../provider/import/render";
import { exampleOf, type Kind, KIND_NAMES, registeredExample } from "../../../../provider/kinds/registry";

const example: ExampleProgram<Kind> = {
  doc: "A subnet and a member on it.",
  declarations: [
    { type: "Subnet", name: "app-subnet", args: { name: "app", cidr: "10.9.0.0/24", networkId: config("networkId") } },
    { type: "Subnet", name: "spare", args: { name: "spare", cidr: "10.8.0.0/24", networkId: config("networkId") } },
    {
      type: "LbPoolMember",
      name: "member",
      args: { poolId: config("poolId"), address: "10.9.0.5", protocolPort: 80, subnetId: output("app-subnet", "id") },
    },
  ],
  outputs: { gatewayIp: output("app-subnet", "gatewayIp") },
};

test("TypeScript: config read once, the used subnet bound, the output exported", () => {
  const ts = renderExample(example, "typescript");
  expect(ts).toContain('import * as pulumi from "@pulumi/pulumi";\nimport * as cims from "pulumi-cims";\n');
  expect(ts.match(/config\.require\("networkId"\)/g)).toHaveLength(1);
  expect(ts).toContain('const appSubnet = new cims.Subnet("app-subnet", {');
  expect(ts).toContain('\nnew cims.Subnet("spare", {');
  expect(ts).toContain("  subnetId: appSubnet.id,\n");
  expect(ts).toContain("export const gatewayIp = appSubnet.gatewayIp;\n");
});

test("YAML: a config section before the resources, interpolations, outputs", () => {
  const yaml = renderExample(example, "yaml");
  expect(yaml).toMatch(/^config:\n {2}networkId:\n {4}type: string\n {2}poolId:\n {4}type: string\nresources:\n/);
  expect(yaml).toContain("      networkId: ${networkId}\n");
  expect(yaml).toContain("      subnetId: ${app-subnet.id}\n");
  expect(yaml).toContain("outputs:\n  gatewayIp: ${app-subnet.gatewayIp}\n");
});

test("Python: snake_case variables and attributes, pulumi.export", () => {
  const py = renderExample(example, "python");
  expect(py).toContain('network_id = config.require("networkId")\n');
  expect(py).toContain("app_subnet = cims.Subnet(\n");
  expect(py).toContain("    subnet_id=app_subnet.id,\n");
  expect(py).toContain('pulumi.export("gatewayIp", app_subnet.gateway_ip)\n');
});

test("Go: the config package, only the used subnet bound, ID() for an id, ctx.Export before return", () => {
  const go = renderExample(example, "go");
  expect(go).toContain('\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"\n');
  expect(go).toContain('\t\tnetworkId := cfg.Require("networkId")\n');
  expect(go).toContain('\t\tappSubnet, err := cims.NewSubnet(ctx, "app-subnet", &cims.SubnetArgs{\n');
  expect(go).toContain('\t\tif _, err := cims.NewSubnet(ctx, "spare", &cims.SubnetArgs{\n');
  expect(go).toContain("\t\t\tSubnetId: appSubnet.ID(),\n");
  expect(go).toContain('\t\tctx.Export("gatewayIp", appSubnet.GatewayIp)\n\t\treturn nil\n');
});

test("Java: imports of what it names, config read once, a builder per resource, ctx.export", () => {
  const java = renderExample(example, "java");
  expect(java).toMatch(/^package app;\n\nimport com\.pulumi\.Context;\nimport com\.pulumi\.Pulumi;\n/);
  expect(java).toContain("import com.pulumi.cims.LbPoolMemberArgs;\nimport com.pulumi.cims.Subnet;\nimport com.pulumi.cims.SubnetArgs;\n");
  expect(java).toContain("public class App {\n    public static void main(String[] args) {\n        Pulumi.run(App::stack);\n");
  expect(java.match(/ctx\.config\(\)\.require\("networkId"\)/g)).toHaveLength(1);
  expect(java).toContain('        var appSubnet = new Subnet("app-subnet", SubnetArgs.builder()\n            .name("app")\n');
  expect(java).toContain('\n        new Subnet("spare", SubnetArgs.builder()');
  expect(java).toContain("            .subnetId(appSubnet.id())\n");
  expect(java).toContain('        ctx.export("gatewayIp", appSubnet.gatewayIp());\n    }\n}\n');
});

test("Java: nested types' builders, enums, lists and maps as the SDK takes them, no null field", () => {
  const settings: ExampleProgram<Kind> = {
    doc: "",
    declarations: [
      {
        type: "LbPoolSettings",
        name: "web-pool",
        args: {
          poolId: "p",
          lbAlgorithm: "ROUND_ROBIN",
          members: [{ address: "10.0.0.1", protocolPort: 80 }],
          caSecretId: null,
        },
      },
      {
        type: "Subnet",
        name: "s",
        args: { name: 'a "b"', cidr: "10.1.0.0/24", networkId: "n", tags: { team: "web" }, dnsNameservers: [] },
      },
    ],
    outputs: {},
  };
  const java = renderExample(settings, "java");
  expect(java).toContain(
    "import com.pulumi.cims.enums.LbAlgorithm;\nimport com.pulumi.cims.inputs.PoolMemberArgs;\nimport java.util.List;\nimport java.util.Map;\n",
  );
  expect(java).toContain("            .lbAlgorithm(LbAlgorithm.RoundRobin)\n");
  expect(java).toContain('            .members(List.of(PoolMemberArgs.builder().address("10.0.0.1").protocolPort(80).build()))\n');
  expect(java).not.toContain("caSecretId");
  expect(java).toContain('.name("a \\"b\\"")');
  expect(java).toContain('.tags(Map.of("team", "web"))');
  expect(java).toContain(".dnsNameservers(List.of())");
});

const found: ExampleProgram<Kind> = {
  doc: "A subnet on a network found by name, and a policy's state found by name.",
  declarations: [
    { type: "Subnet", name: "a", args: { name: "a", cidr: "10.9.0.0/24", networkId: lookup("getNetwork", { name: "demo-net" }, "id") } },
    { type: "Subnet", name: "b", args: { name: "b", cidr: "10.8.0.0/24", networkId: lookup("getNetwork", { name: "demo-net" }, "id") } },
    {
      type: "SnapshotPolicyState",
      name: "p",
      args: { policyId: lookup("getSnapshotPolicy", { name: "nightly-snapshots" }, "id"), status: "paused" },
    },
  ],
  outputs: { poolId: lookup("getPool", { name: "web-pool", projectId: 1 }, "id") },
};

test("a lookup is made once per program, as a variable named after what it finds, in every language", () => {
  const ts = renderExample(found, "typescript");
  expect(ts).not.toContain("pulumi.Config");
  expect(ts.match(/cims\.getNetworkOutput/g)).toHaveLength(1);
  expect(ts).toContain('\nconst demoNetId = cims.getNetworkOutput({ name: "demo-net" }).id;\n');
  expect(ts).toContain('const webPoolId = cims.getPoolOutput({ name: "web-pool", projectId: 1 }).id;\n');
  expect(ts).toContain("  networkId: demoNetId,\n");
  expect(ts).toContain("export const poolId = webPoolId;\n");

  const yaml = renderExample(found, "yaml");
  expect(yaml).toMatch(
    /^variables:\n {2}demoNetId:\n {4}fn::invoke:\n {6}function: cims:index:getNetwork\n {6}arguments:\n {8}name: "demo-net"\n {6}return: id\n/,
  );
  expect(yaml.match(/fn::invoke/g)).toHaveLength(3);
  expect(yaml).toContain('        name: "web-pool"\n        projectId: 1\n');
  expect(yaml).toContain("      networkId: ${demoNetId}\n");
  expect(yaml).toContain("      policyId: ${nightlySnapshotsId}\n");
  expect(yaml).toContain("outputs:\n  poolId: ${webPoolId}\n");

  const py = renderExample(found, "python");
  expect(py).toContain('\ndemo_net_id = cims.get_network_output(name="demo-net").id\n');
  expect(py).toContain('web_pool_id = cims.get_pool_output(name="web-pool", project_id=1).id\n');
  expect(py).toContain("    network_id=demo_net_id,\n");
  expect(py).toContain('pulumi.export("poolId", web_pool_id)\n');

  const go = renderExample(found, "go");
  expect(go).not.toContain("pulumi/config");
  expect(go).toContain('\t\tdemoNetId := cims.GetNetworkOutput(ctx, cims.GetNetworkOutputArgs{Name: pulumi.StringPtr("demo-net")}).Id()\n');
  expect(go).toContain(
    '\t\tnightlySnapshotsId := cims.LookupSnapshotPolicyOutput(ctx, cims.LookupSnapshotPolicyOutputArgs{Name: pulumi.StringPtr("nightly-snapshots")}).Id()\n',
  );
  expect(go).toContain('cims.GetPoolOutputArgs{Name: pulumi.StringPtr("web-pool"), ProjectId: pulumi.IntPtr(1)}');
  expect(go).toContain("\t\t\tNetworkId: demoNetId,\n");
  expect(go).toContain("\t\t\tPolicyId: nightlySnapshotsId,\n");
  expect(go).toContain('\t\tctx.Export("poolId", webPoolId)\n');

  const java = renderExample(found, "java");
  expect(java).toContain("import com.pulumi.cims.CimsFunctions;\n");
  expect(java).toContain("import com.pulumi.cims.inputs.GetNetworkArgs;\n");
  expect(java).toContain(
    '        final var demoNetId = CimsFunctions.getNetwork(GetNetworkArgs.builder().name("demo-net").build()).applyValue(r -> r.id());\n',
  );
  expect(java).toContain('GetPoolArgs.builder().name("web-pool").projectId(1).build()');
  expect(java).toContain("            .networkId(demoNetId)\n");
  expect(java).toContain('        ctx.export("poolId", webPoolId);\n');
});

test("a program of lookups alone: YAML has variables and outputs, no empty resources", () => {
  const alone = { doc: "", declarations: [], outputs: { foundPoolId: lookup("getPool", { name: "web-pool" }, "id") } };
  expect(renderExample(alone, "yaml")).toBe(
    'variables:\n  webPoolId:\n    fn::invoke:\n      function: cims:index:getPool\n      arguments:\n        name: "web-pool"\n      return: id\n' +
      "outputs:\n  foundPoolId: ${webPoolId}\n",
  );
  // Without a `name` argument, the variable is named after the first text argument.
  expect(lookup("getPoolMembers", { poolName: "api-pool" }, "members").name).toBe("api-pool-members");
});

test("two different lookups under one variable's name are refused", () => {
  const clash = { ...found, outputs: { other: lookup("getNetwork", { name: "prod-net" }, "id", "demo-net-id") } };
  expect(() => renderExample(clash, "typescript")).toThrow("two lookups are named demo-net-id");
});

test("the kinds' examples combine into one program; clashing names or config types are refused", () => {
  expect(combineExamples(KIND_NAMES.map(exampleOf)).declarations.length).toBeGreaterThanOrEqual(6);
  expect(() => combineExamples([example, example])).toThrow("two examples export gatewayIp");
  expect(() => combineExamples([example, { ...example, outputs: {} }])).toThrow("two examples declare a resource named app-subnet");
  const integer = {
    doc: "",
    declarations: [{ ...example.declarations[2], name: "m2", args: { poolId: config("poolId", "integer") } }],
    outputs: {},
  };
  expect(() => combineExamples([example, integer])).toThrow("config poolId is read as both string and integer");
});

test("each kind's example, attached to it in the registry, declares that kind; a type no kind has is refused by name", () => {
  for (const k of KIND_NAMES) expect(exampleOf(k).declarations.map((d) => d.type)).toContain(k);
  const typo = { ...example, declarations: [{ ...example.declarations[0], type: "Subnett" }] };
  expect(() => registeredExample("Subnet", typo)).toThrow(
    "Subnet's example declares a Subnett, which is no registered kind: set its type to one of Subnet, BaremetalImage",
  );
});

test("the kinds' examples read no stack config: each finds what it refers to by lookup (QuotaThreshold's client by getProject)", () => {
  const all = combineExamples(KIND_NAMES.map(exampleOf));
  expect(configValues(all.declarations)).toEqual([]);
  expect(exampleOf("QuotaThreshold").declarations[0].args.clientId).toEqual(lookup("getProject", { name: "default" }, "clientId"));
});

test("a field of a list's first record, as every language reads it: the list once as a variable, the record by its index", () => {
  const members = lookup("getPoolMembers", { poolName: "api-pool" }, "members");
  const first = {
    doc: "",
    declarations: [],
    outputs: { firstAddress: item(members, 0, "address"), firstPort: item(members, 0, "protocolPort") },
  };
  expect(lookupValues(first)).toEqual([members]);
  const ts = renderExample(first, "typescript");
  expect(ts.match(/getPoolMembersOutput/g)).toHaveLength(1);
  expect(ts).toContain('const apiPoolMembers = cims.getPoolMembersOutput({ poolName: "api-pool" }).members;\n');
  expect(ts).toContain("export const firstAddress = apiPoolMembers[0].address;\n");
  expect(renderExample(first, "yaml")).toContain(
    "outputs:\n  firstAddress: ${apiPoolMembers[0].address}\n  firstPort: ${apiPoolMembers[0].protocolPort}\n",
  );
  expect(renderExample(first, "python")).toContain('pulumi.export("firstPort", api_pool_members[0].protocol_port)\n');
  expect(renderExample(first, "go")).toContain('\t\tctx.Export("firstPort", apiPoolMembers.Index(pulumi.Int(0)).ProtocolPort())\n');
  expect(renderExample(first, "java")).toContain(
    '        ctx.export("firstPort", apiPoolMembers.applyValue(found -> found.get(0).protocolPort()));\n',
  );
});

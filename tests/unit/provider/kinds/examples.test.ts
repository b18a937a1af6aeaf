// The docs examples' program model (provider/kinds/program-model.ts) as cims-import's renderers write
// it: config values read once per program, a resource bound to a variable only when its outputs
// are used (Go refuses an unused one), the stack's outputs, and in Java, which only the examples
// are written in; and the examples combined into one program only when their names do not
// clash. tests/e2e/tools/docs-examples.test.ts runs them.
import { combineExamples, config, type ExampleProgram, output } from "../../../../provider/kinds/program-model";
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

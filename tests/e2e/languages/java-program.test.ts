// Java programs through the plugin: scripts/pulumi builds our pulumi-language-java beside the
// CLI, as its other language hosts; the committed Java SDK, sdk/java/, is what
// `pulumi package gen-sdk --language java --local` writes from schema.json now; a Maven
// project, the pom.xml the docs give users (examples/java/pom.xml), compiles its sources with
// the program against com.pulumi:pulumi from Maven Central (~/.m2 after the first run). The
// program deploys a subnet, renames it in place (one PATCH); packaged as a jar that
// runtime.options.binary names, it previews with no changes.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { generateJavaSdk, JAVA_SDK_DIR } from "../../../scripts/gen-sdk-java";
import { committedSdk, sdkDifferences } from "../../../scripts/gen-sdk-python";
import { PLUGIN_PROJECT, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT, runCommand } from "../../support/harness";
import { javaProject, MAVEN_OPTS } from "../../support/java";

const stacks = useStacks();
const program = `package app;

import com.pulumi.Pulumi;
import com.pulumi.cims.Subnet;
import com.pulumi.cims.SubnetArgs;
import com.pulumi.cims.enums.IpVersion;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var net = new Subnet("net", SubnetArgs.builder()
                .name(ctx.config().get("name").orElse("java-net"))
                .cidr("10.210.0.0/24")
                .networkId("${SEED.networkId}")
                .ipVersion(IpVersion.V4)
                .tags(Map.of("env", "dev"))
                .build());
            ctx.export("subnetId", net.id());
            ctx.export("totalIps", net.totalIps());
        });
    }
}
`;

test(
  "a Java program on the generated SDK: deploys a subnet, no changes, a rename is one PATCH",
  async () => {
    // sdk/java/ is what the generator writes now (npm run gen), stamped with the package's version.
    const generated = generateJavaSdk(path.join(REPO_ROOT, "schema.json"));
    expect(sdkDifferences(generated, committedSdk(REPO_ROOT, JAVA_SDK_DIR))).toEqual([]);
    const { version } = JSON.parse(await fs.readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    expect(generated.get("src/main/resources/com/pulumi/cims/version.txt")).toBe(version);
    expect(generated.get("src/main/java/com/pulumi/cims/Subnet.java")).toContain('super("cims:index:Subnet"');

    const env = await stacks.stack({
      files: { "Pulumi.yaml": PLUGIN_PROJECT("java-program", "java") },
      env: { MAVEN_OPTS },
    });
    const { stack, emulator } = env;
    await javaProject(stack.projectDir, program);

    const { store } = emulator;
    await stack.up();
    const outputs = await stack.outputs();
    expect(outputs.totalIps).toBe("254");
    expect(store.get("subnets", String(outputs.subnetId))).toMatchObject({
      name: "java-net",
      cidr: "10.210.0.0/24",
      tags: expect.arrayContaining([expect.objectContaining({ key: "env", value: "dev" })]),
    });
    const state = await stack.exportState();
    expect(state.deployment.resources?.find((r) => r.id === outputs.subnetId)).toMatchObject({
      type: "cims:index:Subnet",
      inputs: expect.objectContaining({ ipVersion: 4 }),
    });
    // No preview here: the program's inputs equal what the state records is what the jar's
    // `preview --expect-no-changes` below shows, the same program, after an update that
    // records them as a create does; the Maven run it would add is each up's.

    // A new name: an update in place, one PATCH, the same record.
    // `up --diff` prints the step's diff as `preview --diff` does: one Java run where a
    // preview and an up were two.
    await stack.setConfig("name", "java-net-2");
    emulator.metrics.reset();
    const diff = await stack.up(["--diff"]);
    expect(diff.stdout).toMatch(/~ cims:index:Subnet: \(update\)[\s\S]*~ name\s*: "java-net" => "java-net-2"/);
    expect(diff.stdout).not.toMatch(/replace/);
    expect(writes(env)).toEqual(["PATCH /cloud/v1/subnets/:project_id/:region_id/:subnet_id 200 x1"]);
    expect((await stack.outputs()).subnetId).toBe(outputs.subnetId);
    expect(store.get("subnets", String(outputs.subnetId))?.name).toBe("java-net-2");

    // The same program as a jar (its dependencies in lib/ beside it), run with java -jar: with
    // the pom.xml gone, no Maven run could have run it.
    await runCommand("mvn", ["--no-transfer-progress", "-q", "package", "-DskipTests"], stack.env, { cwd: stack.projectDir });
    await fs.rm(path.join(stack.projectDir, "pom.xml"));
    await fs.writeFile(
      path.join(stack.projectDir, "Pulumi.yaml"),
      PLUGIN_PROJECT("java-program", "java").replace("runtime: java\n", "runtime:\n  name: java\n  options:\n    binary: target/app.jar\n"),
    );
    await stack.preview(["--expect-no-changes"]);
    // No destroy: it runs no Java, only the plugin over the state, whose destroy of a Subnet
    // the other plugin-face stacks run (plugin-face.test.ts).
  },
  E2E_TIMEOUT_MS,
);

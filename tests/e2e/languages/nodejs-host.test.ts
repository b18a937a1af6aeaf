// Our Node.js language host reads a project's runtime options as the official host does: an
// option of the wrong type fails the command naming it (it is never read as absent, which
// would run the program some other way than the project says), and `nodeargs` reaches node.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

const PROGRAM = 'import * as pulumi from "@pulumi/pulumi";\nexport const stack = pulumi.getStack();\n';
const project = (options: string) => `name: host-options\nruntime:\n  name: nodejs\n  options:\n${options}`;

test(
  "runtime options of the wrong type fail the preview naming the option; a string nodeargs is passed to node",
  async () => {
    const refused: string[] = [];
    for (const [options, rule] of [
      ["    nodeargs: 5\n", "nodeargs option must be a string"],
      ['    typescript: "no"\n', "typescript option must be a boolean"],
    ]) {
      const stack = await stacks.bare({ files: { "Pulumi.yaml": project(options), "index.ts": PROGRAM } });
      const preview = await stack.preview([], { allowFailure: true });
      expect(preview.code).not.toBe(0);
      if ((preview.stdout + preview.stderr).includes(rule)) refused.push(rule);
    }
    expect(refused).toEqual(["nodeargs option must be a string", "typescript option must be a boolean"]);

    const stack = await stacks.bare({
      files: {
        "Pulumi.yaml": project("    nodeargs: --require ./mark.js\n"),
        "index.ts": PROGRAM,
        "mark.js": 'require("node:fs").writeFileSync(require("node:path").join(__dirname, "nodeargs-ran"), "yes");\n',
      },
    });
    await stack.preview();
    expect(await fs.readFile(path.join(stack.projectDir, "nodeargs-ran"), "utf8")).toBe("yes");
  },
  E2E_TIMEOUT_MS,
);

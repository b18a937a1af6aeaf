// The first steps each language's docs give a newcomer, held to what the tests run: the whole
// pom.xml the Java steps show is the file the Java e2e tests build with (examples/java/pom.xml),
// and it compiles for a Java release a current JDK takes (Maven 3.8's default, Java 5, fails
// "Source option 5 is no longer supported"); every install names the version the tests use, so
// that no step takes the newest from a registry: @pulumi/pulumi (package.json's pin), Python's
// pulumi (tests/fixtures/python/requirements.txt), the Pulumi Go SDK (the CLI's, scripts/pulumi).
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

const PLATFORM = read("docs/platform.md");
/** A `## <title>` section of docs/platform.md, up to the next. */
const section = (title: string) => PLATFORM.split(/\n(?=## )/).find((s) => s.startsWith(`## ${title}\n`)) ?? "";
/** The fenced blocks of `text` whose fence names `language`. */
const blocks = (text: string, language: string) =>
  [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1]);

const manifest = JSON.parse(read("package.json")) as { devDependencies: Record<string, string> };
const PULUMI_VERSION = /^PULUMI_VERSION=v(\S+)$/m.exec(read("scripts/pulumi"))?.[1];
const PYTHON_PULUMI = /^pulumi==(\S+)$/m.exec(read("tests/fixtures/python/requirements.txt"))?.[1];

test("the Java steps show the whole pom.xml the Java e2e tests build with, compiling for Java 11 or later", () => {
  const poms = blocks(section("Java"), "xml").filter((b) => b.includes("<project"));
  expect(poms).toEqual([read("examples/java/pom.xml")]);
  const release = /<maven\.compiler\.release>(\d+)<\/maven\.compiler\.release>/.exec(poms[0])?.[1];
  expect(Number(release)).toBeGreaterThanOrEqual(11);
  // The steps copy that very file, and name the class the pom runs, which every page's Java example is.
  expect(section("Java")).toContain("cp node_modules/pulumi-cims/examples/java/pom.xml .");
  expect(read("examples/java/pom.xml")).toContain("<mainClass>app.App</mainClass>");
});

test("every npm install of @pulumi/pulumi in the README and docs pins the version the tests run", () => {
  expect(PULUMI_VERSION).toBe(manifest.devDependencies["@pulumi/pulumi"]);
  const docs = [
    "README.md",
    ...fs
      .readdirSync(path.join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const installs = docs.flatMap((file) => [...read(file).matchAll(/^npm install .*$/gm)].map((m) => ({ file, line: m[0] })));
  const ofSdk = installs.filter((i) => i.line.includes("@pulumi/pulumi"));
  expect(ofSdk.length).toBeGreaterThanOrEqual(6);
  for (const i of ofSdk) expect(i).toEqual({ file: i.file, line: expect.stringContaining(`@pulumi/pulumi@${PULUMI_VERSION} `) });
});

test("the Python steps install pulumi at the version the tests' venv pins", () => {
  expect(PYTHON_PULUMI).toBe(PULUMI_VERSION);
  const pips = blocks(section("Python"), "sh").flatMap((b) => b.split("\n").filter((l) => /\bpip install\b/.test(l)));
  expect(pips).toEqual([expect.stringContaining(`pulumi==${PYTHON_PULUMI} node_modules/pulumi-cims/sdk/python`)]);
});

test("the Go steps pin the Pulumi Go SDK before every go mod tidy, and say the first up compiles it", () => {
  const go = section("Go, .NET");
  const steps = blocks(go, "sh").join("\n");
  const gets = [...steps.matchAll(/go get github\.com\/pulumi\/pulumi\/sdk\/v3(\S*)/g)].map((m) => m[1]);
  // One for the program's module, one for the SDK's; `go mod tidy` alone would take the newest.
  expect(gets).toEqual([`@v${PULUMI_VERSION}`, `@v${PULUMI_VERSION}`]);
  for (const tidy of [...steps.matchAll(/go mod tidy/g)].map((m) => m.index))
    expect(steps.slice(0, tidy)).toContain(`go get github.com/pulumi/pulumi/sdk/v3@v${PULUMI_VERSION}`);
  expect(steps.indexOf("(cd sdk && go mod init")).toBeLessThan(
    steps.indexOf(`&& go get github.com/pulumi/pulumi/sdk/v3@v${PULUMI_VERSION} && go mod tidy)`),
  );
  expect(go).toMatch(/The first `pulumi up` builds the program, and with\s+it the Pulumi Go SDK/);
});

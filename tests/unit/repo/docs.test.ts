// The docs as a reader meets them: README.md is the front page (short, with the two commands
// the quick start promises), every relative link and anchor in README.md and docs/ lands
// somewhere, no doc points outside the repository, and measured figures live in
// bench/results.md (rendered from the bench's JSON files), not pasted with a date.
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");
const README_MAX_LINES = 200;
const SKIP_DIRS = new Set(["node_modules", "dist", ".git", "coverage"]);

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return SKIP_DIRS.has(e.name) || e.name.startsWith(".pulumi") ? [] : markdownFiles(full);
    return e.name.endsWith(".md") ? [full] : [];
  });
}

const rel = (file: string) => path.relative(ROOT, file);
const read = (file: string) => fs.readFileSync(file, "utf8");

/** The text outside fenced code blocks, with inline code blanked: links and headings in code are examples. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line.replace(/`[^`]*`/g, (code) => " ".repeat(code.length));
  });
}

/** GitHub's heading anchor: lowercase, punctuation dropped except `-` and `_`, spaces to `-`. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a file offers, numbered as GitHub numbers repeated headings (`x`, `x-1`, ...). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of read(file).split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative links of a markdown file as [target, line number]; web and mail links are not ours to check. */
function links(file: string): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  prose(read(file)).forEach((line, i) => {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(m[1])) found.push([m[1], i + 1]);
    }
  });
  return found;
}

/** What is wrong with one link of `from`, or undefined when it resolves. */
export function brokenLink(from: string, target: string): string | undefined {
  const [filePart, anchor] = target.split("#", 2);
  const file = filePart ? path.resolve(path.dirname(from), decodeURIComponent(filePart)) : from;
  if (!file.startsWith(ROOT + path.sep) && file !== ROOT) return "points outside the repository";
  if (!fs.existsSync(file)) return `${rel(file)} does not exist`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith(".md")) return `#${anchor} on a file that is not markdown`;
  return anchors(file).has(anchor) ? undefined : `${rel(file)} has no heading #${anchor}`;
}

const readme = path.join(ROOT, "README.md");
const checked = [readme, ...(fs.existsSync(path.join(ROOT, "docs")) ? markdownFiles(path.join(ROOT, "docs")) : [])];

test(`README.md is the front page: at most ${README_MAX_LINES} lines`, () => {
  const lines = read(readme).replace(/\n$/, "").split("\n").length;
  expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
});

test("README.md keeps the quick start's two commands exactly", () => {
  const text = read(readme);
  expect(text).toContain("npm run demo ");
  expect(text).toMatch(/^npm ci && npm test\b/m);
});

test("README.md shows how to run one test file: a unit file as it is, an e2e file after a build; both files exist", () => {
  const text = read(readme);
  const unit = /^npx jest (tests\/unit\/\S+\.test\.ts)/m.exec(text);
  const e2e = /^npm run build && npx jest (tests\/e2e\/\S+\.test\.ts)/m.exec(text);
  expect({ unit: unit?.[1], e2e: e2e?.[1] }).toEqual({ unit: expect.any(String), e2e: expect.any(String) });
  for (const file of [unit![1], e2e![1]]) expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
});

test("the docs exist, one page per audience, each linked from README.md", () => {
  const text = read(readme);
  for (const page of ["docs/using.md", "docs/platform.md", "docs/emulator.md", "docs/contributing.md"]) {
    expect(fs.existsSync(path.join(ROOT, page))).toBe(true);
    expect(text).toContain(`(${page}`);
  }
});

test("every relative link and #anchor in README.md and docs/ resolves", () => {
  const broken = checked.flatMap((file) =>
    links(file).flatMap(([target, line]) => {
      const why = brokenLink(file, target);
      return why ? [`${rel(file)}:${line} ${target}: ${why}`] : [];
    }),
  );
  expect(broken).toEqual([]);
});

test("the link checker sees a missing file and a missing anchor", () => {
  expect(brokenLink(readme, "docs/no-such-page.md")).toMatch(/does not exist/);
  expect(brokenLink(readme, "#no-such-heading")).toMatch(/no heading/);
  expect(brokenLink(readme, "../outside.md")).toMatch(/outside/);
  expect(slug("Other languages and `pulumi import`")).toBe("other-languages-and-pulumi-import");
  expect(slug("Conformance: the vendor's own SDK")).toBe("conformance-the-vendors-own-sdk");
});

test("no doc points outside the repository (a design document, ../shared, an issue number)", () => {
  const found = markdownFiles(ROOT).flatMap((file) =>
    read(file)
      .split("\n")
      .flatMap((line, i) =>
        /design\.md|\.\.\/shared|\bshared\/spec\b|\bissues? #?\d+/i.test(line) ? [`${rel(file)}:${i + 1}: ${line.trim()}`] : [],
      ),
  );
  expect(found).toEqual([]);
});

test("README.md and docs/ carry no dated measurements: figures live in bench/results.md", () => {
  const dated = checked.flatMap((file) =>
    read(file)
      .split("\n")
      .flatMap((line, i) => (/\b20\d\d-\d\d-\d\d\b/.test(line) ? [`${rel(file)}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(dated).toEqual([]);
  expect(checked.some((file) => read(file).includes("bench/results.md"))).toBe(true);
});

test("bench/results.md renders every JSON file of the bench", () => {
  const results = read(path.join(ROOT, "bench/results.md"));
  const files = fs.readdirSync(path.join(ROOT, "bench")).filter((f) => f.endsWith(".json"));
  expect(files).toEqual(
    expect.arrayContaining(["results.json", "faces.json", "hints.json", "probe-cost.json", "plugin-scale.json", "languages.json"]),
  );
  for (const json of files) {
    expect(results).toMatch(new RegExp(`^## .*\\(\`${json.replace(".", "\\.")}\`\\)$`, "m"));
  }
});

/** Files whose text users meet (messages, help, the plugin's schema) or that point readers at the docs. */
function sourcesPointingAtDocs(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return SKIP_DIRS.has(e.name) ? [] : walk(full);
      return /\.(ts|js|go|py)$/.test(e.name) || e.name === "pulumi" || e.name === "demo" ? [full] : [];
    });
  return [
    ...["api", "provider", "emulator", "scripts", "bin", "bench", "tests"].flatMap((d) => walk(path.join(ROOT, d))),
    path.join(ROOT, "schema.json"),
  ];
}

test("pointers into the docs from code, messages and the plugin's schema resolve; none names a README section that moved", () => {
  const bad: string[] = [];
  let pointers = 0;
  for (const file of sourcesPointingAtDocs().filter((f) => f !== __filename)) {
    read(file)
      .split("\n")
      .forEach((line, i) => {
        for (const m of line.matchAll(/\bdocs\/[\w-]+\.md(?:#[\w-]+)?/g)) {
          pointers++;
          const why = brokenLink(readme, m[0]);
          if (why) bad.push(`${rel(file)}:${i + 1} ${m[0]}: ${why}`);
        }
        if (/README,? "[A-Z]|the pulumi-cims README|\(see (the )?README\b/.test(line)) bad.push(`${rel(file)}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(bad).toEqual([]);
  expect(pointers).toBeGreaterThan(5);
});

test("no comment in the code points outside the repository (a design document, ../shared, an issue number)", () => {
  const found = sourcesPointingAtDocs()
    .filter((f) => f !== __filename)
    .flatMap((file) =>
      read(file)
        .split("\n")
        .flatMap((line, i) =>
          /design\.md|\.\.\/shared|\/work\/shared|\bissues? #?\d+/i.test(line) ? [`${rel(file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
  expect(found).toEqual([]);
});

test("scripts/README.md has a row for every script in scripts/, and none for a script that is gone", () => {
  const rows = [...read(path.join(ROOT, "scripts/README.md")).matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
  const entries = fs
    .readdirSync(path.join(ROOT, "scripts"), { withFileTypes: true })
    .filter((e) => e.name !== "README.md")
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
  expect([...rows].sort()).toEqual(entries.sort());
});

test("examples/ci/github-preview.yml saves the plan in the pull request's job and applies it on merge, and posts docs/platform.md's summary of it", () => {
  const workflow = read(path.join(ROOT, "examples/ci/github-preview.yml"));
  const filter = /pulumi preview --json --stack dev \| jq -r --arg stack dev '([^']+)'/.exec(
    read(path.join(ROOT, "docs/platform.md")),
  )?.[1];
  expect(filter).toBeDefined();
  expect(workflow).toContain(`jq -r --arg stack \${{ matrix.stack }} '${filter}' preview.json`);
  expect(workflow).toMatch(/if: github\.event_name == 'pull_request'\n\s+run: \|\n(.*\n)*?\s+pulumi preview [^\n]*--save-plan plan\.json/);
  expect(workflow).toMatch(/if: github\.event_name == 'push'\n(\s+#.*\n)*\s+run: pulumi up [^\n]*--plan plan\.json/);
  // No up of anything but the saved plan (comments aside).
  const commands = workflow.split("\n").filter((l) => !/^\s*#/.test(l));
  expect(commands.filter((l) => /command: up|pulumi up (?![^\n]*--plan)/.test(l))).toEqual([]);
});

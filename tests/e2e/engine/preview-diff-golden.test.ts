// The exact text of `pulumi preview --diff` on both faces, against committed golden files
// (tests/e2e/support/golden/): a subnet renamed outside Pulumi then refreshed shows only `~ name`;
// then a rename, a tag change, a pool member's weight and a CIDR that replaces, with a default
// tag (`cims:defaultTags`) added to every subnet, each only what changes, the default tag once
// as a tag of the subnet's own: no argument a refresh dropped, no field a pool member's service fills, no
// bookkeeping (the CIDR's replacement creates first, and on the dynamic face Pulumi shows such
// a replacement as the old outputs against the new inputs: the outputs the service computes are
// listed as removed, as docs/using.md says); and a subnet with `ignoreChanges: ["tags"]` renamed, its tags changed by the
// program and outside it: only `~ name`, and `up` writes nothing else. Another stack's member is
// in the pool from the first refresh on, and no preview shows it: a member weight's change, and
// last a shared pool's update of one setting, show that change only (and no warning: a weight
// changes in place). `up` and `pulumi stack output` show no bookkeeping either. Only what must vary
// is normalised (ids, task ids, times, the CLI's progress dots, and the order of the resources, which the engine's
// concurrency varies: they are put in URN order); `UPDATE_GOLDEN=1` rewrites the files.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, type Face, faceProject, onFace, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../../support/harness";

const stacks = useStacks();
const GOLDEN = path.join(REPO_ROOT, "tests/e2e/support/golden");

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as cims from "pulumi-cims";

const c = new pulumi.Config();
const renamed = new cims.Subnet("renamed", {
  name: c.get("name") ?? "renamed",
  cidr: "10.71.0.0/24",
  networkId: "${SEED.networkId}",
  dnsNameservers: ["8.8.8.8"],
  tags: { team: "net" },
});
new cims.Subnet("tagged", { name: "tagged", cidr: "10.72.0.0/24", networkId: "${SEED.networkId}", tags: { team: c.get("team") ?? "net" } });
new cims.Subnet("moved", { name: "moved", cidr: c.get("cidr") ?? "10.73.0.0/24", networkId: "${SEED.networkId}" });
const pool = new cims.LbPoolSettings("pool", {
  poolId: "${SEED.poolId}",
  // Unset until the shared pool's case sets it: the earlier cases' golden files hold no lbAlgorithm.
  lbAlgorithm: c.get("algorithm") as "ROUND_ROBIN" | "LEAST_CONNECTIONS" | undefined,
  members: [
    { address: "10.0.0.10", protocolPort: 8080, weight: c.getNumber("weight") ?? 1 },
    { address: "10.0.0.11", protocolPort: 8080 },
  ],
  adoptMembers: ["${SEED.keptMemberId}"],
});
export const subnetId = renamed.id;
`;

/** The whole resources as stack outputs: every output a user reads of them. */
const EXPORTED = "export const subnet = renamed;\nexport const poolSettings = pool;\n";

/**
 * A subnet whose tags are under ignoreChanges, added by the up after the changes' preview (the
 * golden files before it stay as they are): the program renames it and changes its tag.
 */
const IGNORED = `new cims.Subnet("kept", { name: c.get("keptName") ?? "kept", cidr: "10.75.0.0/24", networkId: "${SEED.networkId}", tags: { team: c.get("keptTeam") ?? "net" } }, { ignoreChanges: ["tags"] });\n`;

/** Kept as they are: the seed's ids, the same on every run. */
const STABLE = new Set(Object.values(SEED));
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A resource's first line in a preview: `    ~ cims:index:Subnet: (update)`. */
const STEP = /^ {4}(\S{2}|[~+-] )[\w:/-]+: \(/;

/**
 * The resources' blocks in URN order: the engine lists them as their steps run, which the
 * concurrency of registration and diff reorders from run to run.
 */
function inUrnOrder(text: string): string {
  const lines = text.split("\n");
  const first = lines.findIndex((l, i) => i > 2 && STEP.test(l));
  if (first < 0) return text;
  const end = lines.findIndex((l, i) => i > first && !l.startsWith("    ") && !l.startsWith("  "));
  const blocks: string[][] = [];
  for (const line of lines.slice(first, end)) {
    if (STEP.test(line)) blocks.push([line]);
    else blocks[blocks.length - 1].push(line);
  }
  const urn = (b: string[]) => b.find((l) => l.includes("[urn=")) ?? "";
  blocks.sort((a, b) => urn(a).localeCompare(urn(b)));
  return [...lines.slice(0, first), ...blocks.flat(), ...lines.slice(end)].join("\n");
}

/**
 * The output with what differs between runs replaced (the service's ids and times), without
 * the progress line the CLI prints when a preview takes a while, resources in URN order.
 */
const normalised = (text: string) =>
  inUrnOrder(text.replace(/^@ previewing update\.*\n/gm, ""))
    .replace(UUID, (id) => (STABLE.has(id) ? id : "<uuid>"))
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?/g, "<time>");

async function golden(name: string, text: string): Promise<void> {
  const file = path.join(GOLDEN, `${name}.txt`);
  if (process.env.UPDATE_GOLDEN === "1") {
    await fs.mkdir(GOLDEN, { recursive: true });
    await fs.writeFile(file, text);
    return;
  }
  expect(text).toBe(await fs.readFile(file, "utf8").catch(() => `(no golden file ${file}: run with UPDATE_GOLDEN=1)`));
}

const BOOKKEEPING = /managedOptional|pendingTaskIds|__given/;

test.each<Face>(["dynamic", "native"])(
  "preview --diff on the %s face shows only what changes: drift after refresh, rename, tags, member weight, a replacing CIDR; and a shared pool's update of a setting, not the members another stack added",
  async (face) => {
    // With a package.json, as a user's project has: without one the engine warns on every run.
    const files = {
      "Pulumi.yaml": faceProject(`golden-${face}`, face),
      "package.json": '{ "name": "golden" }\n',
      "index.ts": onFace(PROGRAM, face),
    };
    const env = await stacks.stack({ files });
    // What a reviewer reads: the diff, and the warnings the CLI writes beside it (stderr).
    const diff = async () => {
      const preview = await env.stack.preview(["--diff", "--color", "never"]);
      return normalised(preview.stderr.trim() ? `${preview.stdout}\n(stderr)\n${preview.stderr}` : preview.stdout);
    };
    await env.stack.up();
    const id = String((await env.stack.outputs()).subnetId);

    // Another stack's member in the pool from here on, seen by the refresh: no preview below shows it.
    const members = `/cloud/v1/loadbalancers/1/1/pools/${SEED.poolId}/members`;
    const task = (await api(env, "POST", members, { address: "10.0.0.55", protocol_port: 8080 })).body.tasks[0];
    for (let s = ""; s !== "FINISHED"; await new Promise((r) => setTimeout(r, 100)))
      s = (await api(env, "GET", `/cloud/v1/tasks/${task}`)).body.state;
    expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${id}`, { name: "renamed-outside" })).status).toBe(200);
    await env.stack.refresh();
    await golden(`drift-refresh.${face}`, await diff());

    // A default tag set in the stack's config as a user writes it (structured): each subnet shows it once, as a tag of its own.
    await env.stack.run(["config", "set", "--path", "cims:defaultTags.env", "e2e", "--stack", env.stack.name]);
    await env.stack.setConfigs({ name: "renamed-2", team: "apps", cidr: "10.74.0.0/24", weight: "5" });
    await golden(`changes.${face}`, await diff());

    // The up that applies the changes also makes the subnet whose tags are under ignoreChanges.
    await fs.appendFile(path.join(env.stack.projectDir, "index.ts"), onFace(IGNORED, face));
    const up = await env.stack.up(["--diff", "--color", "never"]);
    expect(up.stdout).toMatch(/\+-\s*1 replaced/);
    expect(up.stdout).not.toMatch(BOOKKEEPING);

    // ignoreChanges: ["tags"], a tag added outside Pulumi, then a rename and a tag change in
    // the program: the preview shows the name alone, and the up writes nothing else.
    const kept = () => env.emulator.store.list("subnets").find((s) => s.cidr === "10.75.0.0/24")!;
    expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${String(kept().id)}`, { tags: { "cost-center": "cc-42" } })).status).toBe(200);
    await env.stack.setConfigs({ keptName: "kept-2", keptTeam: "apps" });
    await golden(`ignore-changes.${face}`, await diff());
    await env.stack.up();
    const tags = (kept().tags as Array<{ key: string; value: string; read_only: boolean }>).filter((t) => !t.read_only);
    expect({ name: kept().name, tags: Object.fromEntries(tags.map((t) => [t.key, t.value])) }).toEqual({
      name: "kept-2",
      tags: { team: "net", env: "e2e", "cost-center": "cc-42" },
    });

    // The shared pool's setting: the preview shows it alone (so the up before it left nothing to
    // do), not the member another stack added, and the up keeps that member.
    await env.stack.setConfig("algorithm", "LEAST_CONNECTIONS");
    await golden(`shared-pool.${face}`, await diff());
    await env.stack.up();
    expect((await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body.members.map((m: { address: string }) => m.address)).toEqual(
      ["10.0.0.10", "10.0.0.11", "10.0.0.55"],
    );

    // The outputs added, nothing else to do: the up that adds them changes no resource (so the
    // up before it left nothing to do either).
    await fs.appendFile(path.join(env.stack.projectDir, "index.ts"), EXPORTED);
    const exported = await env.stack.up();
    expect(exported.stdout).toMatch(/Resources:\n\s+\d+ unchanged\n/);
    // What `pulumi stack output --json` prints: the checkpoint's outputs, read without a CLI start
    // as they hold no secret (the harness asks the CLI when they do).
    const output = JSON.stringify(await env.stack.outputs());
    expect(output).toContain('"renamed-2"');
    expect(output).not.toMatch(BOOKKEEPING);
    // No `preview --expect-no-changes` here: the up above changed no resource (its summary is
    // all unchanged), so such a preview would compare the same state with the same program.
  },
  E2E_TIMEOUT_MS,
);

// Subnet replacements under the real engine. A replacement creates first, as Pulumi does: a
// new CIDR for a subnet a pool member uses (TypeScript on the dynamic face, YAML on the plugin
// face) creates the new subnet, moves the member, then deletes the old one. Where both cannot
// coexist, the old subnet goes first and is no obstacle: `replaceOnChanges` keeping the CIDR
// (the diff asks for it, plugin face), and `up --replace` of a subnet another team has tagged
// since (the engine asks the provider nothing there, so the program sets
// `deleteBeforeReplace`), from TypeScript and from YAML on the plugin face. Two subnets of the
// program that overlap fail the preview naming both, with no write; a new CIDR another team's
// subnet holds is still refused (both on the plugin face). The Subnet's lifecycle (create,
// update in place, a replacement with a null gateway, drift, deleted outside Pulumi, destroy)
// runs with every other kind's in tests/e2e/kinds/lifecycle.test.ts; a create task in ERROR (a plain failure,
// no advice) runs in process on both faces: tests/unit/provider/faults/subnet-create-orphans.test.ts.
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import {
  api,
  type Face,
  faceProject,
  loggedRequests,
  onFace,
  PLUGIN_PROJECT,
  requestLogFile,
  SEED,
  useStacks,
  writes,
} from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { subnetRecord } from "../../support/records";

const stacks = useStacks();

const replaced = [
  'import * as pulumi from "@pulumi/pulumi";',
  'import * as cims from "pulumi-cims";',
  "const c = new pulumi.Config();",
  `const networkId = "${SEED.networkId}";`,
  'const cidr = c.get("cidr") ?? "10.41.0.0/24";',
  // `up --replace` asks the provider nothing, so only the option can order it delete-first.
  'const deleteBeforeReplace = c.getBoolean("dbr") || undefined;',
  'const a = new cims.Subnet("a", { name: c.get("name") ?? "rep-a", cidr, networkId }, { replaceOnChanges: ["name"], deleteBeforeReplace });',
  'if (c.getBoolean("twins")) for (const [n, cidr] of [["b", "10.43.0.0/24"], ["c", "10.43.0.128/25"]]) new cims.Subnet(n, { name: `rep-${n}`, cidr, networkId });',
  "export const id = a.id;",
].join("\n");

test.each<Face>(["dynamic", "native"])(
  "%s face: replaceOnChanges on an in-place field (a replacement deleting the old subnet first on the plugin face, an update in place on the dynamic one); on the plugin face up --replace of a drifted subnet with deleteBeforeReplace deletes it first, and an overlap within the program or with another team's subnet fails the preview, with no write",
  async (face) => {
    const requestLog = requestLogFile() ?? path.join(os.tmpdir(), `pulumi-cims-subnet-replace-${process.pid}-${face}.jsonl`);
    const env = await stacks.stack({
      files: { "Pulumi.yaml": faceProject(`subnet-replace-${face}`, face), "index.ts": onFace(replaced, face) },
      emulator: { requestLog },
      config: { dbr: "true" },
    });
    const { stack } = env;
    const subnet = (id: unknown) => `/cloud/v1/subnets/1/1/${String(id)}`;
    /** The requests of `run`, and the ids the state held before and holds after. */
    const during = async (run: () => Promise<unknown>) => {
      const before = String((await stack.outputs()).id);
      const logged = (await loggedRequests(requestLog)).length;
      await run();
      return { before, after: String((await stack.outputs()).id), requests: (await loggedRequests(requestLog)).slice(logged) };
    };
    const deletedFirst = (r: { before: string; requests: string[] }) => {
      const deleted = r.requests.indexOf(`DELETE ${subnet(r.before)}`);
      expect(deleted).toBeGreaterThanOrEqual(0);
      expect(deleted).toBeLessThan(r.requests.indexOf("POST /cloud/v1/subnets/1/1"));
    };
    await stack.up();

    // --replace: the engine asks the provider nothing; the program's deleteBeforeReplace orders
    // it. A tag another team added since is no reason to refuse the subnet its own replacement.
    // On the plugin face alone: the order is the engine's, and what takes the old record for
    // the subnet's own is the check's (owned.ts twin()), the same call behind either face.
    if (face === "native") {
      const urn = ((await stack.exportState()).deployment.resources ?? []).find((r) => r.urn.endsWith("Subnet::a"))?.urn;
      const first = String((await stack.outputs()).id);
      expect((await api(env, "PATCH", subnet(first), { tags: { owner: "team-b" } })).status).toBe(200);
      const forced = await during(() => stack.up(["--replace", String(urn)]));
      expect(forced.after).not.toBe(forced.before);
      deletedFirst(forced);
      expect((await api(env, "GET", subnet(forced.after))).body).toMatchObject({ name: "rep-a", cidr: "10.41.0.0/24" });
    }

    // replaceOnChanges: an in-place field replaces, with the same CIDR, and with no option the
    // diff asks to delete first. Pulumi's Node.js dynamic-provider host does not pass on which
    // fields changed, so on the dynamic face the engine cannot match them and updates in place.
    await stack.setConfigs({ name: "rep-a2", dbr: "false" });
    const renamed = await during(() => stack.up());
    if (face === "native") {
      expect(renamed.after).not.toBe(renamed.before);
      deletedFirst(renamed);
    } else {
      expect(renamed.after).toBe(renamed.before);
    }
    expect((await api(env, "GET", subnet(renamed.after))).body.name).toBe("rep-a2");
    await stack.preview(["--expect-no-changes"]);

    // The overlaps below are check() failures, which the preview shows as it shows any (the
    // dynamic face's: tests/e2e/failures/bad-inputs.test.ts), decided by one provider process
    // remembering the run's subnets, alike on both faces (in process:
    // tests/unit/provider/kinds/subnet-recover.test.ts): they run on the cheaper face, as
    // does the destroy that leaves another team's subnet (the dynamic face's destroy of a
    // subnet: tests/e2e/kinds/lifecycle.test.ts).
    if (face === "dynamic") return;

    // Two new subnets of the program that overlap (each list shows neither): the preview names
    // both (in the order the engine checks them), and nothing is written.
    const theirs = subnetRecord({
      id: "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0c",
      name: "team-b",
      cidr: "10.42.0.0/24",
      gateway_ip: "10.42.0.1",
    });
    expect((await api(env, "POST", "/__emulator/seed", { subnets: [theirs] })).status).toBe(204);
    await stack.setConfig("twins", "true");
    env.emulator.metrics.reset();
    const twins = await stack.preview([], { allowFailure: true });
    expect(twins.code).not.toBe(0);
    const [b, c] = ['Subnet "rep-b" (10.43.0.0/24)', 'Subnet "rep-c" (10.43.0.128/25)'];
    const [later, earlier] = twins.stdout.includes(`cidr: ${c} and`) ? [c, b] : [b, c];
    expect(twins.stdout).toContain(
      `cidr: ${later} and ${earlier}, both of this program, clash on network ${SEED.networkId}: the service refuses overlapping subnets on one network`,
    );

    // A new CIDR another team's subnet holds: the replacement is refused, naming it.
    await stack.setConfigs({ twins: "false", cidr: "10.42.0.0/25" });
    const taken = await stack.preview([], { allowFailure: true });
    expect(taken.code).not.toBe(0);
    expect(taken.stdout).toContain(`cidr: 10.42.0.0/25 overlaps subnet "team-b" (${String(theirs.id)}, 10.42.0.0/24)`);
    expect(writes(env)).toEqual([]);

    await stack.destroy();
    expect(env.emulator.store.list("subnets").map((s) => s.name)).toEqual(["team-b"]);
  },
  E2E_TIMEOUT_MS,
);

/** A subnet `s` with a pool member on it, at the CIDR 10.<n>.0.0/24, in TypeScript (the dynamic face) or YAML (the plugin face). */
const withMember = (lang: "ts" | "yaml", n: number): string =>
  lang === "ts"
    ? [
        'import * as cims from "pulumi-cims";',
        `const s = new cims.Subnet("s", { name: "moving", cidr: "10.${n}.0.0/24", networkId: "${SEED.networkId}" });`,
        `new cims.LbPoolSettings("pool", { poolId: "${SEED.poolId}", members: [{ address: "10.${n}.0.10", protocolPort: 8080, subnetId: s.id }] });`,
        "export const id = s.id;",
      ].join("\n")
    : `${PLUGIN_PROJECT("subnet-move-yaml", "yaml")}resources:
  s:
    type: cims:index:Subnet
    properties: { name: moving, cidr: 10.${n}.0.0/24, networkId: ${SEED.networkId} }
  pool:
    type: cims:index:LbPoolSettings
    properties:
      poolId: ${SEED.poolId}
      members:
        - address: 10.${n}.0.10
          protocolPort: 8080
          subnetId: \${s.id}
  t:
    type: cims:index:Subnet
    properties: { name: alone, cidr: 10.63.0.0/24, networkId: ${SEED.networkId} }
    options: { deleteBeforeReplace: true }
outputs:
  id: \${s.id}
  t: \${t.id}
`;

test.each<"ts" | "yaml">(["ts", "yaml"])(
  "%s: a new CIDR for a subnet a pool member uses creates the new subnet, moves the member, then deletes the old one; YAML's up --replace of a drifted subnet replaces it",
  async (lang) => {
    const requestLog = requestLogFile() ?? path.join(os.tmpdir(), `pulumi-cims-subnet-move-${process.pid}-${lang}.jsonl`);
    const files: Record<string, string> =
      lang === "ts"
        ? { "Pulumi.yaml": faceProject("subnet-move-ts", "dynamic"), "index.ts": withMember("ts", 61) }
        : { "Pulumi.yaml": withMember("yaml", 61) };
    const env = await stacks.stack({ files, emulator: { requestLog } });
    const { stack } = env;
    await stack.up();
    const before = await stack.outputs();
    const subnet = (id: unknown) => `/cloud/v1/subnets/1/1/${String(id)}`;
    if (lang === "yaml") expect((await api(env, "PATCH", subnet(before.t), { tags: { owner: "team-b" } })).status).toBe(200);

    const [file, program] = lang === "ts" ? ["index.ts", withMember("ts", 62)] : ["Pulumi.yaml", withMember("yaml", 62)];
    await fs.writeFile(path.join(stack.projectDir, file), program);
    const logged = (await loggedRequests(requestLog)).length;
    // The YAML stack's second subnet, alone, is replaced in the same run: one engine command less.
    await stack.up(lang === "yaml" ? ["--replace", `urn:pulumi:${stack.name}::subnet-move-yaml::cims:index:Subnet::t`] : []);
    const requests = (await loggedRequests(requestLog)).slice(logged);
    const after = await stack.outputs();

    expect(after.id).not.toBe(before.id);
    expect(env.emulator.store.get("subnets", String(before.id))).toBeUndefined();
    expect(env.emulator.store.get("subnets", String(after.id))).toMatchObject({ cidr: "10.62.0.0/24" });
    const members = (env.emulator.store.get("lbpools", SEED.poolId)?.members ?? []) as Array<Record<string, unknown>>;
    expect(members.filter((m) => /^10\.6[12]\./.test(String(m.address)))).toEqual([
      expect.objectContaining({ address: "10.62.0.10", subnet_id: after.id }),
    ]);
    // Created first, the old one deleted last, once nothing used it: one DELETE, not refused.
    const created = requests.indexOf("POST /cloud/v1/subnets/1/1");
    expect(created).toBeGreaterThanOrEqual(0);
    expect(requests.filter((r) => r === `DELETE ${subnet(before.id)}`)).toHaveLength(1);
    expect(requests.indexOf(`DELETE ${subnet(before.id)}`)).toBeGreaterThan(created);
    if (lang === "yaml") {
      expect(after.t).not.toBe(before.t);
      expect(env.emulator.store.get("subnets", String(before.t))).toBeUndefined();
      expect(env.emulator.store.get("subnets", String(after.t))).toMatchObject({ name: "alone", cidr: "10.63.0.0/24" });
    }
  },
  E2E_TIMEOUT_MS,
);

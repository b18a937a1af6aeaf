// Subnet replacements under the real engine, on both faces: `up --replace` and
// `replaceOnChanges` (plugin face) keep the CIDR, so the old subnet goes first and is no
// obstacle; two subnets of the program that overlap fail the preview naming both, with no
// write; a new CIDR another team's subnet holds is still refused. The Subnet's lifecycle
// (create, update in place, a replacement with a null gateway, drift, deleted outside
// Pulumi, destroy) runs with every other kind's in tests/e2e/kinds/lifecycle.test.ts; a
// create task in ERROR (a plain failure, no advice) runs in process on both faces:
// tests/unit/provider/faults/subnet-create-orphans.test.ts.
import * as os from "node:os";
import * as path from "node:path";
import { api, type Face, faceProject, loggedRequests, onFace, requestLogFile, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { subnetRecord } from "../../support/records";

const stacks = useStacks();

const replaced = [
  'import * as pulumi from "@pulumi/pulumi";',
  'import * as cims from "pulumi-cims";',
  "const c = new pulumi.Config();",
  `const networkId = "${SEED.networkId}";`,
  'const cidr = c.get("cidr") ?? "10.41.0.0/24";',
  'const a = new cims.Subnet("a", { name: c.get("name") ?? "rep-a", cidr, networkId }, { replaceOnChanges: ["name"] });',
  'if (c.getBoolean("twins")) for (const [n, cidr] of [["b", "10.43.0.0/24"], ["c", "10.43.0.128/25"]]) new cims.Subnet(n, { name: `rep-${n}`, cidr, networkId });',
  "export const id = a.id;",
].join("\n");

test.each<Face>(["dynamic", "native"])(
  "%s face: up --replace and replaceOnChanges delete the old subnet first; an overlap within the program or with another team's subnet fails the preview, with no write",
  async (face) => {
    const requestLog = requestLogFile() ?? path.join(os.tmpdir(), `pulumi-cims-subnet-replace-${process.pid}-${face}.jsonl`);
    const env = await stacks.stack({
      files: { "Pulumi.yaml": faceProject(`subnet-replace-${face}`, face), "index.ts": onFace(replaced, face) },
      emulator: { requestLog },
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

    // --replace: the engine asks the provider nothing; the class's deleteBeforeReplace orders it.
    const urn = ((await stack.exportState()).deployment.resources ?? []).find((r) => r.urn.endsWith("Subnet::a"))?.urn;
    const forced = await during(() => stack.up(["--replace", String(urn)]));
    expect(forced.after).not.toBe(forced.before);
    deletedFirst(forced);
    expect((await api(env, "GET", subnet(forced.after))).body).toMatchObject({ name: "rep-a", cidr: "10.41.0.0/24" });

    // replaceOnChanges: an in-place field replaces, with the same CIDR. Pulumi's Node.js
    // dynamic-provider host does not pass on which fields changed, so on the dynamic face the
    // engine cannot match them and updates in place.
    await stack.setConfig("name", "rep-a2");
    const renamed = await during(() => stack.up());
    if (face === "native") {
      expect(renamed.after).not.toBe(renamed.before);
      deletedFirst(renamed);
    } else {
      expect(renamed.after).toBe(renamed.before);
    }
    expect((await api(env, "GET", subnet(renamed.after))).body.name).toBe("rep-a2");
    await stack.preview(["--expect-no-changes"]);

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

// examples/self-service, the Automation API script, run as a platform team would run it
// against the emulator: a team's first run creates its stack, subnet and pool member; a second
// run changes nothing; `--destroy` removes them and the stack. Automation API finds `pulumi`
// on PATH: here a one-line `pulumi` that runs scripts/pulumi (the pinned CLI it builds).
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, PULUMI, REPO_ROOT, runCommand } from "../../support/harness";

const stacks = useStacks();
const TEAM = "payments";
const CIDR = "10.60.1.0/24";
const MEMBERS = `/cloud/v1/loadbalancers/1/1/pools/${SEED.poolId}/members`;

/** The `name: value` lines the script prints. */
const printed = (stdout: string) => Object.fromEntries([...stdout.matchAll(/^(\w+): (.*)$/gm)].map((m) => [m[1], m[2]]));

test(
  "self-service: a team's stack is created, a rerun changes nothing, --destroy removes it",
  async () => {
    const env = await stacks.stack({
      programDir: path.join(REPO_ROOT, "examples/self-service"),
      // createOrSelectStack writes this file itself; the harness needs it to make its own stack.
      files: { "Pulumi.yaml": "name: cims-self-service\nruntime: nodejs\n" },
    });
    const projectDir = env.stack.projectDir;
    const binDir = path.join(env.stack.root, "bin");
    await fs.mkdir(binDir);
    await fs.writeFile(path.join(binDir, "pulumi"), `#!/bin/sh\nexec "${PULUMI}" "$@"\n`, { mode: 0o755 });
    const scriptEnv = {
      ...env.stack.env,
      PATH: `${binDir}:${process.env.PATH ?? ""}`,
      CIMS_API_URL: env.emulator.url,
      CIMS_API_KEY: env.apiKey,
      CIMS_PROJECT_ID: "1",
      CIMS_REGION_ID: "1",
      CIMS_NETWORK_ID: SEED.networkId,
      CIMS_POOL_ID: SEED.poolId,
      // The example's type-check is the tarball test's (with two compilers); here it only runs.
      TS_NODE_TRANSPILE_ONLY: "true",
    };
    const selfService = async (...args: string[]) => {
      const res = await runCommand(path.join(projectDir, "node_modules/.bin/ts-node"), ["index.ts", ...args], scriptEnv, {
        cwd: projectDir,
      });
      return printed(res.stdout);
    };

    const first = await selfService("--team", TEAM, "--cidr", CIDR);
    expect(JSON.parse(first.changes)).toEqual({ create: 3 });
    const subnet = (await api(env, "GET", `/cloud/v1/subnets/1/1/${first.subnetId}`)).body;
    expect(subnet).toMatchObject({
      cidr: CIDR,
      name: `${TEAM}-subnet`,
      tags: expect.arrayContaining([{ key: "team", value: TEAM, read_only: false }]),
    });
    const member = (await api(env, "GET", `${MEMBERS}/${first.memberId}`)).body;
    expect(member).toMatchObject({ address: "10.60.1.10", protocol_port: 8080, subnet_id: first.subnetId });
    // The key the script set is a secret in the stack's config, not plain text.
    expect(await fs.readFile(path.join(projectDir, `Pulumi.${TEAM}.yaml`), "utf8")).not.toContain(env.apiKey);

    const second = await selfService("--team", TEAM, "--cidr", CIDR);
    expect(JSON.parse(second.changes)).toEqual({ same: 3 });
    expect({ subnetId: second.subnetId, memberId: second.memberId }).toEqual({ subnetId: first.subnetId, memberId: first.memberId });
    expect(env.emulator.store.list("subnets")).toHaveLength(1);

    const destroyed = await selfService("--team", TEAM, "--destroy");
    expect(JSON.parse(destroyed.destroyed)).toEqual({ delete: 3 });
    expect(env.emulator.store.list("subnets")).toHaveLength(0);
    const members = (await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body.members as Array<{ id: string }>;
    expect(members.map((m) => m.id)).toEqual([SEED.keptMemberId]);
    const left = await runCommand(PULUMI, ["stack", "ls", "--json"], env.stack.env, { cwd: projectDir });
    expect((JSON.parse(left.stdout) as Array<{ name: string }>).map((s) => s.name)).not.toContain(TEAM);
  },
  E2E_TIMEOUT_MS,
);

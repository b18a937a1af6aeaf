// A rotated API key, on both faces: the account issues a new key and revokes the old one (the
// emulator accepts the new one only), and the stack config gets the new key. `pulumi refresh`
// and `pulumi destroy` run the provider with the configuration the state recorded at the last
// `up`, so both fail on the old key, naming cims:apiKey and writing nothing; with
// `--run-program` they run the program and take the new key: the refresh writes nothing, the
// destroy deletes the stack's subnet and nothing else. A stack config with an `environment:`
// block (Pulumi ESC) is refused by the local file backend before anything runs, which
// docs/platform.md quotes.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { type Face, faceProject, onFace, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

const PROGRAM = `import * as cims from "pulumi-cims";
new cims.Subnet("net", { name: "rotated", cidr: "10.171.0.0/24", networkId: "${SEED.networkId}" });
`;

const NEW_KEY = "e2e-rotated-key-5c0e1a9b";

test.each<Face>(["dynamic", "native"])(
  "on the %s face, after a key rotation refresh and destroy need --run-program, and then write only what they must",
  async (face) => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": faceProject(`rotated-${face}`, face), "index.ts": onFace(PROGRAM, face) } });
    await env.stack.up();

    env.emulator.apiKeys.add(NEW_KEY);
    await env.stack.setConfigs({}, { "cims:apiKey": NEW_KEY });
    env.emulator.apiKeys.delete(env.apiKey);
    env.emulator.metrics.reset();

    // One after the other: each takes the stack's lock.
    for (const command of ["refresh", "destroy"] as const) {
      const stale = await env.stack[command]([], { allowFailure: true });
      expect(stale.code).not.toBe(0);
      expect(`${stale.stdout}\n${stale.stderr}`).toContain("cims:apiKey");
      expect(`${stale.stdout}\n${stale.stderr}`).not.toContain(NEW_KEY);
    }
    expect(writes(env)).toEqual([]);

    await env.stack.refresh(["--run-program"]);
    expect(writes(env)).toEqual([]);
    await env.stack.destroy(["--run-program"]);
    expect(writes(env)).toEqual(["DELETE /cloud/v1/subnets/:project_id/:region_id/:subnet_id 200 x1"]);
    expect(env.emulator.store.list("subnets").filter((s) => s.name === "rotated")).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "a stack config naming a Pulumi ESC environment is refused by a backend with no ESC, before the program runs",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": faceProject("esc", "dynamic"), "index.ts": PROGRAM } });
    const config = path.join(env.stack.projectDir, `Pulumi.${env.stack.name}.yaml`);
    await fs.appendFile(config, "environment:\n  - cims/prod\n");
    const preview = await env.stack.preview([], { allowFailure: true });
    expect(preview.code).not.toBe(0);
    // The file backend names itself after the machine (its host name).
    expect(`${preview.stdout}\n${preview.stderr}`).toMatch(
      /error: getting stack configuration: opening environment: backend \S+ does not support environments/,
    );
    expect(writes(env)).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

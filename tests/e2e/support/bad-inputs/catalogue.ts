// The bad-input catalogue: each case is one resource with one invalid input. Each must fail
// naming the camelCase property and the rule, with zero requests reaching the emulator:
// every case in the provider's Check (through-check.ts), a sample at `pulumi preview`
// (catalogue() here). Programs are transpiled only, so wrong JSON types reach check()
// exactly as they would from a JavaScript program or a typo'd config value.
import * as fs from "node:fs/promises";
import { type CimsTestEnv, type Face, faceProject, onFace, SEED, useStacks } from "../../../support/cims";
import { E2E_TIMEOUT_MS } from "../../../support/harness";
import type { Kind } from "../../../../provider/kinds/registry";

export interface BadCase {
  /** What is wrong, for the test name. */
  what: string;
  /** Resource class in pulumi-cims. */
  resource: Kind;
  /** The args object, as TypeScript source. */
  args: string;
  property: string;
  rule: RegExp;
}

export const VALID = {
  subnet: `{ name: "s", cidr: "10.0.0.0/24", networkId: "${SEED.networkId}" }`,
  image: `{ name: "i", volumeId: "${SEED.volumeId}" }`,
  pool: `{ poolId: "${SEED.poolId}" }`,
  policy: `{ policyId: 101 }`,
  quota: `{ clientId: 1, threshold: 80 }`,
  member: `{ poolId: "${SEED.poolId}", address: "10.0.0.50", protocolPort: 80, subnetId: "${SEED.networkId}" }`,
  snapshots: `{ name: "nightly", schedules: [{ type: "interval", hours: 6, maxQuantity: 4 }] }`,
  policyVolume: `{ policyId: 101, volumeId: "${SEED.appVolumeId}" }`,
};

/** A valid args object with one field replaced: with("subnet", "cidr", '"10.0.0.1/24"'). */
export function withField(base: keyof typeof VALID, field: string, value: string): string {
  return VALID[base].replace(/ \}$/, `, ${field}: ${value} }`);
}

/** The catalogue on a face: the plugin's Check must say what the dynamic face's check says. */
export function catalogue(title: string, cases: BadCase[], face: Face = "dynamic"): void {
  const program = (resource: string, args: string): string =>
    onFace(`// @ts-nocheck\nimport * as cims from "pulumi-cims";\nnew cims.${resource}("r", ${args});\n`, face);
  describe(title, () => {
    const stacks = useStacks("all");
    let env: CimsTestEnv;
    beforeAll(async () => {
      env = await stacks.stack({
        files: { "Pulumi.yaml": faceProject("bad-inputs", face), "index.ts": program("Subnet", VALID.subnet) },
        env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
      });
    }, E2E_TIMEOUT_MS);

    test.each(cases.map((c) => [c.what, c] as const))(
      "%s",
      async (_what, c) => {
        await fs.writeFile(`${env.stack.projectDir}/index.ts`, program(c.resource, c.args));
        env.emulator.metrics.reset();
        const res = await env.stack.preview([], { allowFailure: true });
        expect(res.code).not.toBe(0);
        const problem = new RegExp(`has a problem: ${c.property.replace(/[[\].]/g, "\\$&")}[: ].*`);
        const line = problem.exec(res.stdout)?.[0];
        expect(line).toBeDefined();
        expect(line).toMatch(c.rule);
        expect(env.emulator.metrics.snapshot().total_requests).toBe(0);
      },
      E2E_TIMEOUT_MS,
    );
  });
}

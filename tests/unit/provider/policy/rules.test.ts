// The policy pack's rules, called as the engine's policy runtime calls them: each on both
// faces' type tokens, with its config's defaults or a team's values. (tests/e2e/tools/policy-pack.test.ts
// runs the pack through the real engine.)
import * as fs from "node:fs";
import * as path from "node:path";
import type { ResourceValidationArgs, ResourceValidationPolicy, StackValidationArgs } from "@pulumi/policy";
import {
  baremetalImageUefi,
  DEFAULT_ALLOWED_CIDRS,
  DEFAULT_MINIMUM_THRESHOLD,
  kindOf,
  lbPoolKeepsUndeclaredMembers,
  quotaThresholdMinimum,
  requiredTags,
  subnetCidrAllowed,
} from "../../../../provider/policy/rules";
import { REPO_ROOT } from "../../../support/harness";

const FACES = ["pulumi-nodejs:dynamic/cims", "cims:index"];

/** The violations a resource policy reports for these props on a face, with this config. */
function violations(
  policy: ResourceValidationPolicy,
  face: string,
  kind: string,
  props: Record<string, unknown>,
  config: object,
): string[] {
  const found: string[] = [];
  const args = { type: `${face}:${kind}`, name: "r1", urn: `urn:pulumi:s::p::${face}:${kind}::r1`, props, getConfig: () => config };
  void (policy.validateResource as (a: ResourceValidationArgs, r: (m: string) => void) => void)(
    args as unknown as ResourceValidationArgs,
    (m) => found.push(m),
  );
  return found;
}

describe.each(FACES)("on %s", (face) => {
  // The dynamic face's inputs carry its provider; no rule may trip over it.
  const extra = face.startsWith("pulumi-nodejs") ? { __provider: "serialized" } : {};

  test("a Subnet's cidr must lie inside an allowed range; the defaults are the private ranges", () => {
    const defaults = { allowedCidrs: DEFAULT_ALLOWED_CIDRS };
    expect(violations(subnetCidrAllowed, face, "Subnet", { ...extra, cidr: "10.1.2.0/24" }, defaults)).toEqual([]);
    expect(violations(subnetCidrAllowed, face, "Subnet", { ...extra, cidr: "fd00:1::/64" }, defaults)).toEqual([]);
    expect(violations(subnetCidrAllowed, face, "Subnet", { ...extra, cidr: "8.8.8.0/24" }, defaults)).toEqual([
      expect.stringContaining('cims-subnet-cidr-allowed: Subnet "r1" has cidr 8.8.8.0/24, outside every allowed range'),
    ]);
    // A range only partly inside is outside; an unknown cidr is judged once known.
    expect(violations(subnetCidrAllowed, face, "Subnet", { cidr: "10.0.0.0/7" }, defaults)).toHaveLength(1);
    expect(violations(subnetCidrAllowed, face, "Subnet", { ...extra }, defaults)).toEqual([]);
    // Other kinds, and other providers' subnets, are not this policy's.
    expect(violations(subnetCidrAllowed, face, "BaremetalImage", { cidr: "8.8.8.0/24" }, defaults)).toEqual([]);
  });

  test("Subnets and BaremetalImages carry every required tag key", () => {
    const config = { requiredTagKeys: ["owner", "cost-center"] };
    expect(violations(requiredTags, face, "Subnet", { ...extra, tags: { owner: "a", "cost-center": "b" } }, config)).toEqual([]);
    expect(violations(requiredTags, face, "BaremetalImage", { ...extra, tags: { owner: "a" } }, config)).toEqual([
      expect.stringContaining('cims-required-tags: BaremetalImage "r1" lacks tag key(s) cost-center in tags'),
    ]);
    expect(violations(requiredTags, face, "Subnet", { ...extra }, config)).toEqual([expect.stringContaining("owner, cost-center")]);
    expect(violations(requiredTags, face, "Subnet", { ...extra }, { requiredTagKeys: [] })).toEqual([]);
    expect(violations(requiredTags, face, "QuotaThreshold", {}, config)).toEqual([]);
  });

  test("a QuotaThreshold's threshold is at least the minimum", () => {
    const config = { minimumThreshold: DEFAULT_MINIMUM_THRESHOLD };
    expect(violations(quotaThresholdMinimum, face, "QuotaThreshold", { ...extra, threshold: 80 }, config)).toEqual([]);
    expect(violations(quotaThresholdMinimum, face, "QuotaThreshold", { ...extra, threshold: 70 }, config)).toEqual([
      expect.stringContaining('cims-quota-threshold-minimum: QuotaThreshold "r1" sets threshold 70, below the minimum of 80 percent'),
    ]);
  });

  test("a BaremetalImage without UEFI firmware is reported, as advisory by default", () => {
    expect(baremetalImageUefi.enforcementLevel).toBe("advisory");
    expect(violations(baremetalImageUefi, face, "BaremetalImage", { ...extra, hwFirmwareType: "uefi" }, {})).toEqual([]);
    expect(violations(baremetalImageUefi, face, "BaremetalImage", { ...extra, hwFirmwareType: "bios" }, {})).toEqual([
      expect.stringContaining('cims-baremetal-image-uefi: BaremetalImage "r1" has hwFirmwareType bios, not uefi'),
    ]);
  });

  test("an exclusive LbPoolSettings whose recorded pool holds a member it does not declare is a violation; a declared one writes only its own", () => {
    const pool = (members: object[], declaredMembers?: string[], membersOwnership?: string) => ({
      type: `${face}:LbPoolSettings`,
      name: "pool",
      urn: `urn:${face}:pool`,
      props: { ...extra, members, ...(declaredMembers ? { declaredMembers } : {}), ...(membersOwnership ? { membersOwnership } : {}) },
    });
    const found: Array<[string, string | undefined]> = [];
    const check = (resources: object[]) => {
      found.length = 0;
      void lbPoolKeepsUndeclaredMembers.validateStack({ resources } as unknown as StackValidationArgs, (m, urn) => found.push([m, urn]));
      return found;
    };
    const ours = { address: "10.0.0.10", protocolPort: 80 };
    const theirs = { address: "10.0.0.11", protocolPort: 8080 };
    expect(check([pool([ours], ["10.0.0.10:80"], "exclusive")])).toEqual([]);
    const violation = [
      expect.stringContaining('LbPoolSettings "pool" owns the pool\'s members exclusively, and the pool holds 10.0.0.11:8080'),
      `urn:${face}:pool`,
    ];
    expect(check([pool([ours, theirs], ["10.0.0.10:80"], "exclusive")])).toEqual([violation]);
    // Nothing declared recorded (an import of an earlier version): judged as declaring none, not skipped.
    expect(check([pool([theirs], undefined, "exclusive")])).toEqual([violation]);
    // The default ownership never writes a member it does not declare.
    expect(check([pool([ours, theirs], ["10.0.0.10:80"])])).toEqual([]);
  });
});

test("kindOf knows only this package's two faces", () => {
  expect(kindOf("pulumi-nodejs:dynamic/cims:Subnet")).toBe("Subnet");
  expect(kindOf("cims:index:LbPoolSettings")).toBe("LbPoolSettings");
  expect(kindOf("pulumi-nodejs:dynamic:Resource")).toBeUndefined();
  expect(kindOf("gcore:index:Subnet")).toBeUndefined();
});

test("the policy pack's version is the package's", () => {
  const read = (p: string) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, p), "utf8")) as { version: string };
  expect(read("policy/package.json").version).toBe(read("package.json").version);
});

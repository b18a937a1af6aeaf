// The policies of the `cims` policy pack (index.ts runs them; docs/policy.md is their user's
// guide). Each matches both faces' type tokens, so one pack serves TypeScript programs (the
// dynamic face) and YAML or other-language programs (the plugin face) alike.
import type {
  PolicyConfigSchema,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import { memberKey } from "../../api/members";
import { parseCidr } from "../../api/net";

/** The kind behind either face's token: `pulumi-nodejs:dynamic/cims:Subnet` or `cims:index:Subnet`. */
export function kindOf(type: string): string | undefined {
  const match = /^(?:pulumi-nodejs:dynamic\/cims|cims:index):([A-Za-z]+)$/.exec(type);
  return match?.[1];
}

/** Private networks (RFC 1918 and IPv6 unique local): where a subnet may go unless configured otherwise. */
export const DEFAULT_ALLOWED_CIDRS = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"];
export const DEFAULT_MINIMUM_THRESHOLD = 80;

/** How a violation names its resource: kind and the program's name for it. */
const named = (args: { type: string; name: string }) => `${kindOf(args.type) ?? args.type} "${args.name}"`;

/** One resource policy for these kinds, on either face. */
function forKinds(
  kinds: readonly string[],
  policy: Omit<ResourceValidationPolicy, "validateResource">,
  validate: (args: ResourceValidationArgs, report: ReportViolation) => void,
): ResourceValidationPolicy {
  return {
    ...policy,
    validateResource: (args, report) => {
      const kind = kindOf(args.type);
      if (kind !== undefined && kinds.includes(kind)) validate(args, report);
    },
  };
}

const stringList = (description: string, fallback: string[]): PolicyConfigSchema["properties"][string] => ({
  type: "array",
  items: { type: "string" },
  default: fallback,
  description,
});

export const subnetCidrAllowed = forKinds(
  ["Subnet"],
  {
    name: "cims-subnet-cidr-allowed",
    description: "A Subnet's cidr lies inside one of the allowed ranges (allowedCidrs).",
    enforcementLevel: "mandatory",
    configSchema: {
      properties: {
        allowedCidrs: stringList("Networks in CIDR form a Subnet's cidr must lie inside.", DEFAULT_ALLOWED_CIDRS),
      },
    },
  },
  (args, report) => {
    const cidr = args.props.cidr;
    const net = parseCidr(cidr);
    // Unknown until apply (or malformed, which the resource's own check refuses): nothing to judge yet.
    if (net === undefined) return;
    const { allowedCidrs } = args.getConfig<{ allowedCidrs: string[] }>();
    const inside = allowedCidrs.some((range) => {
      const allowed = parseCidr(range);
      return allowed !== undefined && allowed.version === net.version && allowed.first <= net.first && net.last <= allowed.last;
    });
    if (!inside) {
      report(
        `cims-subnet-cidr-allowed: ${named(args)} has cidr ${String(cidr)}, outside every allowed range (${allowedCidrs.join(", ") || "none"}). ` +
          "Pick a cidr inside one of them, or add its range to allowedCidrs in the policy pack's config.",
      );
    }
  },
);

export const requiredTags = forKinds(
  ["Subnet", "BaremetalImage"],
  {
    name: "cims-required-tags",
    description: "Subnets and BaremetalImages carry every tag key listed in requiredTagKeys.",
    enforcementLevel: "mandatory",
    configSchema: {
      properties: { requiredTagKeys: stringList("Tag keys every Subnet and BaremetalImage must set in `tags`.", []) },
    },
  },
  (args, report) => {
    const { requiredTagKeys } = args.getConfig<{ requiredTagKeys: string[] }>();
    const tags: unknown = args.props.tags;
    // Tags known only at apply: judged then, at `up`.
    if (tags !== undefined && (tags === null || typeof tags !== "object")) return;
    const missing = requiredTagKeys.filter((key) => tags === undefined || !(key in tags));
    if (missing.length > 0) {
      report(
        `cims-required-tags: ${named(args)} lacks tag key(s) ${missing.join(", ")} in tags, which requiredTagKeys asks of every ` +
          `${kindOf(args.type)}. Add ${missing.length === 1 ? "it" : "them"} to the resource's tags.`,
      );
    }
  },
);

export const quotaThresholdMinimum = forKinds(
  ["QuotaThreshold"],
  {
    name: "cims-quota-threshold-minimum",
    description: "A QuotaThreshold's threshold is at least minimumThreshold percent.",
    enforcementLevel: "mandatory",
    configSchema: {
      properties: {
        minimumThreshold: {
          type: "integer",
          minimum: 0,
          maximum: 100,
          default: DEFAULT_MINIMUM_THRESHOLD,
          description: "The lowest notification threshold, percent, a QuotaThreshold may set.",
        },
      },
    },
  },
  (args, report) => {
    const { minimumThreshold } = args.getConfig<{ minimumThreshold: number }>();
    const threshold: unknown = args.props.threshold;
    if (typeof threshold === "number" && threshold < minimumThreshold) {
      report(
        `cims-quota-threshold-minimum: ${named(args)} sets threshold ${threshold}, below the minimum of ${minimumThreshold} percent. ` +
          `Set threshold to ${minimumThreshold} or more, or lower minimumThreshold in the policy pack's config.`,
      );
    }
  },
);

export const baremetalImageUefi = forKinds(
  ["BaremetalImage"],
  {
    name: "cims-baremetal-image-uefi",
    description: "A BaremetalImage boots with UEFI firmware (hwFirmwareType: uefi).",
    enforcementLevel: "advisory",
  },
  (args, report) => {
    const firmware: unknown = args.props.hwFirmwareType;
    if (firmware !== "uefi") {
      report(
        `cims-baremetal-image-uefi: ${named(args)} has hwFirmwareType ${firmware == null ? "unset" : String(firmware)}, not uefi. ` +
          'Set hwFirmwareType: "uefi" for images that boot with UEFI.',
      );
    }
  },
);

/**
 * An LbPoolSettings with `membersOwnership: "exclusive"` removes, at its next change of
 * members, every pool member it does not declare. The stack's state holds both sides:
 * `members` (the pool's members as the last create, update or refresh read them) and
 * `declaredMembers` (what the program declared; none recorded: it declares none, as an import
 * of an earlier version recorded). With the default ownership (`declared`) only the stack's
 * own members are written, so the others are not at risk.
 */
export const lbPoolKeepsUndeclaredMembers: StackValidationPolicy = {
  name: "cims-lb-pool-keeps-undeclared-members",
  description: 'An LbPoolSettings with membersOwnership "exclusive" holds no pool member it does not declare (it would remove it).',
  enforcementLevel: "mandatory",
  validateStack: (args: StackValidationArgs, report: ReportViolation) => {
    for (const resource of args.resources) {
      if (kindOf(resource.type) !== "LbPoolSettings") continue;
      const { members, declaredMembers, membersOwnership } = resource.props;
      if (membersOwnership !== "exclusive" || !Array.isArray(members)) continue;
      const declared = new Set(Array.isArray(declaredMembers) ? declaredMembers.map(String) : []);
      const undeclared = members
        .filter((m): m is Record<string, unknown> => m !== null && typeof m === "object")
        .map((m) => memberKey(m.address, m.protocolPort))
        .filter((key) => !declared.has(key));
      if (undeclared.length > 0) {
        report(
          `cims-lb-pool-keeps-undeclared-members: ${named(resource)} owns the pool's members exclusively, and the pool holds ` +
            `${undeclared.join(", ")}, which it does not declare: its next change of members removes them. ` +
            'Add them to members, or set membersOwnership: "declared" to manage only the members it lists.',
          resource.urn,
        );
      }
    }
  },
};

export const policies = [subnetCidrAllowed, requiredTags, quotaThresholdMinimum, baremetalImageUefi, lbPoolKeepsUndeclaredMembers];

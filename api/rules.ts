// Rules across the fields of one object, written once over camelCase field names. Each
// side reads its own values (`get`) and says field names its own way (`name`); issues name
// the field they are about. A rule reports only when the fields it involves are well-formed
// (their own rules report the rest), so an unknown value during preview is never judged.
import type { RuleName } from "./contract/types";
import { CRON_FIELDS, cronIssue, isTimeZone } from "./cron";
import { canonicalIp, contains, firstHost, isIpAddress, parseCidr, reservedAddresses } from "./net";

export interface RuleIssue {
  /** camelCase field of the object the rule ran on. */
  field: string;
  message: string;
}

export type Get = (field: string) => unknown;
export type Name = (field: string) => string;

/**
 * A gateway must be a host of the subnet: inside its CIDR, and (IPv4) neither its network nor
 * its broadcast address, which the service's network layer refuses.
 */
export function gatewayIssue(cidr: string, gateway: string, name: Name): string | undefined {
  if (!contains(cidr, gateway)) return `must be inside ${name("cidr")} ${cidr}`;
  const reserved = reservedAddresses(cidr);
  const ip = canonicalIp(gateway);
  if (reserved && (ip === reserved.network || ip === reserved.broadcast)) {
    const which = ip === reserved.network ? "network" : "broadcast";
    return `must not be the ${which} address of ${name("cidr")} ${cidr} (${ip}), which no host may hold: give a host address, like ${firstHost(cidr)}`;
  }
  return undefined;
}

/** A cron schedule's fields against the forms the vendor documents (./cron.ts), and its time zone against the IANA list. */
function cronIssues(get: Get, name: Name): RuleIssue[] {
  const issues: RuleIssue[] = [];
  for (const field of Object.keys(CRON_FIELDS)) {
    const value = get(field);
    const issue = typeof value === "string" ? cronIssue(field, value) : undefined;
    if (issue) issues.push({ field, message: issue });
  }
  const zone = get("timezone");
  if (typeof zone === "string" && !isTimeZone(zone)) {
    issues.push({
      field: "timezone",
      message: `must be an IANA time zone, as pytz names them (\`Europe/Luxembourg\`, \`UTC\`): ${JSON.stringify(zone)} is none; omit ${name("timezone")} for UTC`,
    });
  }
  return issues;
}

export const RULES: Record<RuleName, (get: Get, name: Name) => RuleIssue[]> = {
  subnet(get, name) {
    const issues: RuleIssue[] = [];
    const cidr = get("cidr");
    const net = parseCidr(cidr);
    const gateway = get("gatewayIp");
    const gatewayVersion = isIpAddress(gateway);
    if (net && gatewayVersion && gatewayVersion !== net.version) {
      issues.push({ field: "gatewayIp", message: `must be an IPv${net.version} address, like ${name("cidr")}` });
    } else if (net && gatewayVersion && typeof cidr === "string" && typeof gateway === "string") {
      const issue = gatewayIssue(cidr, gateway, name);
      if (issue) issues.push({ field: "gatewayIp", message: issue });
    }
    const version = get("ipVersion");
    if (net && (version === 4 || version === 6) && version !== net.version) {
      issues.push({ field: "ipVersion", message: `must match ${name("cidr")} ${String(cidr)} (IPv${net.version})` });
    }
    if (gateway === null && get("connectToNetworkRouter") !== false) {
      issues.push({
        field: "connectToNetworkRouter",
        message: `must be false when ${name("gatewayIp")} is null (no gateway, so no router connection)`,
      });
    }
    if (typeof get("routerIdToConnect") === "string" && get("connectToNetworkRouter") === false) {
      issues.push({ field: "routerIdToConnect", message: `requires ${name("connectToNetworkRouter")} to be true` });
    }
    return issues;
  },
  /**
   * A pool member is reached through the subnet its address is in, or on the instance it
   * runs on, or (neither) over the public network: the service takes at most one of them.
   */
  memberTarget(get, name) {
    const given = ["subnetId", "instanceId"].filter((f) => get(f) !== undefined && get(f) !== null);
    if (given.length < 2) return [];
    return [
      {
        field: "instanceId",
        message: `must not be given with ${name("subnetId")}: give one of them (the subnet the member's address is in, or the instance it runs on), or neither for a member reached over the public network`,
      },
    ];
  },
  /**
   * A snapshot schedule is a cron one or an interval one: the service refuses the other kind's
   * fields, and an interval of nothing would snapshot without pause.
   */
  schedule(get, name) {
    const type = get("type");
    if (type !== "cron" && type !== "interval") return [];
    const cron = ["minute", "hour", "day", "dayOfWeek", "week", "month", "timezone"];
    const interval = ["weeks", "days", "hours", "minutes"];
    const other = type === "cron" ? interval : cron;
    const issues: RuleIssue[] = other
      .filter((f) => get(f) !== undefined && get(f) !== null)
      .map((f) => ({
        field: f,
        message: `is for ${type === "cron" ? "interval" : "cron"} schedules: remove it, or make ${name("type")} ${type === "cron" ? "interval" : "cron"}`,
      }));
    if (type === "cron") issues.push(...cronIssues(get, name));
    const every = interval.map(get);
    if (
      type === "interval" &&
      every.every((v) => v === undefined || typeof v === "number") &&
      !every.some((v) => typeof v === "number" && v > 0)
    ) {
      issues.push({ field: "type", message: `an interval schedule needs one of ${interval.map(name).join(", ")} above 0` });
    }
    return issues;
  },
  /** A route through a next hop of the other IP version cannot be installed. */
  route(get, name) {
    const net = parseCidr(get("destination"));
    const hop = isIpAddress(get("nexthop"));
    return net && hop && net.version !== hop
      ? [{ field: "nexthop", message: `must be an IPv${net.version} address, like ${name("destination")}` }]
      : [];
  },
};

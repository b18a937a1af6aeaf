// Rules across the fields of one object, written once over camelCase field names. Each
// side reads its own values (`get`) and says field names its own way (`name`); issues name
// the field they are about. A rule reports only when the fields it involves are well-formed
// (their own rules report the rest), so an unknown value during preview is never judged.
import type { RuleName } from "./contract/types";
import { contains, isIpAddress, parseCidr } from "./net";

export interface RuleIssue {
  /** camelCase field of the object the rule ran on. */
  field: string;
  message: string;
}

export type Get = (field: string) => unknown;
export type Name = (field: string) => string;

export const RULES: Record<RuleName, (get: Get, name: Name) => RuleIssue[]> = {
  subnet(get, name) {
    const issues: RuleIssue[] = [];
    const cidr = get("cidr");
    const net = parseCidr(cidr);
    const gateway = get("gatewayIp");
    const gatewayVersion = isIpAddress(gateway);
    if (net && gatewayVersion && gatewayVersion !== net.version) {
      issues.push({ field: "gatewayIp", message: `must be an IPv${net.version} address, like ${name("cidr")}` });
    } else if (net && gatewayVersion && typeof cidr === "string" && typeof gateway === "string" && !contains(cidr, gateway)) {
      issues.push({ field: "gatewayIp", message: `must be inside ${name("cidr")} ${String(cidr)}` });
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
   * A pool member is placed by the subnet its address is in or by the instance it is on, not
   * both. Neither is the load balancer's own subnet, as for a member the pool's whole-list
   * update adds without one (the vendor's own member examples give neither).
   */
  memberTarget(get, name) {
    const given = ["subnetId", "instanceId"].filter((f) => get(f) !== undefined && get(f) !== null);
    if (given.length < 2) return [];
    return [{ field: "instanceId", message: `must not be given with ${name("subnetId")}: give one of them` }];
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

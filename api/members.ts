// Pool member identity: the service keeps a member with the same address and port "as it
// is", so address + port (the address in its canonical spelling) is a member's key.
import { canonicalIp, isIpAddress } from "./net";

/** `10.0.0.1:80`; a non-IP address (a seeded oddity, an unknown during preview) as written. */
export function memberKey(address: unknown, port: unknown): string {
  const a = String(address);
  return `${isIpAddress(a) ? canonicalIp(a) : a}:${String(port)}`;
}

/**
 * A pool member's settings a PATCH of the member changes in place (the vendor SDK's member
 * update), camelCase.
 */
export const MEMBER_IN_PLACE = ["weight", "adminStateUp", "backup", "monitorAddress", "monitorPort"] as const;
/** A pool member's settings fixed when the member is made: a new value is a new member. */
export const MEMBER_FIXED = ["subnetId", "instanceId"] as const;
/** The settings a program gives a member beside its address and port. */
export const MEMBER_SETTINGS = [...MEMBER_IN_PLACE, ...MEMBER_FIXED] as const;
/** Settings the service's member records do not show (the vendor's Member model has no instance_id). */
export const MEMBER_NOT_IN_RECORD: ReadonlySet<string> = new Set(["instanceId"]);

/** A member setting in its canonical spelling: ids lowercase, addresses as the service writes them. */
export function memberSetting(field: string, value: unknown): unknown {
  if (field === "monitorAddress") return typeof value === "string" && isIpAddress(value) ? canonicalIp(value) : value;
  return typeof value === "string" && (field === "subnetId" || field === "instanceId") ? value.toLowerCase() : value;
}

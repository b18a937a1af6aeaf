// Pool member identity: the service keeps a member with the same address and port "as it
// is", so address + port (the address in its canonical spelling) is a member's key.
import { canonicalIp, isIpAddress } from "./net";

/** `10.0.0.1:80`; a non-IP address (a seeded oddity, an unknown during preview) as written. */
export function memberKey(address: unknown, port: unknown): string {
  const a = String(address);
  return `${isIpAddress(a) ? canonicalIp(a) : a}:${String(port)}`;
}

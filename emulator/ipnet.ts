// IP network arithmetic for subnets: ranges, overlap, the first host (the gateway the
// backend allocates) and the address count. Parsing is ipaddr.js's; the maths is bigint.
import ipaddr from "ipaddr.js";

export interface Network {
  version: 4 | 6;
  prefix: number;
  first: bigint;
  last: bigint;
}

function toBigInt(bytes: number[]): bigint {
  return bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
}

export function parseNetwork(cidr: string): Network {
  const [addr, prefix] = ipaddr.parseCIDR(cidr);
  const bits = addr.kind() === "ipv4" ? 32 : 128;
  const first = toBigInt(addr.toByteArray());
  const size = 1n << BigInt(bits - prefix);
  return { version: bits === 32 ? 4 : 6, prefix, first, last: first + size - 1n };
}

export function overlaps(a: string, b: string): boolean {
  const x = parseNetwork(a);
  const y = parseNetwork(b);
  return x.version === y.version && x.first <= y.last && y.first <= x.last;
}

export function contains(cidr: string, ip: string): boolean {
  const net = parseNetwork(cidr);
  const addr = ipaddr.parse(ip);
  if ((addr.kind() === "ipv4" ? 4 : 6) !== net.version) return false;
  const value = toBigInt(addr.toByteArray());
  return value >= net.first && value <= net.last;
}

/** The first usable address: what the backend allocates as gateway when none is given. */
export function firstHost(cidr: string): string {
  const net = parseNetwork(cidr);
  const value = net.first + 1n;
  const bytes = net.version === 4 ? 4 : 16;
  const out: number[] = [];
  for (let i = bytes - 1; i >= 0; i--) out.push(Number((value >> BigInt(i * 8)) & 0xffn));
  return ipaddr.fromByteArray(out).toString();
}

/** Usable addresses (IPv4: less network and broadcast), capped to what int64 holds. */
export function addressCount(cidr: string): bigint {
  const net = parseNetwork(cidr);
  const size = net.last - net.first + 1n;
  const usable = net.version === 4 && net.prefix < 31 ? size - 2n : size;
  const int64Max = 9223372036854775807n;
  return usable > int64Max ? int64Max : usable;
}

// Identifiers and IP networks as the service reads them: uuid4, IP addresses, CIDRs with no
// host bits, their canonical spellings (the service stores `2001:DB8:0:0::/64` as
// `2001:db8::/64`), overlap, the gateway the backend allocates and address counts.
// Parsing is node:net's and ipaddr.js's; the arithmetic is bigint.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isUuid4(value: unknown): value is string {
  return typeof value === "string" && UUID4.test(value);
}

/**
 * The IP version of an address, 0 if not one. A zone suffix (`fe80::1%eth0`) is refused:
 * it only means something on one host, never in a subnet, route or member definition.
 */
export function isIpAddress(value: unknown): 4 | 6 | 0 {
  if (typeof value !== "string" || value.includes("%")) return 0;
  const version = isIP(value);
  return version === 4 || version === 6 ? version : 0;
}

export interface Network {
  version: 4 | 6;
  prefix: number;
  first: bigint;
  last: bigint;
}

function addressValue(address: string): bigint {
  return ipaddr
    .parse(address)
    .toByteArray()
    .reduce((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
}

/**
 * Networks parsed before, by their text. A program's overlap check compares each new subnet
 * with every one noted before it, and a create's with every record of its network's list, so
 * the same few thousand CIDRs are asked for again and again: parsed each time, 1,000 subnets of
 * one network cost seconds of CPU, 2,000 four times that. Bounded, so that a long-lived process
 * (the plugin, the emulator) holds at most PARSED_MAX of them; the oldest go first. Entries are
 * frozen: every caller shares them.
 */
const parsed = new Map<string, Readonly<Network> | undefined>();
const PARSED_MAX = 20_000;

/**
 * A network written as `address/prefix` with all host bits zero (`10.0.0.0/24`, not
 * `10.0.0.1/24`): the service refuses an address posing as a network.
 */
export function parseCidr(value: unknown): Readonly<Network> | undefined {
  if (typeof value !== "string") return undefined;
  const known = parsed.get(value);
  if (known !== undefined || parsed.has(value)) return known;
  const network = parseNew(value);
  if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value as string);
  parsed.set(value, network);
  return network;
}

function parseNew(value: string): Readonly<Network> | undefined {
  const match = /^([^/]+)\/(0|[1-9]\d{0,2})$/.exec(value);
  if (!match) return undefined;
  const version = isIpAddress(match[1]);
  if (version === 0) return undefined;
  const bits = version === 4 ? 32 : 128;
  const prefix = Number(match[2]);
  if (prefix > bits) return undefined;
  const size = 1n << BigInt(bits - prefix);
  const first = addressValue(match[1]);
  return (first & (size - 1n)) === 0n ? Object.freeze({ version, prefix, first, last: first + size - 1n }) : undefined;
}

/** One spelling per address, so `2001:DB8::1` and `2001:db8:0::1` count as the same. */
export function canonicalIp(address: string): string {
  return ipaddr.parse(address).toString();
}

/** One spelling per network: `2001:DB8:0:0::/64` -> `2001:db8::/64`. */
export function canonicalCidr(cidr: string): string {
  const slash = cidr.lastIndexOf("/");
  return `${canonicalIp(cidr.slice(0, slash))}${cidr.slice(slash)}`;
}

/** The value in its canonical spelling when it is one of these kinds, else as it is. */
export function canonical(kind: "ip" | "cidr" | "uuid4", value: unknown): unknown {
  if (kind === "ip") return typeof value === "string" && isIpAddress(value) ? canonicalIp(value) : value;
  if (kind === "cidr") return typeof value === "string" && parseCidr(value) ? canonicalCidr(value) : value;
  return isUuid4(value) ? value.toLowerCase() : value;
}

export function overlaps(a: string, b: string): boolean {
  const x = parseCidr(a);
  // A network overlaps itself (a subnet's diff asks this of every unchanged subnet).
  if (a === b) return x !== undefined;
  const y = parseCidr(b);
  return x !== undefined && y !== undefined && x.version === y.version && x.first <= y.last && y.first <= x.last;
}

export function contains(cidr: string, ip: string): boolean {
  const net = parseCidr(cidr);
  const version = isIpAddress(ip);
  if (!net || version !== net.version) return false;
  const value = addressValue(ip);
  return value >= net.first && value <= net.last;
}

/** An address of a version from its value. */
function addressText(version: 4 | 6, value: bigint): string {
  const bytes = version === 4 ? 4 : 16;
  const out: number[] = [];
  for (let i = bytes - 1; i >= 0; i--) out.push(Number((value >> BigInt(i * 8)) & 0xffn));
  return ipaddr.fromByteArray(out).toString();
}

/** The first usable address: what the backend allocates as gateway when none is given. */
export function firstHost(cidr: string): string {
  const net = parseCidr(cidr)!;
  return addressText(net.version, net.first + 1n);
}

/**
 * The IPv4 network's own addresses no host may hold, its network and broadcast addresses, when
 * it has hosts besides (a /31 or /32 has none: every address is a host's). IPv6 has no broadcast.
 */
export function reservedAddresses(cidr: string): { network: string; broadcast: string } | undefined {
  const net = parseCidr(cidr);
  if (!net || net.version !== 4 || net.prefix > 30) return undefined;
  return { network: addressText(4, net.first), broadcast: addressText(4, net.last) };
}

/** Usable addresses (IPv4: less network and broadcast); an IPv6 /64 has 2^64, past int64. */
export function addressCount(cidr: string): bigint {
  const net = parseCidr(cidr)!;
  const size = net.last - net.first + 1n;
  return net.version === 4 && net.prefix < 31 ? size - 2n : size;
}

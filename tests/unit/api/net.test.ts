import ipaddr from "ipaddr.js";
import { overlaps, parseCidr } from "../../../api/net";
import { forgetHoldings, hold } from "../../../provider/methods/holdings";

const cidrOf = (i: number) => `10.${100 + Math.floor(i / 256)}.${i % 256}.0/24`;

afterEach(() => jest.restoreAllMocks());

// Each subnet's check and create compare its CIDR with every subnet of its network and every
// one of the program: N^2 pairs for N subnets, and each parse of a CIDR allocates.
test("a CIDR compared with each of 2,000 subnets', three times over, is parsed once, as is each of theirs", () => {
  const cidrs = Array.from({ length: 2_000 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
  const parse = jest.spyOn(ipaddr, "parse");
  try {
    const rounds = [0, 1, 2].map(() => cidrs.filter((c) => overlaps("10.3.0.0/16", c)).length);
    expect(rounds).toEqual([256, 256, 256]);
    expect(parse).toHaveBeenCalledTimes(2_001);
    expect([overlaps("10.3.0.0/16", "10.3.0.0/16"), overlaps("10.3.0.0/16", "10.4.0.0/16"), overlaps("10.3.0.0/16", "x")]).toEqual([
      true,
      false,
      false,
    ]);
  } finally {
    parse.mockRestore();
  }
});

test("a program's overlap check of N subnets on one network parses each CIDR once, not once for every pair", () => {
  const parse = jest.spyOn(ipaddr, "parse");
  forgetHoldings();
  const n = 300;
  for (let i = 0; i < n; i++) {
    const other = hold("subnet", `s${i}`, { place: "network n", value: cidrOf(i), property: "cidr" }, overlaps, false);
    expect(other).toBeUndefined();
  }
  const clash = hold("subnet", "late", { place: "network n", value: "10.100.7.128/25", property: "cidr" }, overlaps, false);
  expect(clash?.label).toBe("s7");
  // Compared pairwise, the 300 would ask for 45,000 parses.
  expect(parse.mock.calls.length).toBeLessThanOrEqual(n + 1);
  forgetHoldings();
});

test("a parsed network is the same answer every time, shared read-only, and a bad one stays refused", () => {
  const first = parseCidr("10.9.0.0/16");
  expect(first).toEqual({ version: 4, prefix: 16, first: 0x0a090000n, last: 0x0a09ffffn });
  expect(parseCidr("10.9.0.0/16")).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  expect(parseCidr("10.9.0.1/16")).toBeUndefined();
  expect(parseCidr("10.9.0.1/16")).toBeUndefined();
  expect(overlaps("10.9.0.0/16", "10.9.3.0/24")).toBe(true);
  expect(overlaps("10.9.0.1/16", "10.9.0.1/16")).toBe(false);
});

test("past its bound the oldest parses are dropped and parsed again when asked, with the same answer", () => {
  const many = 20_001;
  for (let i = 0; i < many; i++) parseCidr(`10.${Math.floor(i / 256) % 256}.${i % 256}.${128 + (i >> 16)}/25`);
  const parse = jest.spyOn(ipaddr, "parse");
  expect(parseCidr("10.0.0.128/25")).toEqual({ version: 4, prefix: 25, first: 0x0a000080n, last: 0x0a0000ffn });
  expect(parse).toHaveBeenCalledTimes(1);
});

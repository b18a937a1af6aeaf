// overlaps() (api/net.ts) as an `up` of many subnets asks it: each subnet's check and create
// compare its CIDR with every subnet of its network and every one of the program, N^2 pairs
// for N subnets, and each parse of a CIDR allocates; a CIDR is parsed once however often it is
// asked about, and the answers are the same.
import ipaddr from "ipaddr.js";
import { overlaps } from "../../../api/net";

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

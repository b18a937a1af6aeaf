// Bad-input catalogue, part 4: LbPoolMember.
import { type BadCase, VALID, withField } from "./catalogue";

const m = (field: string, value: string) => withField("member", field, value);

export const MEMBER: BadCase[] = [
  {
    what: "member: address not an IP",
    resource: "LbPoolMember",
    args: VALID.member.replace('"10.0.0.50"', '"web.local"'),
    property: "address",
    rule: /IP address/,
  },
  {
    what: "member: protocolPort 0",
    resource: "LbPoolMember",
    args: VALID.member.replace("protocolPort: 80", "protocolPort: 0"),
    property: "protocolPort",
    rule: /from 1 to 65535/,
  },
  { what: "member: weight 257 (one past)", resource: "LbPoolMember", args: m("weight", "257"), property: "weight", rule: /from 1 to 256/ },
  {
    what: "member: monitorPort 65536",
    resource: "LbPoolMember",
    args: m("monitorPort", "65536"),
    property: "monitorPort",
    rule: /from 1 to 65535/,
  },
  {
    what: "member: poolId not a uuid",
    resource: "LbPoolMember",
    args: VALID.member.replace(/poolId: "[^"]+"/, 'poolId: "pool-1"'),
    property: "poolId",
    rule: /UUID/,
  },
  {
    what: "member: both subnetId and instanceId",
    resource: "LbPoolMember",
    args: m("instanceId", '"5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d"'),
    property: "instanceId",
    rule: /must not be given with subnetId: give one of them/,
  },
];

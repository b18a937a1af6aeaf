// The one interpreter of the contract (api/schema.ts): its schemas are built once per
// contract and options, and check()'s failures say what a value must be in the contract's
// words, also where zod alone would answer in its own.
import { LbPoolSettings } from "../../../api/contract/lb-pool-settings";
import { QuotaThreshold } from "../../../api/contract/quota-threshold";
import { Subnet } from "../../../api/contract/subnet";
import { contractSchema } from "../../../api/schema";
import { inputsSchema, validate } from "../../../provider/methods/schema";
import { validateQuotaPut } from "../../../emulator/collections/quota-threshold";

const NET = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01";
const SUBNET = { name: "app", cidr: "10.0.0.0/24", networkId: NET };
const extra = {};

test("a schema is built once per contract and options, and reused", () => {
  const patch = contractSchema(Subnet, { face: "wire", mode: "patch", readOnly: ["id"] });
  expect(contractSchema(Subnet, { face: "wire", mode: "patch", readOnly: ["id"] })).toBe(patch);
  expect(contractSchema(Subnet, { face: "wire", mode: "create" })).not.toBe(patch);
  expect(contractSchema(Subnet, { face: "program", mode: "patch", readOnly: ["id"] })).not.toBe(patch);
  expect(inputsSchema(Subnet, extra)).toBe(inputsSchema(Subnet, extra));
});

test.each<[string, Record<string, unknown>, { property: string; reason: string }[]]>([
  [
    "tags not an object",
    { ...SUBNET, tags: "env=dev" },
    [{ property: "tags", reason: "tags: must be an object of string keys to string values" }],
  ],
  ["a route that is null", { ...SUBNET, hostRoutes: [null] }, [{ property: "hostRoutes[0]", reason: "hostRoutes[0]: must be an object" }]],
  [
    "a route that is a string",
    { ...SUBNET, hostRoutes: ["10.2.0.0/16"] },
    [{ property: "hostRoutes[0]", reason: "hostRoutes[0]: must be an object" }],
  ],
])("check(): %s is refused in the contract's words", (_title, inputs, failures) => {
  expect(validate(inputsSchema(Subnet, extra), inputs)).toEqual(failures);
});

test("check(): every failure at once: a region's missing fields and its quota names that do not exist", () => {
  const inputs = {
    threshold: 80,
    lastMessage: { regionalQuotas: [{ ramLimit: { limit: 1, usage: 0 }, bogusLimit: { limit: 1, usage: 0 } }] },
  };
  expect(validate(inputsSchema(QuotaThreshold, extra), inputs).map((f) => f.property)).toEqual([
    "lastMessage.regionalQuotas[0].regionId",
    "lastMessage.regionalQuotas[0].regionName",
    "lastMessage.regionalQuotas[0].bogusLimit",
  ]);
});

test("check(): a duplicate member is found among members that are wrong themselves", () => {
  const member = { address: "10.0.0.1", protocolPort: 80 };
  const failures = validate(inputsSchema(LbPoolSettings, extra), { members: [member, { ...member, weight: "heavy" }] });
  expect(failures).toEqual([
    { property: "members[1].weight", reason: "members[1].weight: must be an integer from 1 to 256" },
    { property: "members[1]", reason: "members[1]: duplicates members[0] (same address and port)" },
  ]);
});

test("request checks: a quota named __proto__ is refused as a name the service does not know", () => {
  const body = JSON.parse('{"threshold":80,"last_message":{"global_quotas":{"__proto__":{"limit":1,"usage":0}}}}');
  expect(validateQuotaPut(body)).toEqual({
    "last_message.global_quotas.__proto__": ["Is not a global quota (names are like inference_cpu_millicore_count_limit)."],
  });
});

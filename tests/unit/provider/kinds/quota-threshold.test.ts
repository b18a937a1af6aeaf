// check() and diff() of QuotaThreshold, and its mapping to and from the wire (no engine, no network).
import { parseJson, stringifyJson } from "../../../../api/json";
import { quotaTable, quotaThresholdMethods } from "../../../../provider/kinds/quota-threshold";
import { props, withScopeConfig } from "../../../support/check-diff";

withScopeConfig();

describe("QuotaThreshold", () => {
  test.each<[Record<string, unknown>, string[]]>([
    [{ threshold: 59 }, ["threshold"]],
    [{ threshold: 101 }, ["threshold"]],
    [{ threshold: 75.5 }, ["threshold"]],
    [{ threshold: "80" }, ["threshold"]],
    [{ lastMessage: { globalQuotas: { bogusLimit: { limit: 1, usage: 1 } } } }, ["lastMessage.globalQuotas.bogusLimit"]],
    [
      { lastMessage: { globalQuotas: { keypairCountLimit: { limit: "9223372036854775808", usage: 0 } } } },
      ["lastMessage.globalQuotas.keypairCountLimit.limit"],
    ],
    [
      { lastMessage: { globalQuotas: { keypairCountLimit: { limit: 2 ** 60, usage: 0 } } } },
      ["lastMessage.globalQuotas.keypairCountLimit.limit"],
    ],
    [{ lastSending: "yesterday" }, ["lastSending"]],
  ])("%j fails on %j", async (change, expected) => {
    expect(props((await quotaThresholdMethods.check({}, { clientId: 1, threshold: 80, ...change })).failures)).toEqual(expected);
  });
  test("60 and 100 pass; int64 extremes pass as strings and stay digit-exact through the wire mapping", async () => {
    for (const threshold of [60, 100]) expect((await quotaThresholdMethods.check({}, { clientId: 1, threshold })).failures).toEqual([]);
    const lastMessage = {
      globalQuotas: { projectCountLimit: { limit: "9223372036854775807", usage: 3 } },
      regionalQuotas: [
        { regionId: 1, regionName: "Lux", volumeSizeLimit: { limit: "9223372036854775807", usage: "-9223372036854775808" } },
      ],
    };
    const { inputs, failures } = await quotaThresholdMethods.check({}, { clientId: 1, threshold: 75, lastMessage, lastSending: null });
    expect(failures).toEqual([]);
    expect((inputs.lastMessage as { globalQuotas: Record<string, unknown> }).globalQuotas.projectCountLimit).toEqual({
      limit: "9223372036854775807",
      usage: "3",
    });
    const wire = stringifyJson(quotaTable.body(inputs));
    expect(wire).toBe(
      '{"threshold":75,"last_message":{"global_quotas":{"project_count_limit":{"limit":9223372036854775807,"usage":3}},"regional_quotas":[{"region_id":1,"region_name":"Lux","volume_size_limit":{"limit":9223372036854775807,"usage":-9223372036854775808}}]},"last_sending":null}',
    );
    expect(quotaTable.fromRecord(parseJson(wire) as Record<string, unknown>).lastMessage).toEqual(inputs.lastMessage);
  });
});

test("QuotaThreshold: a fractional or non-numeric quota number is a failure naming it, not a crash", async () => {
  const { failures } = await quotaThresholdMethods.check(
    {},
    {
      clientId: 1,
      threshold: 75,
      lastMessage: { globalQuotas: { keypairCountLimit: { limit: 1.5, usage: "x" } } },
    },
  );
  expect(props(failures)).toEqual(["lastMessage.globalQuotas.keypairCountLimit.limit", "lastMessage.globalQuotas.keypairCountLimit.usage"]);
});

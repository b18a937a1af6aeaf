// The plugin's Diff answers what the kind's diff decided, field by field: the detailed diff is
// the kind's own list, never a second reading of the inputs that could disagree with it.
import { kind } from "../../../../provider/kinds/registry";
import { providerPb } from "../../../../provider/proto";
import { providerServer } from "../../../../provider/plugin/server";
import { toStruct } from "../../../../provider/plugin/values";

const URN = "urn:pulumi:dev::infra::cims:index:Subnet::app";
const olds = { name: "app", cidr: "10.0.0.0/24", networkId: "7b1e0a52-6c9f-4f3e-9a57-1f0f5b1e2d3c", tags: {} };

type Handler = (call: unknown, done: (err: unknown, reply: unknown) => void) => void;

/** Calls the plugin's handler `name` with this request. */
function serve<T>(name: "diff" | "update", req: unknown): Promise<T> {
  const handlers = providerServer(undefined) as Record<string, Handler>;
  return new Promise((resolve, reject) => handlers[name]({ request: req }, (err, reply) => (err ? reject(err) : resolve(reply as T))));
}

type Req = InstanceType<typeof providerPb.DiffRequest> | InstanceType<typeof providerPb.UpdateRequest>;

/** A Diff or Update request for the subnet of `urn`: the state, the new inputs, the fields under ignoreChanges. */
function request<R extends Req>(
  req: R,
  state: Record<string, unknown>,
  news: Record<string, unknown>,
  ignoreChanges: string[] = [],
  urn = URN,
): R {
  req.setUrn(urn);
  req.setId("6a0c1e2f-3b4d-4e5f-8a6b-7c8d9e0f1a2b");
  req.setOlds(toStruct(state));
  req.setNews(toStruct(news));
  req.setIgnorechangesList(ignoreChanges);
  return req;
}

function diff(news: Record<string, unknown>, urn = URN): Promise<InstanceType<typeof providerPb.DiffResponse>> {
  return serve("diff", request(new providerPb.DiffRequest(), olds, news, [], urn));
}

afterEach(() => jest.restoreAllMocks());

test("the detailed diff lists the fields the kind's diff found, even where the inputs alone look equal", async () => {
  jest.spyOn(kind("Subnet").methods, "diff").mockResolvedValue({ changes: true, replaces: ["cidr"], diffs: ["name", "cidr"] });
  const resp = await diff(olds);
  expect(resp.getDiffsList()).toEqual(["name", "cidr"]);
  const detailed = resp.getDetaileddiffMap();
  expect(detailed.get("name")?.getKind()).toBe(providerPb.PropertyDiff.Kind.UPDATE);
  expect(detailed.get("cidr")?.getKind()).toBe(providerPb.PropertyDiff.Kind.UPDATE_REPLACE);
  expect(resp.getReplacesList()).toEqual(["cidr"]);
  expect(resp.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_SOME);
});

test("a kind's diff that finds nothing leaves the detailed diff empty, even where the inputs differ", async () => {
  jest.spyOn(kind("Subnet").methods, "diff").mockResolvedValue({ changes: false, replaces: [], diffs: [] });
  const resp = await diff({ ...olds, name: "web" });
  expect(resp.getDiffsList()).toEqual([]);
  expect(resp.getDetaileddiffMap().getLength()).toBe(0);
  expect(resp.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_NONE);
});

test("a real Subnet diff: a new name updates in place, a new CIDR replaces", async () => {
  const resp = await diff({ ...olds, name: "web", cidr: "10.1.0.0/24" });
  expect([...resp.getDiffsList()].sort()).toEqual(["cidr", "name"]);
  expect(resp.getDetaileddiffMap().get("cidr")?.getKind()).toBe(providerPb.PropertyDiff.Kind.UPDATE_REPLACE);
  expect(resp.getDetaileddiffMap().get("name")?.getKind()).toBe(providerPb.PropertyDiff.Kind.UPDATE);
});

test("a resource under a component is served: its URN's type names its parents' types first", async () => {
  const spy = jest.spyOn(kind("Subnet").methods, "diff").mockResolvedValue({ changes: false, replaces: [], diffs: [] });
  const resp = await diff(olds, "urn:pulumi:dev::infra::my:index:Network$cims:index:Subnet::app");
  expect(spy).toHaveBeenCalledTimes(1);
  expect(resp.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_NONE);
});

describe("a field under ignoreChanges is compared with the state's value, so it is neither a change nor written", () => {
  // The state's tags (outputs) differ from the old inputs the engine gave the ignored field.
  const held = { ...olds, tags: { team: "a", "cost-center": "cc-1" } };
  const news = { ...olds, name: "web", tags: { team: "a" } };

  test("Diff: only the name", async () => {
    const spy = jest.spyOn(kind("Subnet").methods, "diff");
    const resp = await serve<InstanceType<typeof providerPb.DiffResponse>>(
      "diff",
      request(new providerPb.DiffRequest(), held, news, ["tags"]),
    );
    expect(resp.getDiffsList()).toEqual(["name"]);
    expect(spy.mock.calls[0][2].tags).toEqual(held.tags);
  });

  test("Update: the kind's update is given the state's tags, so it writes none", async () => {
    const spy = jest.spyOn(kind("Subnet").methods, "update").mockResolvedValue({ outs: {} });
    await serve("update", request(new providerPb.UpdateRequest(), held, news, ["tags"]));
    expect(spy.mock.calls[0][2]).toEqual({ ...news, tags: held.tags });
  });
});

// Which resource a plugin call is for, and how a Read finds its record: a URN under a parent
// names the parents' types first; an import (no properties) and a `get` (what the program gave,
// as both inputs and properties) are read by id, a refresh (the recorded state) by the kind.
import { kind } from "../../../../provider/kinds/registry";
import * as imports from "../../../../provider/plugin/import";
import { setConfig } from "../../../../provider/methods/context";
import { providerPb } from "../../../../provider/proto";
import { providerServer } from "../../../../provider/plugin/server";
import { toStruct } from "../../../../provider/plugin/values";

const ID = "6a0c1e2f-3b4d-4e5f-8a6b-7c8d9e0f1a2b";
const state = { name: "app", cidr: "10.0.0.0/24", networkId: "7b1e0a52-6c9f-4f3e-9a57-1f0f5b1e2d3c", projectId: 1, regionId: 1 };

type Handler = (call: unknown, done: (err: unknown, reply: unknown) => void) => void;
const handlers = () => providerServer(undefined) as Record<string, Handler>;
const call = (name: string, request: unknown): Promise<unknown> =>
  new Promise((resolve, reject) => handlers()[name]({ request }, (err, reply) => (err ? reject(err) : resolve(reply))));

function read(urn: string, properties?: Record<string, unknown>, inputs?: Record<string, unknown>): Promise<unknown> {
  const req = new providerPb.ReadRequest();
  req.setUrn(urn);
  req.setId(ID);
  if (properties) req.setProperties(toStruct(properties));
  if (inputs) req.setInputs(toStruct(inputs));
  return call("read", req);
}

beforeEach(() => {
  setConfig(() => undefined);
  // The environment's defaults would give a scope too.
  jest.replaceProperty(process, "env", { ...process.env, CIMS_PROJECT_ID: "", CIMS_REGION_ID: "" });
});
afterEach(() => jest.restoreAllMocks());

test("a resource under parents is its own kind: the last segment of the URN's qualified type", async () => {
  const check = jest.spyOn(kind("QuotaThreshold").methods, "check").mockResolvedValue({ inputs: { clientId: 1, threshold: 85 } });
  const req = new providerPb.CheckRequest();
  req.setUrn("urn:pulumi:dev::infra::acme:net:Net$acme:net:Zone$cims:index:QuotaThreshold::quota");
  req.setNews(toStruct({ clientId: 1, threshold: 85 }));
  await call("check", req);
  expect(check).toHaveBeenCalledTimes(1);
  await expect(read("urn:pulumi:dev::infra::acme:net:Net$cims:index:Nope::x", state)).rejects.toThrow('no resource type "cims:index:Nope"');
});

test("a refresh reads through the kind, with the recorded state", async () => {
  const kindRead = jest.spyOn(kind("Subnet").methods, "read").mockResolvedValue({ id: ID, props: state });
  const byId = jest.spyOn(imports, "importRead");
  const { projectId: _p, regionId: _r, ...given } = state;
  await read("urn:pulumi:dev::infra::acme:net:Net$cims:index:Subnet::app", { ...state, taskIds: [] }, given);
  expect(kindRead).toHaveBeenCalledWith(ID, { ...state, taskIds: [] });
  expect(byId).not.toHaveBeenCalled();
});

test("an import and a get (its state, with a scope or none) are read by id", async () => {
  const kindRead = jest.spyOn(kind("Subnet").methods, "read");
  const byId = jest.spyOn(imports, "importRead").mockResolvedValue({ id: ID, properties: state, inputs: state });
  const urn = "urn:pulumi:dev::infra::cims:index:Subnet::x";
  await read(urn);
  await read(urn, {}, {});
  await read(urn, { projectId: 2, regionId: 3 }, { projectId: 2, regionId: 3 });
  expect(byId.mock.calls).toEqual([
    ["Subnet", ID, "import", {}],
    ["Subnet", ID, "read", {}],
    ["Subnet", ID, "read", { projectId: 2, regionId: 3 }],
  ]);
  expect(kindRead).not.toHaveBeenCalled();
});

test("a get with no scope anywhere says how to give one", async () => {
  await expect(read("urn:pulumi:dev::infra::cims:index:Subnet::x", {}, {})).rejects.toThrow(
    `id "${ID}" names no project and region, and cims:projectId/cims:regionId are not set: give it as <project>/<region>/${ID}, or set them`,
  );
});

test("an import of a pool member by its id alone is refused naming both forms it takes, before any request", async () => {
  const urn = "urn:pulumi:dev::infra::cims:index:LbPoolMember::web-7";
  const bare = `import id "${ID}" is neither <poolId>/<id> nor <project>/<region>/<poolId>/<id>`;
  // No cims:apiUrl is configured: a request would fail otherwise, naming it.
  await expect(read(urn)).rejects.toThrow(`cims:index:LbPoolMember: ${bare}`);
});

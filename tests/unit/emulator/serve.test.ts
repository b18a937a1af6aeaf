// A resource's calls are served from its contract (emulator/serve.ts): the routes are exactly
// the contract's operations, a handler missing or one the contract does not name stops the
// emulator at startup, and a task the contract does not name is never started
// (emulator/tasks.ts, startTask in emulator/router.ts).
import { type CallContract, operation, operationsOf, taskTypesOf } from "../../../api/contract";
import { Network } from "../../../api/contract/read-only";
import { createApp } from "../../../emulator/app";
import * as RESOURCES from "../../../emulator/generated/collections";
import { Subnet } from "../../../emulator/collections/subnet";
import { QuotaThreshold } from "../../../emulator/collections/quota-threshold";
import { type Call, Router, type Services, startTask } from "../../../emulator/router";
import { READ_ONLY_SERVED } from "../../../emulator/routes/read-only";
import { NetworkReads } from "../../../emulator/routes/networks";
import { assertEachRouteOnce, serve, type Served } from "../../../emulator/serve";

const services = (): Services => {
  const { store, engine, faults } = createApp({ apiKey: "k" });
  return { store, engine, faults };
};

const served = (resource: Served<CallContract>): string[] => {
  const router = new Router();
  serve(router, services(), resource);
  return router.list();
};

const startup =
  (resource: Served<CallContract>): (() => void) =>
  () =>
    serve(new Router(), services(), resource);

const routesOf = (resource: Served<CallContract>) =>
  operationsOf(resource.contract).map((op) => `${op.method} ${op.template.replace(/\{([a-z_]+)\}/g, ":$1")}`);

const ALL: ReadonlyArray<[string, Served<CallContract>]> = [...Object.entries(RESOURCES), ...Object.entries(READ_ONLY_SERVED)];

test.each(ALL)(
  "%s is served at exactly its contract's operations, those with no handler by the kind that serves them",
  (_name, resource) => {
    const routes = routesOf(resource);
    expect(routes.length).toBeGreaterThan(0);
    const elsewhere = resource.servedBy ? routesOf(resource.servedBy) : [];
    const own = served(resource);
    expect(routes).toEqual(expect.arrayContaining(own));
    expect(own.filter((r) => elsewhere.includes(r))).toEqual([]);
    expect([...own, ...elsewhere]).toEqual(expect.arrayContaining(routes));
  },
);

describe("a kind whose records are another's is served by that kind, each call once", () => {
  test("a call with no handler that the serving kind does not have stops the emulator at startup", () => {
    const { create: _create, ...rest } = Subnet.operations;
    expect(startup({ ...Subnet, operations: rest, servedBy: QuotaThreshold })).toThrow(
      "Subnet: operation create (POST /cloud/v1/subnets/{project_id}/{region_id}) has no handler, and is not one of QuotaThreshold's, which serves its other calls",
    );
  });

  test("a call routed by two kinds stops the emulator at startup", () => {
    const router = new Router();
    for (const resource of [QuotaThreshold, QuotaThreshold]) serve(router, services(), resource);
    expect(() => assertEachRouteOnce(router)).toThrow(
      "the emulator routes GET /cloud/v2/client_quotas/:client_id/notification_threshold, PUT /cloud/v2/client_quotas/:client_id/notification_threshold, DELETE /cloud/v2/client_quotas/:client_id/notification_threshold twice",
    );
  });

  test("a kind's calls with no handler, served elsewhere, are not routed by it", () => {
    const { get: _get, ...rest } = QuotaThreshold.operations;
    expect(served({ ...QuotaThreshold, operations: rest, servedBy: QuotaThreshold })).toEqual([
      "PUT /cloud/v2/client_quotas/:client_id/notification_threshold",
      "DELETE /cloud/v2/client_quotas/:client_id/notification_threshold",
    ]);
  });
});

describe("a mismatch between a contract's operations and their handlers is an error at startup", () => {
  test("an operation the contract names with no handler", () => {
    const { delete: _gone, ...rest } = Subnet.operations;
    expect(startup({ ...Subnet, operations: rest })).toThrow(
      "Subnet: operation delete (DELETE /cloud/v1/subnets/{project_id}/{region_id}/{subnet_id}) has no handler",
    );
  });

  test("a handler for an operation the contract does not name", () => {
    const handler = Subnet.operations.get!;
    expect(startup({ ...Subnet, operations: { ...Subnet.operations, more: { replace: handler } } })).toThrow(
      "Subnet: a handler for replace, which the contract's operations do not name",
    );
    expect(startup({ ...QuotaThreshold, operations: { ...QuotaThreshold.operations, create: handler } })).toThrow(
      "QuotaThreshold: a handler for create, which the contract's operations do not name",
    );
  });

  test("a body check for an operation without a body", () => {
    expect(startup({ ...Subnet, bodies: { get: () => ({}) } })).toThrow(
      "Subnet: a body check for get, which is no operation of the contract with a body",
    );
  });

  test("a call with a body in a contract with no fields to check it by (a read-only record's)", () => {
    const contract = {
      ...Network,
      operations: { ...Network.operations, more: { post: { method: "POST", path: "collection" } } },
    } as const;
    const handler = NetworkReads.operations.get!;
    expect(startup({ contract, operations: { ...NetworkReads.operations, more: { post: handler } } })).toThrow(
      "Network: operation post (POST /cloud/v1/networks/{project_id}/{region_id}) has a body, which only a kind's contract (its fields) can check",
    );
  });

  test("a created key the API does not report", () => {
    const create = { ...operation(Subnet.contract, "create")!, created: "subnetz" };
    const contract = { ...Subnet.contract, operations: { ...Subnet.contract.operations, create } };
    expect(startup({ ...Subnet, contract })).toThrow(`Subnet: operation create's created key "subnetz" is no kind the API reports`);
  });
});

describe("the task engine starts only the task types the contracts name", () => {
  const plan = (taskType: string) => ({ taskType, effects: [], locks: [] });

  test("every contract's task types start; any other is refused", () => {
    const { engine } = services();
    const types = Object.values(RESOURCES).flatMap((r) => taskTypesOf(r.contract));
    expect(types).toEqual(expect.arrayContaining(["create_subnet", "delete_lbmember", "update_lbpool", "create_healthmonitor"]));
    for (const type of types) expect(engine.create(plan(type), "req", "/", 0).task_type).toBe(type);
    expect(() => engine.create(plan("create_subnett"), "req", "/", 0)).toThrow(`no contract names the task type "create_subnett"`);
  });

  test("an operation whose contract names no task starts none", () => {
    const op = operation(QuotaThreshold.contract, "update")!;
    const call: Call = {
      method: "PUT",
      path: "/cloud/v2/client_quotas/1/notification_threshold",
      query: new URLSearchParams(),
      params: {},
      body: {},
      now: 0,
      requestId: "req",
      pageSizeMax: 1000,
      op,
      checked: () => ({}),
    };
    expect(() => startTask(services(), call, { effects: [], locks: [] })).toThrow(
      "operation update starts a task, but its contract names no task type",
    );
    const remove = { ...call, op: operation(Subnet.contract, "delete")! };
    expect(() => startTask(services(), remove, { effects: [], locks: [], created: ["x"] })).toThrow(
      "operation delete makes records, but its contract's created key is missing",
    );
  });
});

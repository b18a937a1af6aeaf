// The records no stack writes (projects, regions, networks, volumes) are served from their
// read-only contracts (api/contract/read-only.ts) as the kinds' calls are from theirs: the
// emulator's routes for them are exactly each contract's list and read by id, and the paths
// the lookups and the key's probe read are among those routes. Were the emulator to write a
// path down by itself, it could drift from the contract's, and a lookup would read a 404.
import { apiPath } from "../../../provider/client";
import { probeRequest } from "../../../provider/client/credentials";
import { idParam, operation, operationsOf } from "../../../api/contract";
import { READ_ONLY } from "../../../api/contract/read-only";
import { LOOKUPS } from "../../../api/lookups";
import { createApp } from "../../../emulator/app";
import { READ_ONLY_SERVED } from "../../../emulator/routes/read-only";
import { call, useEmulator } from "./api";

useEmulator();

const routeOf = (method: string, template: string) => `${method} ${template.replace(/\{([a-z_]+)\}/g, ":$1")}`;
const CONTRACTS = Object.values(READ_ONLY).map((c) => [c.name, c] as const);
const SCOPE = { project_id: 1, region_id: 1 };

test.each(CONTRACTS)("%s: the emulator routes its contract's list and read by id, served by that contract", (name, contract) => {
  const routes = createApp({ apiKey: "k" }).api.list();
  const ops = operationsOf(contract);
  expect(ops.map((op) => `${op.name} ${op.method}`).sort()).toEqual(["get GET", "list GET"]);
  for (const op of ops) expect(routes).toContain(routeOf(op.method, op.template));
  expect(READ_ONLY_SERVED[name].contract).toBe(contract);
});

test.each(CONTRACTS)("%s: the contract's list answers the seed's records, and its read by id each one", async (_name, contract) => {
  const list = await call("GET", apiPath(operation(contract, "list")!.template, SCOPE));
  expect(list.status).toBe(200);
  expect(list.body.count).toBeGreaterThan(0);
  for (const record of list.body.results) {
    const item = await call("GET", apiPath(operation(contract, "get")!.template, { ...SCOPE, [idParam(contract)]: record.id }));
    expect(item).toMatchObject({ status: 200, body: { id: record.id } });
  }
});

test("every lookup's list and the key's probe are calls the emulator routes", () => {
  const { api } = createApp({ apiKey: "k" });
  const routed = (p: string) => {
    const match = api.match("GET", p);
    return match !== undefined && "route" in match;
  };
  const reads = [...LOOKUPS.map((l) => apiPath(l.path, { ...SCOPE, pool_id: "p" })), probeRequest().path, probeRequest(5).path];
  expect(reads.filter((p) => !routed(p))).toEqual([]);
});

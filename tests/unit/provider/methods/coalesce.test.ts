// Coalesced reads (provider/methods/coalesce.ts) against a scripted server: reads of one
// scope share one list; a record missing from it is read by id; a failing list falls back to
// GETs by id; a write of ours ends the list's use; a scope with more pages than reads is not
// listed; coalescing off is a GET each.
import { NotFoundError } from "../../../../provider/client/errors";
import { closeAllPools } from "../../../../provider/client/transport";
import { coalescedGet, forgetLists } from "../../../../provider/methods/coalesce";
import { apiClient } from "../../../../provider/methods/context";
import { configureForScripted } from "../../../support/provider-config";
import { startTestServer, type TestServer } from "../../../support/test-server";

const LIST = "/cloud/v1/subnets/1/1";
const ids = ["0a", "1b", "2c", "3d"].map((p) => `${p}000000-0000-4000-8000-000000000000`);
const one = (id: string) => `${LIST}/${id}`;

let server: TestServer | undefined;
afterEach(async () => {
  forgetLists();
  await closeAllPools();
  await server?.close();
});

async function serve(opts: { listed?: string[]; count?: number; listStatus?: number; coalesce?: string } = {}): Promise<TestServer> {
  const listed = opts.listed ?? ids;
  server = await startTestServer((req) => {
    const url = new URL(req.url, "http://x");
    if (req.method === "GET" && url.pathname === LIST) {
      if (opts.listStatus) return { status: opts.listStatus, body: { message: "list failed" } };
      return { body: { count: opts.count ?? listed.length, results: listed.map((id) => ({ id, name: `from-list-${id.slice(0, 2)}` })) } };
    }
    const id = url.pathname.split("/").pop()!;
    if (req.method === "GET" && ids.includes(id)) return { body: { id, name: `by-id-${id.slice(0, 2)}` } };
    if (req.method === "PATCH") return { body: {} };
    return { status: 404, body: { message: "not found" } };
  });
  configureForScripted(server.url, { "cims:coalesceReads": opts.coalesce });
  return server;
}

const lists = (s: TestServer) => s.requests.filter((r) => r.url.startsWith(`${LIST}?`)).length;
const byId = (s: TestServer) => s.requests.filter((r) => r.method === "GET" && r.url.startsWith(`${LIST}/`)).length;

test("reads of one scope arriving together are answered from one list request", async () => {
  const s = await serve();
  const records = await Promise.all(ids.map((id) => coalescedGet(LIST, id, one(id))));
  expect(records.map((r) => r.name)).toEqual(ids.map((id) => `from-list-${id.slice(0, 2)}`));
  expect(lists(s)).toBe(1);
  expect(byId(s)).toBe(0);
  expect(s.requests[0].url).toBe(`${LIST}?limit=1000&offset=0`);
});

test("a record missing from the list is read by id: found, it is kept; 404, it is gone", async () => {
  const s = await serve({ listed: ids.slice(0, 2) });
  const [a, , c] = await Promise.all([
    coalescedGet(LIST, ids[0], one(ids[0])),
    coalescedGet(LIST, ids[1], one(ids[1])),
    coalescedGet(LIST, ids[2], one(ids[2])),
  ]);
  expect(a.name).toBe("from-list-0a");
  expect(c.name).toBe("by-id-2c"); // made after the list was read, say
  const gone = "9f000000-0000-4000-8000-000000000000";
  await expect(coalescedGet(LIST, gone, one(gone))).rejects.toBeInstanceOf(NotFoundError);
  expect(lists(s)).toBe(1);
  expect(byId(s)).toBe(2);
});

test("a list that fails falls back to a GET per id", async () => {
  const s = await serve({ listStatus: 500 });
  const records = await Promise.all(ids.map((id) => coalescedGet(LIST, id, one(id))));
  expect(records.map((r) => r.name)).toEqual(ids.map((id) => `by-id-${id.slice(0, 2)}`));
  expect(byId(s)).toBe(ids.length);
});

test("a write of ours ends the use of a list sent before it", async () => {
  const s = await serve();
  await Promise.all(ids.slice(0, 2).map((id) => coalescedGet(LIST, id, one(id))));
  await coalescedGet(LIST, ids[2], one(ids[2])); // soon after: the same list answers
  expect(lists(s)).toBe(1);
  await apiClient().request("PATCH", one(ids[0]), { body: { name: "x" } });
  await coalescedGet(LIST, ids[3], one(ids[3]));
  expect(lists(s)).toBe(2);
});

test("a scope with more pages than reads is not listed past its first page; reads go by id", async () => {
  const s = await serve({ count: 5000 });
  const records = await Promise.all(ids.slice(0, 2).map((id) => coalescedGet(LIST, id, one(id))));
  expect(records.map((r) => r.name)).toEqual(["by-id-0a", "by-id-1b"]);
  expect(lists(s)).toBe(1);
});

test("cims:coalesceReads false: a GET each, no list", async () => {
  const s = await serve({ coalesce: "false" });
  await Promise.all(ids.map((id) => coalescedGet(LIST, id, one(id))));
  expect(lists(s)).toBe(0);
  expect(byId(s)).toBe(ids.length);
});

// The counting proxy in front of the S3-compatible server (tests/support/s3.ts): what the
// checkpoint bench reports as uploaded is the PUT bodies alone, not every request body, and a
// PUT with no body (the backend's copy of the checkpoint to its backup) uploads nothing.
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { countingProxy } from "../../support/s3";

let upstream: http.Server;
let proxy: Awaited<ReturnType<typeof countingProxy>>;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  proxy = await countingProxy((upstream.address() as AddressInfo).port);
});
afterAll(async () => {
  await new Promise((r) => proxy.server.close(r));
  await new Promise((r) => upstream.close(r));
});

const send = async (method: string, bytes: number) => {
  const res = await fetch(`http://127.0.0.1:${proxy.port}/bucket/key`, { method, body: bytes ? "x".repeat(bytes) : undefined });
  await res.text();
};

test("bytes uploaded are the PUT bodies, the largest of them kept; other bodies count only as request bytes", async () => {
  await send("PUT", 1_000);
  await send("POST", 500);
  await send("PUT", 300);
  await send("PUT", 0);
  await send("GET", 0);
  expect(proxy.traffic).toEqual({
    requests: 5,
    bytesIn: 1_800,
    bytesPut: 1_300,
    largestPut: 1_000,
    bytesOut: 10,
    byMethod: { PUT: 3, POST: 1, GET: 1 },
  });
});

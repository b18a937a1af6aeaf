// The control API: metrics, seeding, reset and the log (emulator/control.ts).
import * as net from "node:net";
import { call, control, emulator, KEY, POOL, useEmulator } from "./api";

useEmulator();

describe("control API: faults, task duration, metrics, logs", () => {
  test("metrics tell connections opened from connections open at once", async () => {
    await control("POST", "reset");
    const { port } = new URL(emulator().url);
    // Each socket completes a request before the snapshot: the answer proves the server has
    // accepted (and counted) that connection, where a sleep would only hope it had.
    const sockets = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<net.Socket>((resolve, reject) => {
            const so = net.connect(Number(port), "127.0.0.1", () => so.write("GET /__emulator/logs HTTP/1.1\r\nHost: emulator\r\n\r\n"));
            so.once("data", () => resolve(so));
            so.once("error", reject);
          }),
      ),
    );
    const during = (await control("GET", "metrics")).body;
    for (const so of sockets) so.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const after = (await control("GET", "metrics")).body;
    expect(during.peak_open_connections).toBeGreaterThanOrEqual(3);
    expect(after.connections).toBeGreaterThanOrEqual(3);
    expect(after.peak_open_connections).toBe(during.peak_open_connections);
  });

  test.each([
    [{ networks: [{ id: "n1", projectId: 1, regionId: 1 }] }, "networks[0].project_id must be an integer"],
    [{ volumes: [{ name: "v", project_id: 1, region_id: 1 }] }, 'volumes[0] has no "id"'],
    [{ client_quotas: [{ threshold: 80 }] }, 'client_quotas[0] has no "client_id"'],
    [{ ports: [] }, 'unknown seed collection "ports"'],
    [{ networks: { n1: { id: "n1", project_id: 1, region_id: 1 } } }, "networks must be a list of records"],
    // Every bad record is named, not only the first one met.
    [
      { networks: [{ id: "n1", project_id: 1, region_id: "1" }], volumes: [{ id: "v1", project_id: 1.5, region_id: 1 }] },
      "networks[0].region_id must be an integer (records use the API's snake_case names); volumes[0].project_id must be an integer",
    ],
  ])("a bad seed %p is refused whole: %s", async (seed, message) => {
    const before = (await control("GET", "state")).body;
    const res = await control("POST", "seed", { routers: [{ id: "r-new", project_id: 1, region_id: 1 }], ...seed });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await control("GET", "state")).body).toEqual(before); // nothing half-applied
  });

  test("reset returns to the seed; the request log has method, path, status, ms and never the key", async () => {
    await call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", { name: "changed" });
    expect((await control("POST", "reset")).status).toBe(204);
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/101")).body.name).toBe("nightly-snapshots");
    const logs = (await control("GET", "logs")).body.lines as string[];
    expect(logs.at(-1)).toMatch(/^GET \/cloud\/v1\/lifecycle_policy\/1\/1\/101 200 \d+ms$/);
    expect(logs.join("\n")).not.toContain(KEY);
    const state = (await control("GET", "state")).body;
    expect(Object.keys(state.collections.lbpools)).toContain(POOL);
  });
});

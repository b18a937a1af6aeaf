// The API's own projects and regions, the reads that prove a key (emulator/routes/projects.ts).
import { call, NET, restartEmulator, SEED, useEmulator } from "./api";

useEmulator();

describe("projects and regions (the reads that prove a key)", () => {
  test("GET a seeded project and region: their records; an unknown one: 404 NotFoundError", async () => {
    expect((await call("GET", "/cloud/v1/projects/2")).body).toEqual({
      id: 2,
      client_id: 1,
      name: "prod",
      description: "Production",
      is_default: false,
      state: "ACTIVE",
      created_at: "2026-05-01T08:00:00",
      deleted_at: null,
      task_id: null,
    });
    const region = (await call("GET", "/cloud/v1/regions/3")).body;
    expect(region).toMatchObject({ id: 3, display_name: "Frankfurt", state: "ACTIVE" });
    expect(region).not.toHaveProperty("name");
    for (const p of ["/cloud/v1/projects/99", "/cloud/v1/regions/99"]) {
      const res = await call("GET", p);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ exception_class: "NotFoundError", message: expect.stringMatching(/99 not found/) });
    }
  });

  test("projects list: paged by limit/offset, filtered by name", async () => {
    expect((await call("GET", "/cloud/v1/projects?limit=1")).body).toEqual({ count: 2, results: [expect.objectContaining({ id: 1 })] });
    expect((await call("GET", "/cloud/v1/projects?name=prod")).body).toMatchObject({ count: 1, results: [{ id: 2 }] });
    expect((await call("GET", "/cloud/v1/projects?order_by=id")).status).toBe(400);
  });

  test("no key: 401 NotAuthenticated; a wrong key: 401 AuthenticationFailed, in the service's words", async () => {
    const none = await call("GET", "/cloud/v1/projects/1", undefined, { key: null });
    expect([none.status, none.body.exception_class, none.body.message]).toEqual([
      401,
      "NotAuthenticated",
      "Authentication credentials were not provided.",
    ]);
    const wrong = await call("GET", "/cloud/v1/projects/1", undefined, { key: "wrong" });
    expect([wrong.status, wrong.body.exception_class, wrong.body.message]).toEqual([
      401,
      "AuthenticationFailed",
      "Authentication credentials were not provided.",
    ]);
  });

  test("an account's further keys are accepted beside the first (a rotation); any other key is not", async () => {
    await restartEmulator({ moreApiKeys: ["rotated-key"], seed: SEED });
    expect((await call("GET", "/cloud/v1/projects/1", undefined, { key: "rotated-key" })).status).toBe(200);
    expect((await call("GET", "/cloud/v1/projects/1")).status).toBe(200);
    expect((await call("GET", "/cloud/v1/projects/1", undefined, { key: "rotated-key2" })).body.exception_class).toBe(
      "AuthenticationFailed",
    );
  });

  test("a seed that lists no projects gets one for each project its records name, and no other", async () => {
    await restartEmulator({
      seed: { networks: [{ id: NET, name: "n", project_id: 7, region_id: 1 }] },
    });
    expect((await call("GET", "/cloud/v1/projects/7")).body).toMatchObject({ id: 7, name: "Project 7", state: "ACTIVE" });
    expect((await call("GET", "/cloud/v1/projects/1")).status).toBe(404);
  });
});

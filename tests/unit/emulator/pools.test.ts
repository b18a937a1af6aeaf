// Load balancer pools over HTTP: the member-keeping rule, health monitors, timeouts
// (emulator/collections/lb-pool-settings.ts).
import { memberRecord } from "../../support/records";
import { call, KEPT_MEMBER, POOL, useEmulator, waitTask } from "./api";

useEmulator();

describe("load balancer pools", () => {
  test("a member on a subnet that does not exist: the PATCH (v1 and the SDK's v2) is 404, as the member POST's; the pool is unchanged", async () => {
    const before = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body;
    const member = { address: "10.0.0.77", protocol_port: 80, subnet_id: "6f1e8a01-4a5f-4d1b-9a57-3c2f0b7d9c9e" };
    for (const path of [`/cloud/v1/lbpools/1/1/${POOL}`, `/cloud/v2/lbpools/1/1/${POOL}`]) {
      const res = await call("PATCH", path, { members: [member] });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ exception_class: "NotFoundError" });
      expect(res.body.message).toContain(member.subnet_id);
    }
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body).toEqual(before);
  });

  test("members with the same address and port are kept (same id, untouched); others are created", async () => {
    const res = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, {
      members: [
        { address: "10.0.0.10", protocol_port: 8080, weight: 50 },
        { address: "10.0.0.11", protocol_port: 8080, weight: 2 },
      ],
    });
    expect(res.status).toBe(200);
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.provisioning_status).toBe("PENDING_UPDATE");
    expect((await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { name: "x" })).status).toBe(409);
    const task = await waitTask(res.body.tasks[0]);
    const pool = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body;
    expect(pool.provisioning_status).toBe("ACTIVE");
    expect(pool.members[0]).toEqual(memberRecord({ id: KEPT_MEMBER, address: "10.0.0.10", protocol_port: 8080 }));
    // A new member has every field of the vendor's member record, as the service fills them.
    expect(pool.members[1]).toEqual(
      memberRecord({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), address: "10.0.0.11", protocol_port: 8080, weight: 2 }),
    );
    expect(task.created_resources.members).toEqual([pool.members[1].id]);
  });

  test("a member's address spelled differently (IPv6 case, zeros) is the same member, kept", async () => {
    const first = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { members: [{ address: "2001:db8::a", protocol_port: 80 }] });
    await waitTask(first.body.tasks[0]);
    const before = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.members[0];
    const again = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { members: [{ address: "2001:DB8:0::A", protocol_port: 80 }] });
    // The same member: nothing changes, so no task (the service answers {"tasks": []}).
    expect(again.body).toEqual({ tasks: [] });
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.members).toEqual([before]);
  });

  test("members come back in the service's order (by address and port), not the request's", async () => {
    const res = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, {
      members: [
        { address: "10.0.0.30", protocol_port: 80 },
        { address: "10.0.0.20", protocol_port: 80 },
      ],
    });
    await waitTask(res.body.tasks[0]);
    const members = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.members;
    expect(members.map((m: { address: string }) => m.address)).toEqual(["10.0.0.20", "10.0.0.30"]);
  });

  test("a PATCH that changes nothing answers {tasks: []}; session_persistence null removes it; DELETE .../healthmonitor removes the monitor", async () => {
    const hm = { type: "TCP", delay: 5, timeout: 5, max_retries: 3 };
    const set = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { healthmonitor: hm, session_persistence: { type: "SOURCE_IP" } });
    await waitTask(set.body.tasks[0]);
    const pool = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body;
    expect(
      (await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { name: pool.name, session_persistence: { type: "SOURCE_IP" } })).body,
    ).toEqual({ tasks: [] });
    const unset = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { session_persistence: null });
    await waitTask(unset.body.tasks[0]);
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.session_persistence).toBeNull();
    expect((await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { healthmonitor: null })).status).toBe(400);
    expect((await call("DELETE", `/cloud/v1/lbpools/1/1/${POOL}/healthmonitor`)).status).toBe(204);
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.healthmonitor).toBeNull();
    expect((await call("DELETE", `/cloud/v1/lbpools/1/1/${POOL}/healthmonitor`)).status).toBe(404);
  });

  test("a seeded member whose address is not an IP does not break PATCHes of its pool", async () => {
    const pool = { ...(await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body };
    pool.members = [{ ...pool.members[0], address: "legacy-host" }];
    expect((await call("POST", "/__emulator/seed", { lbpools: [pool] }, { key: null })).status).toBe(204);
    const res = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { members: [{ address: "10.0.0.99", protocol_port: 80 }] });
    expect(res.status).toBe(200);
    expect((await waitTask(res.body.tasks[0])).state).toBe("FINISHED");
  });

  test("members: null empties the pool; a health monitor and timeouts are set", async () => {
    const res = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, {
      members: null,
      healthmonitor: { type: "HTTP", delay: 10, timeout: 5, max_retries: 3 },
      timeout_client_data: 0,
      timeout_member_data: 86400000,
    });
    await waitTask(res.body.tasks[0]);
    const pool = (await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body;
    expect(pool.members).toEqual([]);
    expect(pool.healthmonitor).toMatchObject({ type: "HTTP", delay: 10, timeout: 5, max_retries: 3 });
    expect(pool.timeout_client_data).toBe(0);
    expect(pool.timeout_member_data).toBe(86400000);
  });

  test("out-of-range timeouts and malformed pool ids are rejected", async () => {
    const res = await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { timeout_member_connect: 86400001 });
    expect(Object.keys(res.body.invalid_fields)).toEqual(["timeout_member_connect"]);
    expect((await call("GET", "/cloud/v1/lbpools/1/1/not-a-uuid")).status).toBe(400);
    expect((await call("GET", "/cloud/v1/lbpools/1/1/44444444-4444-4444-8444-444444444444")).status).toBe(404);
  });
});

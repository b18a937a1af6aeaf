// Pool members one by one over HTTP: tasks, the subnet they hold, conflicts
// (emulator/collections/lb-pool-member.ts).
import { memberRecord } from "../../support/records";
import { call, createSubnet, KEPT_MEMBER, POOL, useEmulator, waitTask } from "./api";

useEmulator();

describe("pool members one by one", () => {
  const MEMBERS = `/cloud/v1/loadbalancers/1/1/pools/${POOL}/members`;

  test("create, read, update and delete through tasks; the member lives in its pool, so its subnet is held until it goes", async () => {
    const subnet = await createSubnet({ cidr: "10.77.0.0/24" });
    const made = await call("POST", MEMBERS, { address: "10.77.0.5", protocol_port: 80, subnet_id: subnet, monitor_port: 9000 });
    expect(made.status).toBe(200);
    const task = await waitTask(made.body.tasks[0]);
    expect(task).toMatchObject({ state: "FINISHED", task_type: "create_lbmember" });
    const [id] = task.created_resources.members;
    const member = (await call("GET", `${MEMBERS}/${id}`)).body;
    expect(member).toEqual(memberRecord({ id, address: "10.77.0.5", protocol_port: 80, subnet_id: subnet, monitor_port: 9000 }));
    expect((await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`)).body.members.map((m: { id: string }) => m.id)).toContain(id);
    expect((await call("GET", MEMBERS)).body.results.map((m: { id: string }) => m.id)).toContain(id);
    expect((await call("DELETE", `/cloud/v1/subnets/1/1/${subnet}`)).status).toBe(409);

    const changed = await call("PATCH", `${MEMBERS}/${id}`, { weight: 4, monitor_port: null });
    expect((await waitTask(changed.body.tasks[0])).task_type).toBe("update_lbmember");
    expect((await call("GET", `${MEMBERS}/${id}`)).body).toMatchObject({ id, weight: 4, monitor_port: null });
    expect((await call("PATCH", `${MEMBERS}/${id}`, { weight: 4 })).body).toEqual({ tasks: [] });

    const gone = await call("DELETE", `${MEMBERS}/${id}`);
    expect((await waitTask(gone.body.tasks[0])).task_type).toBe("delete_lbmember");
    expect((await call("GET", `${MEMBERS}/${id}`)).status).toBe(404);
    expect((await waitTask((await call("DELETE", `/cloud/v1/subnets/1/1/${subnet}`)).body.tasks[0])).state).toBe("FINISHED");
  });

  test.each<[string, Record<string, unknown>, RegExp | string]>([
    ["address, on an update", { address: "10.0.0.99" }, "address"],
    ["an unknown field", { weigth: 2 }, "weigth"],
    ["weight 0", { weight: 0 }, "weight"],
  ])("PATCH refuses %s (400, naming the field)", async (_what, body, field) => {
    const res = await call("PATCH", `${MEMBERS}/${KEPT_MEMBER}`, body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.invalid_fields)).toEqual([field]);
  });

  test("POST refuses a member at an address and port the pool has (409, naming it), an unknown subnet (404), and both subnet and instance (400); neither is a public member", async () => {
    const subnet = await createSubnet({ cidr: "10.78.0.0/24" });
    const taken = await call("POST", MEMBERS, { address: "10.0.0.10", protocol_port: 8080, subnet_id: subnet });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain(`a member at 10.0.0.10:8080 already (${KEPT_MEMBER})`);
    const unknown = await call("POST", MEMBERS, {
      address: "10.78.0.9",
      protocol_port: 80,
      subnet_id: "6f1e8a01-4a5f-4d1b-9a57-3c2f0b7d9c9e",
    });
    expect(unknown.status).toBe(404);
    const both = await call("POST", MEMBERS, {
      address: "10.78.0.9",
      protocol_port: 80,
      subnet_id: subnet,
      instance_id: "6f1e8a01-4a5f-4d1b-9a57-3c2f0b7d9c9e",
    });
    expect(both.status).toBe(400);
    const neither = await call("POST", MEMBERS, { address: "203.0.113.9", protocol_port: 80 });
    expect(neither.status).toBe(200);
    await waitTask(neither.body.tasks[0]);
    const pool = await call("GET", `/cloud/v1/lbpools/1/1/${POOL}`);
    const publicMember = pool.body.members.find((m: { address: string }) => m.address === "203.0.113.9");
    expect(publicMember).toMatchObject({ protocol_port: 80, subnet_id: null });
    await waitTask((await call("DELETE", `${MEMBERS}/${publicMember.id}`)).body.tasks[0]);
    await waitTask((await call("DELETE", `/cloud/v1/subnets/1/1/${subnet}`)).body.tasks[0]);
  });

  test("POST by instance: an instance of the pool's scope (from the seed) is taken, any other is 404", async () => {
    const INSTANCE = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d";
    const OTHER_SCOPE = "7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f";
    const seeded = await call("POST", "/__emulator/seed", {
      instances: [
        { id: INSTANCE, name: "web-1", project_id: 1, region_id: 1 },
        { id: OTHER_SCOPE, name: "web-2", project_id: 2, region_id: 1 },
      ],
    });
    expect(seeded.status).toBe(204);
    for (const id of ["6f1e8a01-4a5f-4d1b-9a57-3c2f0b7d9c9e", OTHER_SCOPE]) {
      const unknown = await call("POST", MEMBERS, { address: "10.79.0.9", protocol_port: 80, instance_id: id });
      expect({ status: unknown.status, message: unknown.body.message }).toEqual({ status: 404, message: expect.stringContaining(id) });
    }
    const made = await call("POST", MEMBERS, { address: "10.79.0.9", protocol_port: 80, instance_id: INSTANCE });
    expect(made.status).toBe(200);
    const [id] = (await waitTask(made.body.tasks[0])).created_resources.members;
    expect((await call("GET", `${MEMBERS}/${id}`)).body).toMatchObject({ id, address: "10.79.0.9", subnet_id: null });
  });
});

// Subnets over HTTP: tasks, defaults, canonical records, tags, locks and conflicts
// (emulator/collections/subnet.ts).
import { call, createSubnet, NET, POOL, ROUTER, TS, useEmulator, waitTask } from "./api";

useEmulator();

describe("subnets", () => {
  test("create -> task NEW/RUNNING/FINISHED -> GET, with the backend's defaults", async () => {
    const res = await call("POST", "/cloud/v1/subnets/1/1", { name: "app", cidr: "10.1.0.0/24", network_id: NET, tags: { env: "dev" } });
    const taskId = res.body.tasks[0];
    const first = await call("GET", `/cloud/v1/tasks/${taskId}`);
    expect(first.body.state).toBe("NEW");
    expect(first.body.created_resources).toBeNull();
    expect(first.body.created_on).toMatch(TS);
    const task = await waitTask(taskId);
    expect(task).toMatchObject({ state: "FINISHED", task_type: "create_subnet", error: null });
    expect(task.finished_on).toMatch(TS);
    expect(task.created_resources.images).toEqual([]);
    const id = task.created_resources.subnets[0];
    const subnet = (await call("GET", `/cloud/v1/subnets/1/1/${id}`)).body;
    expect(subnet).toMatchObject({
      id,
      name: "app",
      cidr: "10.1.0.0/24",
      network_id: NET,
      ip_version: 4,
      enable_dhcp: true,
      gateway_ip: "10.1.0.1",
      dns_nameservers: [],
      host_routes: [],
      // A list, with the service's own read-only tag: the task that created it.
      tags: [
        { key: "env", value: "dev", read_only: false },
        { key: "creator_task_id", value: taskId, read_only: true },
      ],
      has_router: false,
      creator_task_id: taskId,
      total_ips: 254,
      available_ips: 253,
      project_id: 1,
      region_id: 1,
    });
    // Create-only instructions are not part of the record.
    expect(subnet).not.toHaveProperty("connect_to_network_router");
    expect(subnet).not.toHaveProperty("router_id_to_connect");
    expect((await call("GET", `/v1/tasks/${taskId}`)).body.id).toBe(taskId);
  });

  test("records hold canonical spellings; host routes come back in the service's order; an IPv6 /64 counts 2^64 addresses, exactly", async () => {
    const id = await createSubnet({
      cidr: "2001:DB8:0:0::/64",
      network_id: NET.toUpperCase(),
      gateway_ip: "2001:DB8::1",
      dns_nameservers: ["2001:4860:4860:0:0:0:0:8888"],
      host_routes: [
        { destination: "2001:db8:ff::/48", nexthop: "2001:DB8::FE" },
        { destination: "2001:db8:1::/48", nexthop: "2001:db8::fd" },
      ],
    });
    const res = await call("GET", `/cloud/v1/subnets/1/1/${id}`);
    expect(res.body).toMatchObject({
      cidr: "2001:db8::/64",
      network_id: NET,
      gateway_ip: "2001:db8::1",
      dns_nameservers: ["2001:4860:4860::8888"],
      host_routes: [
        { destination: "2001:db8:1::/48", nexthop: "2001:db8::fd" },
        { destination: "2001:db8:ff::/48", nexthop: "2001:db8::fe" },
      ],
    });
    expect(res.text).toContain('"total_ips":18446744073709551616');
    expect(res.text).toContain('"available_ips":18446744073709551615');
  });

  test("tags: a read-only tag cannot be set, changed or removed (400); users' tags merge around it", async () => {
    expect(
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.7.0.0/24", network_id: NET, tags: { creator_task_id: "x" } }))
        .status,
    ).toBe(400);
    const id = await createSubnet({ tags: { a: "1" } });
    for (const tags of [{ creator_task_id: "mine" }, { creator_task_id: null }]) {
      const res = await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { tags });
      expect(res.status).toBe(400);
      expect(res.body.invalid_fields).toEqual({ tags: ["Tag creator_task_id is read-only: the service sets it."] });
    }
    const res = await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { tags: { a: null, b: "2" } });
    expect(res.body.tags).toEqual([
      { key: "b", value: "2", read_only: false },
      { key: "creator_task_id", value: expect.any(String), read_only: true },
    ]);
  });

  test("gateway_ip null is kept as null (with connect_to_network_router false); enable_dhcp false is kept", async () => {
    const id = await createSubnet({ gateway_ip: null, connect_to_network_router: false, enable_dhcp: false });
    const subnet = (await call("GET", `/cloud/v1/subnets/1/1/${id}`)).body;
    expect(subnet.gateway_ip).toBeNull();
    expect(subnet.enable_dhcp).toBe(false);
  });

  test("a camelCase field is rejected, not ignored", async () => {
    const res = await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", networkId: NET });
    expect(res.status).toBe(400);
    expect(res.body.exception_class).toBe("ValidationError");
    expect(Object.keys(res.body.invalid_fields)).toEqual(expect.arrayContaining(["networkId", "network_id"]));
  });

  test("unknown network or router: 404; another project: 404", async () => {
    expect(
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: "11111111-1111-4111-8111-111111111111" }))
        .status,
    ).toBe(404);
    expect((await call("POST", "/cloud/v1/subnets/2/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET })).status).toBe(404);
    const res = await call("POST", "/cloud/v1/subnets/1/1", {
      name: "s",
      cidr: "10.1.0.0/24",
      network_id: NET,
      router_id_to_connect: "22222222-2222-4222-8222-222222222222",
    });
    expect(res.body.message).toContain("Router");
    expect(
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET, router_id_to_connect: ROUTER }))
        .status,
    ).toBe(200);
  });

  test("an overlapping CIDR ends the task in ERROR with the reason", async () => {
    await createSubnet();
    const res = await call("POST", "/cloud/v1/subnets/1/1", { name: "dup", cidr: "10.1.0.128/25", network_id: NET });
    const task = await waitTask(res.body.tasks[0]);
    expect(task.state).toBe("ERROR");
    expect(task.error).toContain("overlaps with another subnet");
  });

  test("an overlapping CIDR still being created also ends the second task in ERROR", async () => {
    const body = { name: "s", cidr: "10.9.0.0/24", network_id: NET };
    const first = await call("POST", "/cloud/v1/subnets/1/1", body);
    const second = await call("POST", "/cloud/v1/subnets/1/1", { ...body, cidr: "10.9.0.0/16" });
    expect((await waitTask(first.body.tasks[0])).state).toBe("FINISHED");
    const failed = await waitTask(second.body.tasks[0]);
    expect(failed.state).toBe("ERROR");
    expect(failed.error).toContain("overlaps with another subnet");
  });

  test("PATCH updates in place (tags merge, null removes); other fields cannot change", async () => {
    const id = await createSubnet({ tags: { a: "1", b: "2" } });
    const res = await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { name: "renamed", enable_dhcp: false, tags: { b: null, c: "3" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "renamed", enable_dhcp: false });
    expect(res.body.tags.filter((t: { read_only: boolean }) => !t.read_only)).toEqual([
      { key: "a", value: "1", read_only: false },
      { key: "c", value: "3", read_only: false },
    ]);
    expect((await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { cidr: "10.9.0.0/24" })).status).toBe(400);
  });

  test("gateway_ip at the network or broadcast address: create and PATCH are 400 ValidationError naming gateway_ip; a /31 has no such address", async () => {
    for (const gateway_ip of ["10.1.0.0", "10.1.0.255"]) {
      const res = await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET, gateway_ip });
      expect(res.status).toBe(400);
      expect(res.body.exception_class).toBe("ValidationError");
      expect(res.body.invalid_fields).toEqual({
        gateway_ip: [expect.stringMatching(/address of cidr 10\.1\.0\.0\/24 \(10\.1\.0\.(0|255)\)/)],
      });
    }
    const id = await createSubnet();
    for (const gateway_ip of ["10.1.0.0", "10.1.0.255"]) {
      const res = await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { gateway_ip });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.invalid_fields)).toEqual(["gateway_ip"]);
    }
    expect((await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { gateway_ip: "10.1.0.254" })).status).toBe(200);
    await createSubnet({ cidr: "10.2.0.0/31", gateway_ip: "10.2.0.0" });
  });

  test("DELETE returns a task; a second mutation while it runs is 409; then the subnet is gone", async () => {
    const id = await createSubnet();
    const del = await call("DELETE", `/cloud/v1/subnets/1/1/${id}`);
    const again = await call("PATCH", `/cloud/v1/subnets/1/1/${id}`, { name: "x" });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(`locked by running task ${del.body.tasks[0]}`);
    await waitTask(del.body.tasks[0]);
    expect((await call("GET", `/cloud/v1/subnets/1/1/${id}`)).status).toBe(404);
  });

  test("DELETE of a subnet a pool member uses is 409 ConflictError, as the service's; once the member is gone it deletes", async () => {
    const id = await createSubnet();
    const member = { address: "10.1.0.10", protocol_port: 8080, subnet_id: id };
    await waitTask((await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { members: [member] })).body.tasks[0]);
    const refused = await call("DELETE", `/cloud/v1/subnets/1/1/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ exception_class: "ConflictError", request_id: expect.any(String) });
    expect(refused.body.message).toMatch(/one or more ports have an IP allocation from this subnet/i);
    expect((await call("GET", `/cloud/v1/subnets/1/1/${id}`)).status).toBe(200); // no task started: still there
    await waitTask((await call("PATCH", `/cloud/v1/lbpools/1/1/${POOL}`, { members: [] })).body.tasks[0]);
    const del = await call("DELETE", `/cloud/v1/subnets/1/1/${id}`);
    expect(del.status).toBe(200);
    expect((await waitTask(del.body.tasks[0])).state).toBe("FINISHED");
    expect((await call("GET", `/cloud/v1/subnets/1/1/${id}`)).status).toBe(404);
  });
});

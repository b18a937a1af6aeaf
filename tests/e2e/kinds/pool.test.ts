// LbPoolSettings under the real engine: the seeded member kept (same id), members added,
// order-insensitive no-op preview, in-place update (a member's weight in place, same id), replacement (another pool), drift via
// refresh, and destroy (of a replaced resource, and of the stack) removing the stack's members
// and leaving the pool and its settings.
import { api, SEED, stateOf, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const OTHER_POOL = "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70";
const stacks = useStacks();

test(
  "LbPoolSettings lifecycle",
  async () => {
    const env = await stacks.program("pool", { poolId: SEED.poolId, extraMember: "10.0.0.20" });
    const { stack } = env;
    await stack.up();
    const pool = () => api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`).then((r) => r.body);
    let p = await pool();
    expect(p).toMatchObject({ name: "e2e-pool", lb_algorithm: "ROUND_ROBIN", timeout_client_data: 0 });
    expect(p.members[0].id).toBe(SEED.keptMemberId);
    expect(p.members[1]).toMatchObject({ address: "10.0.0.20", weight: 3 });
    // null is kept as null through the engine (not dropped as "omitted" = unmanaged).
    const poolState = (await stack.exportState()).deployment.resources?.find((r) => r.type.endsWith("cims:LbPoolSettings"));
    expect(poolState?.inputs).toHaveProperty("crlSecretId", null);
    expect(poolState?.outputs).toHaveProperty("crlSecretId", null);
    await stack.preview(["--expect-no-changes"]);

    await stack.setConfig("algorithm", "LEAST_CONNECTIONS");
    await stack.setConfig("extraMember", "10.0.0.21");
    await stack.setConfig("clientTimeout", "86400000");
    const up = await stack.up();
    expect(up.stdout).toMatch(/LbPoolSettings of pool .*: task [0-9a-f-]+ .*FINISHED/);
    p = await pool();
    expect(p.lb_algorithm).toBe("LEAST_CONNECTIONS");
    expect(p.timeout_client_data).toBe(86400000);
    expect(p.members.map((m: { address: string; id: string }) => m.address)).toEqual(["10.0.0.10", "10.0.0.21"]);
    expect(p.members[0].id).toBe(SEED.keptMemberId);
    await stack.preview(["--expect-no-changes"]);

    // A member's weight: one PATCH of that member, in place (same id, no gap); the change
    // lands and the next preview is clean.
    const before21 = p.members[1].id;
    await stack.setConfig("extraWeight", "7");
    const reweigh = await stack.up();
    expect(reweigh.stdout).toContain(`member 10.0.0.21:8080 (id ${before21}) weight 3 -> 7, in place`);
    p = await pool();
    expect(p.members[1]).toMatchObject({ address: "10.0.0.21", weight: 7 });
    expect(p.members[1].id).toBe(before21);
    expect(p.members[0].id).toBe(SEED.keptMemberId);
    await stack.preview(["--expect-no-changes"]);

    // Drift: the algorithm changed outside Pulumi.
    const task = (await api(env, "PATCH", `/cloud/v1/lbpools/1/1/${SEED.poolId}`, { lb_algorithm: "SOURCE_IP" })).body.tasks[0];
    for (let s = ""; s !== "FINISHED"; await new Promise((r) => setTimeout(r, 100)))
      s = (await api(env, "GET", `/cloud/v1/tasks/${task}`)).body.state;
    await stack.refresh();
    expect((await stateOf(env, "LbPoolSettings"))?.lbAlgorithm).toBe("SOURCE_IP");
    expect((await stack.preview(["--diff"])).stdout).toMatch(/~ lbAlgorithm\s*: "SOURCE_IP" => "LEAST_CONNECTIONS"/);
    await stack.up();
    expect((await pool()).lb_algorithm).toBe("LEAST_CONNECTIONS");
    await stack.refresh(["--expect-no-changes"]);

    // Another pool (in another project and region): a replacement.
    await stack.setConfig("poolId", OTHER_POOL);
    await stack.setConfig("poolProject", "2");
    await stack.setConfig("poolRegion", "3");
    await stack.up();
    expect((await stack.outputs()).id).toBe(OTHER_POOL);
    const other = () => api(env, "GET", `/cloud/v1/lbpools/2/3/${OTHER_POOL}`).then((r) => r.body);
    expect((await other()).name).toBe("e2e-pool");
    // The replaced resource's delete took the stack's members out of the first pool; its settings stay.
    expect(await pool()).toMatchObject({ lb_algorithm: "LEAST_CONNECTIONS", members: [] });

    await stack.destroy();
    expect(await other()).toMatchObject({ name: "e2e-pool", members: [] });
    expect((await pool()).lb_algorithm).toBe("LEAST_CONNECTIONS");
  },
  E2E_TIMEOUT_MS,
);

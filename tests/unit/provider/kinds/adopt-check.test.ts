// Adopting what exists, in process on both faces (the provider as the engine calls it,
// against the emulator). By importId: refused at check (the preview), before any write, for a
// record whose cidr differs from the program's (cidr cannot change in place) and for an
// importId that names no record. An LbPoolSettings whose pool already holds the settings: no
// warning, the pool read, nothing written, no task, no diff before or after a refresh. How
// the engine shows a check's failure is tests/e2e/failures/bad-inputs.test.ts; what adopting
// writes, under the real engine, is tests/e2e/import/adopt.test.ts.
import { setLogSink } from "../../../../provider/methods/context";
import { api, SEED, writes } from "../../../support/cims";
import { subnetRecord } from "../../../support/records";
import { withEmulatedState } from "../faults/matrix";

const SUBNET_ID = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const MISSING_ID = "7d4e5f6a-7b8c-4d9e-9f0a-2b3c4d5e6f70";
const legacy = { name: "legacy", cidr: "10.60.0.0/24", networkId: SEED.networkId, tags: { team: "net" } };

describe.each(["dynamic", "native"] as const)("adopting a Subnet, %s face", (face) => {
  test(
    "check refuses a record whose cidr differs and an importId that names no subnet, writing nothing",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        const seeded = await api(env, "POST", "/__emulator/seed", { subnets: [subnetRecord({ id: SUBNET_ID, tags: { team: "net" } })] });
        expect(seeded.status).toBe(204);
        env.emulator.metrics.reset();
        const refusal = (program: Record<string, unknown>) =>
          state.up("legacy", program).then(
            () => "adopted",
            (err: unknown) => (err instanceof Error ? err.message : String(err)),
          );

        expect(await refusal({ ...legacy, cidr: "10.61.0.0/24", importId: SUBNET_ID })).toMatch(
          /cidr: the subnet to adopt \(importId 4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\) has "10\.60\.0\.0\/24", the program "10\.61\.0\.0\/24"; cidr cannot change in place/,
        );
        expect(await refusal({ ...legacy, importId: MISSING_ID })).toMatch(
          new RegExp(`importId: no subnet ${MISSING_ID} in project 1, region 1`),
        );
        expect(writes(env)).toEqual([]);
        expect(state.ids()).toEqual([]);
        expect(env.emulator.store.list("subnets").map((s) => s.id)).toEqual([SUBNET_ID]);
      }),
    60_000,
  );

  test(
    "an LbPoolSettings whose pool already holds its settings and adopts its member on purpose: only the adoption said, the pool read, nothing written, no task, no diff before or after a refresh",
    () =>
      withEmulatedState("LbPoolSettings", face, async (env, state) => {
        const member = { address: "10.0.0.10", protocolPort: 8080 };
        const settings = { poolId: SEED.poolId, name: "web-pool", members: [member], adoptMembers: [SEED.keptMemberId] };
        const said: string[] = [];
        setLogSink((line, severity) => void said.push(`${severity}: ${line}`));
        env.emulator.metrics.reset();
        await state.up("pool", settings);
        // A create that takes nothing from the pool says only what it adopts.
        expect(said.filter((l) => l.startsWith("warning"))).toEqual([
          `warning: cims: LbPoolSettings of pool ${SEED.poolId}: the create adopts member(s) 10.0.0.10:8080 (id ${SEED.keptMemberId}) as they are: the stack manages them from now on, and destroy leaves them in the pool`,
        ]);
        const requests = env.emulator.metrics.snapshot().requests;
        // Read twice: by check() (what the create would take from the pool: nothing, so no warning) and by the create.
        expect(requests).toMatchObject({ "GET /cloud/v1/lbpools/:project_id/:region_id/:pool_id 200": 2 });
        expect(Object.keys(requests).filter((k) => !k.startsWith("GET "))).toEqual([]);
        expect(env.emulator.engine.metrics()).toEqual([]); // no task was started
        const recorded = state.resources.get("pool")?.outs;
        expect(recorded?.taskIds).toEqual([]);
        expect(await state.changes("pool", settings)).toBe(false);
        await state.refresh("pool");
        expect(await state.changes("pool", settings)).toBe(false);
      }),
    60_000,
  );
});

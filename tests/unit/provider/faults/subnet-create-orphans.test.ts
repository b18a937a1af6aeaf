// No orphans, Subnet create under failure, in process (the provider as the engine calls it,
// against the emulator): whenever the service may have made the subnet, either the failure
// carries its id (the engine records it) and the next `up` continues from it, or the error
// says where to find it. Each ends with the state equal to the service after the next `up`,
// one subnet, and nothing more to change. What only the engine shows of a partly created
// subnet (a stack's state holding it, refresh keeping it while its task runs) is
// tests/e2e/failures/orphans-create.test.ts.
import { api, SEED } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { failureOf } from "./faces";
import { type State, withEmulatedState } from "./matrix";

// A waiter reading through a dozen failed task reads, a search for the create's mark: tens of seconds.
const ROW_TIMEOUT_MS = 90_000;
const NAME = "e2e-subnet";
const program = { name: NAME, cidr: "10.30.0.0/24", networkId: SEED.networkId, tags: { owner: "e2e" }, timeouts: { create: 600 } };

const subnetIds = (env: Emulated) => env.emulator.store.list("subnets").map((s) => String(s.id));

/** After the fault: the next `up` converges on one subnet, recorded, and nothing more to do. */
async function convergesOnOne(env: Emulated, state: State): Promise<void> {
  await api(env, "DELETE", "/__emulator/faults");
  await state.up(NAME, program);
  expect(subnetIds(env)).toHaveLength(1);
  expect(state.ids()).toEqual(subnetIds(env));
  expect(await state.changes(NAME, program)).toBe(false);
}

const taskFault = (env: Emulated, fault: Record<string, unknown>) =>
  api(env, "POST", "/__emulator/task-faults", { method: "POST", path: "/cloud/v1/subnets/1/1", count: 1, ...fault });

describe.each(["dynamic", "native"] as const)("Subnet create, in process, %s face", (face) => {
  test(
    "two tasks, the first FINISHED with the subnet and the second in ERROR: the failure carries the first's subnet, and the next up continues from it",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        await taskFault(env, { message: "Port allocation failed", alongside: true });
        const failure = await state.up(NAME, program).then(() => undefined, failureOf);
        const [made] = subnetIds(env);
        expect(failure?.message).toMatch(
          new RegExp(`was created \\(id ${made}, task\\(s\\) [0-9a-f-]{36}, [0-9a-f-]{36}\\).*Port allocation failed`),
        );
        expect(failure?.id).toBe(made);
        expect(state.ids()).toEqual([made]);
        await convergesOnOne(env, state);
        expect(subnetIds(env)).toEqual([made]);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "the task's status keeps failing for a while after the POST was accepted: the waiter reads on, and records the subnet",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        await api(env, "POST", "/__emulator/faults", {
          method: "GET",
          path: "/cloud/v1/tasks/*",
          count: 12,
          action: "status",
          status: 500,
        });
        await state.up(NAME, program);
        expect(subnetIds(env)).toHaveLength(1);
        expect(state.ids()).toEqual(subnetIds(env));
        expect(await state.changes(NAME, program)).toBe(false);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "a POST answered 502: the error says the subnet may exist and how to find it; nothing was made, so the next up makes one",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        await api(env, "POST", "/__emulator/faults", {
          method: "POST",
          path: "/cloud/v1/subnets/1/1",
          count: 1,
          action: "status",
          status: 502,
        });
        const failure = await state.up(NAME, program).then(() => undefined, failureOf);
        expect(failure?.message).toMatch(/502 Bad Gateway.*The service may have created Subnet "e2e-subnet"; it is not in the stack/);
        expect(failure?.message).toContain(
          `GET /cloud/v1/subnets/1/1?network_id=${SEED.networkId} lists the network's subnets: look for one named "e2e-subnet" with cidr 10.30.0.0/24. It would carry the tag pulumi-cims-create-mark: `,
        );
        expect(failure?.id).toBeUndefined();
        expect(state.ids()).toEqual([]);
        await convergesOnOne(env, state);
      }),
    ROW_TIMEOUT_MS,
  );
});

describe.each(["dynamic", "native"] as const)("Subnet create task in ERROR, in process, %s face", (face) => {
  test(
    "a task ERROR is a plain failure naming the resource, the task and the service's reason, with no list call and no advice to adopt; created but not read back, the failure carries the subnet (no orphan); after the faults, up converges without a duplicate",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        await taskFault(env, { message: "No free IP addresses in the pool" });
        const failed = await state.up(NAME, program).then(() => undefined, failureOf);
        expect(failed?.message).toMatch(
          /Subnet "e2e-subnet": task [0-9a-f-]{36} \(create_subnet\) failed: No free IP addresses in the pool/,
        );
        // A plain failure: the task said the service made nothing, so no list call after the
        // POST and no advice to adopt.
        expect(failed?.message).not.toContain("importId");
        expect(failed?.message).not.toContain("may have created");
        const posted = env.emulator.logs.findIndex((line) => line.startsWith("POST /cloud/v1/subnets/1/1 "));
        expect(posted).toBeGreaterThanOrEqual(0);
        expect(env.emulator.logs.slice(posted).filter((line) => line.startsWith("GET /cloud/v1/subnets/1/1?"))).toEqual([]);
        expect(subnetIds(env)).toEqual([]);
        expect(failed?.id).toBeUndefined();
        expect(state.ids()).toEqual([]);

        // The next create's task succeeds, but the mark's removal (whose answer is the record)
        // and the read that follows it are each refused once.
        for (const method of ["PATCH", "GET"]) {
          await api(env, "POST", "/__emulator/faults", {
            method,
            path: "/cloud/v1/subnets/1/1/*",
            count: 1,
            action: "status",
            status: 404,
          });
        }
        const unread = await state.up(NAME, program).then(() => undefined, failureOf);
        expect(unread?.message).toMatch(/Subnet "e2e-subnet" was created \(id [0-9a-f-]{36}\) but reading it back failed/);
        const [created] = subnetIds(env);
        expect(unread?.id).toBe(created);
        expect(unread?.properties?.taskIds).toHaveLength(1);
        expect(state.ids()).toEqual([created]);
        await state.up(NAME, program);
        expect(subnetIds(env)).toEqual([created]);
        expect(await state.changes(NAME, program)).toBe(false);
      }),
    ROW_TIMEOUT_MS,
  );
});

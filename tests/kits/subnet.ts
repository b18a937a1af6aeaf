import { api, isKind, SEED } from "../support/cims";
import { byId, type EngineSceneOf, type SceneOf, sleep, stackCommand, tasksEnd } from "../support/scenes";
import type { KindKit } from "./kit";

/** Row `row`'s subnet under the fault matrix: a name of its own (a create's messages name it) and a CIDR of its own. */
export const subnetOf = (row: number) => ({ name: `e2e-subnet-${row}`, cidr: `10.30.${row + 1}.0/24` });
/** How a create's messages name row `row`'s subnet. */
const subnetNamed = (row: number) => `Subnet "${subnetOf(row).name}"`;

/** Each row's own subnet: create adds it, delete destroys it, refresh reads it. */
const scene: SceneOf = async ({ env, state, op, row, program }) => {
  const mine = subnetOf(row);
  const inputs = { ...mine, networkId: SEED.networkId, tags: { owner: "e2e" }, timeouts: { create: Number(program.createTimeout ?? 600) } };
  let wanted = op === "create" ? [] : [mine];
  if (op !== "create") await state.up(mine.name, inputs);
  const inService = () => env.emulator.store.list("subnets");
  return {
    async next() {
      wanted = op === "delete" ? [] : [mine];
    },
    run: () => (op === "delete" ? state.destroy(mine.name) : op === "refresh" ? state.refresh(mine.name) : state.up(mine.name, inputs)),
    async check(converged) {
      expect(state.ids()).toEqual(byId(inService()));
      if (converged)
        expect(inService().map((s) => `${String(s.name)} ${String(s.cidr)}`)).toEqual(wanted.map((s) => `${s.name} ${s.cidr}`));
    },
    settle: () => tasksEnd(env),
  };
};

/**
 * Through the engine: create adds the row's subnet to the program; delete destroys it; refresh
 * refreshes it. On the stack an earlier row left (`on`), the program is the subnets it deployed.
 */
const engineScene: EngineSceneOf = async ({ stacks, op, face, config, row, on }) => {
  let program = op === "create" ? [] : [subnetOf(row)];
  const env = on ?? (await stacks.program("subnet", { networkId: SEED.networkId, subnets: JSON.stringify(program), ...config }, { face }));
  const inService = () => env.emulator.store.list("subnets");
  if (on) program = inService().map((s) => ({ name: String(s.name), cidr: String(s.cidr) }));
  else if (op !== "create") await env.stack.up();
  const inState = async () => byId(((await env.stack.exportState()).deployment.resources ?? []).filter((r) => isKind(r.type, "Subnet")));
  return {
    env,
    async next() {
      if (op === "create") await env.stack.setConfig("subnets", JSON.stringify((program = [...program, subnetOf(row)])));
      if (op === "delete") program = [];
    },
    run: (allowFailure) => stackCommand(env, op, allowFailure),
    async check(converged) {
      expect(await inState()).toEqual(byId(inService()));
      if (converged)
        expect(
          inService()
            .map((s) => `${String(s.name)} ${String(s.cidr)}`)
            .sort(),
        ).toEqual(program.map((s) => `${s.name} ${s.cidr}`).sort());
    },
    async settle() {
      await sleep(4500);
      if (op !== "create") return;
      const recorded = await inState();
      for (const id of byId(inService()).filter((id) => !recorded.includes(id))) await api(env, "DELETE", `/cloud/v1/subnets/1/1/${id}`);
      await sleep(1000);
    },
  };
};

export const Subnet: KindKit = {
  lifecycle: true,
  create: async () => ({ name: "s", cidr: "10.123.0.0/24", network_id: SEED.networkId }),
  values: { gateway_ip: "10.123.0.9", host_routes: [{ destination: "10.124.0.0/24", nexthop: "10.123.0.254" }] },
  faults: {
    // Its update is the engine's PATCH and task, which the member's rows run.
    ops: ["create", "delete", "refresh"],
    create: {
      named: subnetNamed,
      lost: (path) => ({
        "500": { outcome: "fails", message: new RegExp(`POST ${path}: 500 Internal Server Error`) },
        "502": { outcome: "fails", message: new RegExp(`POST ${path}: 502 Bad Gateway`) },
        // Dropped before the service acted: after looking for its mark (15 s at least), the error says how to adopt it if it shows up.
        "connection reset": {
          outcome: "fails",
          message: (row) => new RegExp(`connection failed.*The service may have created ${subnetNamed(row)}.*importId`),
        },
        // The service acts after the client gave up: the subnet carrying the create's mark is found and recorded.
        "response slower than the request timeout": { outcome: "recovers" },
      }),
    },
    scene,
    engineScene,
  },
  example: {
    record: (env, r) => env.emulator.store.get("subnets", r.id),
    afterDestroy: (record) => expect(record).toBeUndefined(),
  },
};

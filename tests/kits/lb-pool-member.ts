import type { ApiRecord } from "../../api/guards";
import { api, SEED } from "../support/cims";
import { subnetRecord } from "../support/records";
import { MEMBER_SUBNET, memberAddress, poolMembers, type SceneOf, sleep, taskEnds, tasksEnd } from "../support/scenes";
import type { KindKit } from "./kit";

const MEMBER = `LbPoolMember 10\\.70\\.\\d+\\.\\d+:8080 of pool ${SEED.poolId}`;
/**
 * A create whose answer was lost: the member may exist; members carry no mark, so none is
 * looked for, and the message says where to look, how to adopt it, and what the next `up`
 * does meanwhile (stops at preview while a member is at that address and port).
 */
const memberMayExist = (members: string, how: string) =>
  new RegExp(
    `${MEMBER}: POST ${members}: ${how}.*The service may have created ${MEMBER}; it is not in the stack\\. ` +
      `GET ${members} lists the pool's members: one at 10\\.70\\.\\d+\\.\\d+:8080 may be the one it made.*` +
      'Adopt it by setting `importId: "<its id>"` on this resource \\(or delete it\\) before the next `pulumi up`, ' +
      "which otherwise stops at preview while a member is at that address and port",
  );

/**
 * A member of the seeded pool, beside another team's member (which nothing may touch), in a
 * seeded subnet: create adds the row's member; update sets its weight; delete removes it;
 * refresh reads it after its weight was changed outside the provider.
 */
const scene: SceneOf = async ({ env, state, op, row }) => {
  const seeded = await api(env, "POST", "/__emulator/seed", {
    subnets: [subnetRecord({ id: MEMBER_SUBNET, name: "members", cidr: "10.70.0.0/16", gateway_ip: "10.70.0.1" })],
  });
  expect(seeded.status).toBe(204);
  const address = memberAddress(op, row);
  let weight = 1;
  let importId: string | undefined;
  const member = () => ({
    poolId: SEED.poolId,
    address,
    protocolPort: 8080,
    subnetId: MEMBER_SUBNET,
    weight,
    ...(importId ? { importId } : {}),
  });
  let wanted = op === "create" ? [] : [address];
  if (op !== "create") await state.up(address, member());
  return {
    async next() {
      if (op === "create") wanted = [address];
      if (op === "update") weight = row + 2;
      if (op === "delete") wanted = [];
      if (op === "refresh") {
        const changed = await api(env, "PATCH", `/cloud/v1/loadbalancers/1/1/pools/${SEED.poolId}/members/${state.ids()[0]}`, {
          weight: row + 10,
        });
        await taskEnds(env, changed.body.tasks[0]);
      }
    },
    run: () => (op === "delete" ? state.destroy(address) : op === "refresh" ? state.refresh(address) : state.up(address, member())),
    async check(converged) {
      const service = (await poolMembers(env)).sort((a, b) => a.id.localeCompare(b.id));
      const recorded = [...state.resources.values()].sort((a, b) => a.id.localeCompare(b.id));
      expect(recorded.map((r) => ({ id: r.id, address: r.outs.address, weight: r.outs.weight }))).toEqual(
        service.map((m) => ({ id: m.id, address: m.address, weight: m.weight })),
      );
      // One member per address and port: nothing was made twice.
      expect(new Set(service.map((m) => `${m.address}:${m.protocol_port}`)).size).toBe(service.length);
      if (!converged) return;
      expect(service.map((m) => m.address)).toEqual(wanted);
      if (op === "update") expect(service.map((m) => m.weight)).toEqual([weight]);
    },
    async settle() {
      await tasksEnd(env);
      if (op !== "create") return;
      // The POST whose answer was lost is acted on a little later: the member appears, not
      // in the state. As the message says: find it in the pool's list, adopt it by importId.
      let made: { id: string } | undefined;
      for (let i = 0; i < 100 && !made; i++, await sleep(100))
        made = (await poolMembers(env)).find((m) => m.address === address && m.protocol_port === 8080);
      expect(made).toBeDefined();
      importId = made?.id;
    },
  };
};

export const LbPoolMember: KindKit = {
  create: async (make) => ({
    address: "10.125.0.7",
    protocol_port: 8443,
    subnet_id: await make("Subnet", { name: "m", cidr: "10.125.0.0/24", network_id: SEED.networkId }),
  }),
  // Members carry no mark: a member at the address and port may be another stack's, so none is
  // taken, and any answer lost after the service may have acted fails saying how to find and adopt it.
  faults: {
    create: {
      named: () => MEMBER,
      lost: (members) => ({
        "500": { outcome: "fails", message: memberMayExist(members, "500 Internal Server Error") },
        "502": { outcome: "fails", message: memberMayExist(members, "502 Bad Gateway") },
        "connection reset": { outcome: "fails", message: memberMayExist(members, "connection failed") },
        // The service makes the member after the client gave up: the test adopts it, as the message says.
        "response slower than the request timeout": {
          outcome: "fails",
          message: memberMayExist(members, "connection failed \\(UND_ERR_HEADERS_TIMEOUT\\): no response in time"),
          settlesLater: true,
        },
      }),
    },
    taskNamed: `${MEMBER} \\([0-9a-f-]{36}\\): `,
    scene,
  },
  example: {
    record: (env, r) => {
      const members = env.emulator.store.get("lbpools", r.outputs?.poolId)?.members;
      const member = Array.isArray(members) ? members.find((m: ApiRecord) => m.id === r.id) : undefined;
      return member && { ...member, pool_id: r.outputs?.poolId };
    },
    afterDestroy: (record) => expect(record).toBeUndefined(),
  },
};

import type { ApiRecord } from "../../api/guards";
import { SEED } from "../support/cims";
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

import type { ApiRecord } from "../../api/guards";
import { SEED } from "../support/cims";
import type { KindKit } from "./kit";

export const LbPoolMember: KindKit = {
  create: async (make) => ({
    address: "10.125.0.7",
    protocol_port: 8443,
    subnet_id: await make("Subnet", { name: "m", cidr: "10.125.0.0/24", network_id: SEED.networkId }),
  }),
  example: {
    record: (env, r) => {
      const members = env.emulator.store.get("lbpools", r.outputs?.poolId)?.members;
      const member = Array.isArray(members) ? members.find((m: ApiRecord) => m.id === r.id) : undefined;
      return member && { ...member, pool_id: r.outputs?.poolId };
    },
    afterDestroy: (record) => expect(record).toBeUndefined(),
  },
};

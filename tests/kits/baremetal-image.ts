import { SEED } from "../support/cims";
import type { KindKit } from "./kit";

export const BaremetalImage: KindKit = {
  lifecycle: true,
  create: async () => ({ name: "i", volume_id: SEED.volumeId }),
  example: {
    record: (env, r) => env.emulator.store.get("images", r.id),
    afterDestroy: (record) => expect(record).toBeUndefined(),
  },
};

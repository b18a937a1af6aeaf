// Networks, volumes and the regions' list (the vendor SDK's networks.list/get, volumes.list/get,
// regions.list): records the resources refer to and the lookups read. Read-only here: the seed
// holds them, completed as the vendor SDK's models require when answered (../store/complete.ts).
import { PATHS } from "../../api/paths";
import { findScoped, listPage, listScoped, type Router, type Services } from "../router";
import { completeNetwork, completeVolume } from "../store/complete";
import type { ApiRecord } from "../../api/guards";

function network(services: Services, record: ApiRecord): ApiRecord {
  const subnets = services.store
    .list("subnets")
    .filter((s) => s.network_id === record.id)
    .map((s) => String(s.id));
  return completeNetwork(record, services.store.regionName, subnets);
}

const volume = (services: Services, record: ApiRecord): ApiRecord => completeVolume(record, services.store.regionName);

/** The region as regions.get answers it: the seed's `name` is the emulator's own (records' `region`). */
export function regionAnswer(region: ApiRecord): ApiRecord {
  const { name: _name, ...answer } = region;
  return answer;
}

/** Each read-only collection: its list and item paths, its store, its id parameter, and how a record is answered. */
const READ_ONLY = [
  { list: PATHS.networks, item: PATHS.network, store: "networks", idParam: "network_id", what: "Network", answer: network },
  { list: PATHS.volumes, item: PATHS.volume, store: "volumes", idParam: "volume_id", what: "Volume", answer: volume },
] as const;

export function registerNetworkRoutes(router: Router, services: Services): void {
  router.add("GET", PATHS.regions, (ctx) => listPage(ctx, services.store.list("regions").map(regionAnswer)));
  for (const c of READ_ONLY) {
    router.add("GET", c.list, (ctx) =>
      listPage(
        ctx,
        listScoped(services, ctx, c.store).map((r) => c.answer(services, r)),
      ),
    );
    router.add("GET", c.item, (ctx) => ({ status: 200, body: c.answer(services, findScoped(services, ctx, c.store, c.idParam, c.what)) }));
  }
}

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

export function registerNetworkRoutes(router: Router, services: Services): void {
  router.add("GET", PATHS.regions, (ctx) => listPage(ctx, services.store.list("regions").map(regionAnswer)));
  router.add("GET", PATHS.networks, (ctx) =>
    listPage(
      ctx,
      listScoped(services, ctx, "networks").map((n) => network(services, n)),
    ),
  );
  router.add("GET", PATHS.network, (ctx) => ({
    status: 200,
    body: network(services, findScoped(services, ctx, "networks", "network_id", "Network")),
  }));
  router.add("GET", PATHS.volumes, (ctx) =>
    listPage(
      ctx,
      listScoped(services, ctx, "volumes").map((v) => volume(services, v)),
    ),
  );
  router.add("GET", PATHS.volume, (ctx) => ({
    status: 200,
    body: volume(services, findScoped(services, ctx, "volumes", "volume_id", "Volume")),
  }));
}

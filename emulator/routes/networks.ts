// Networks and volumes (the vendor SDK's networks.list/get and volumes.list/get): records the
// resources refer to and the lookups read, served from their read-only contracts as a kind's
// calls are from its contract (../serve.ts). The seed holds them, completed as the vendor SDK's
// models require when answered (../store/complete.ts).
import { idParam, type ReadOnlyContract } from "../../api/contract";
import { Network, Volume } from "../../api/contract/read-only";
import type { ApiRecord } from "../../api/guards";
import { findScoped, listPage, listScoped, type Services } from "../router";
import type { Served } from "../serve";
import { completeNetwork, completeVolume } from "../store/complete";
import type { CollectionName } from "../store/store";

/**
 * A project and region's records of one store collection, listed and read by the contract's
 * calls: the id's parameter and the name a 404 says are the contract's.
 */
function scopedReads(
  contract: ReadOnlyContract,
  store: CollectionName,
  answer: (s: Services, r: ApiRecord) => ApiRecord,
): Served<ReadOnlyContract> {
  const id = idParam(contract);
  return {
    contract,
    operations: {
      list: (services, call) =>
        listPage(
          call,
          listScoped(services, call, store).map((r) => answer(services, r)),
        ),
      get: (services, call) => ({ status: 200, body: answer(services, findScoped(services, call, store, id, contract.name)) }),
    },
  };
}

function network(services: Services, record: ApiRecord): ApiRecord {
  const subnets = services.store
    .list("subnets")
    .filter((s) => s.network_id === record.id)
    .map((s) => String(s.id));
  return completeNetwork(record, services.store.regionName, subnets);
}

const volume = (services: Services, record: ApiRecord): ApiRecord => completeVolume(record, services.store.regionName);

export const NetworkReads = scopedReads(Network, "networks", network);

export const VolumeReads = scopedReads(Volume, "volumes", volume);

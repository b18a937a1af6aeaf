// What serves each read-only contract (api/contract/read-only.ts), by the contract's name: one
// entry per contract, so a read-only record added to the API without its emulator side fails
// to compile rather than answering 404.
import type { ReadOnlyName } from "../../api/contract/read-only";
import type { ReadOnlyContract } from "../../api/contract";
import type { Served } from "../serve";
import { NetworkReads, VolumeReads } from "./networks";
import { ProjectReads, RegionReads } from "./projects";

export const READ_ONLY_SERVED: Readonly<Record<ReadOnlyName, Served<ReadOnlyContract>>> = {
  Project: ProjectReads,
  Region: RegionReads,
  Network: NetworkReads,
  Volume: VolumeReads,
};

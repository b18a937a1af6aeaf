// The records the API serves that no stack writes, each a read-only contract (a list and a
// read by id): the lookups read their lists, the client proves a key with a project's, and the
// emulator serves them from these contracts as it serves the kinds'.
import type { ReadOnlyContract } from "./types";
import { Project } from "./project";
import { Region } from "./region";
import { Network } from "./network";
import { Volume } from "./volume";

export { Project, Region, Network, Volume };

/** Every read-only contract, by name. */
export const READ_ONLY = { Project, Region, Network, Volume } as const satisfies Readonly<Record<string, ReadOnlyContract>>;

export type ReadOnlyName = keyof typeof READ_ONLY;

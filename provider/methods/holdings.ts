// What the resources of one program will hold alone in the service (descriptor.ts,
// `Exclusive`): two of them that clash (overlapping CIDRs on one network) would pass a
// preview that only lists the service's records, and leave `up` half-applied when the
// service refuses the second. Each check notes what its resource will hold, and fails when
// another resource of the program already holds what clashes. Notes live in the provider
// process: the dynamic face's one process serves every dynamic resource of a program; the
// plugin runs one process per provider (default or explicit), so a clash between
// resources of different providers is not seen here (the second create's list, before its
// POST, still sees the first's record once it exists).
//
// The engine checks a resource twice when a diff replaces it: with its old inputs, then
// (after the diff) without them, as for a new resource (pkg/resource/deploy/step_generator.go).
// The diff notes the id it saw by what the resource holds; the second check takes it: it is the
// same resource (noted once), and the record it replaces is no obstacle to its replacement. A
// replacement the engine makes without a diff (`up --replace`, a taint, a replacement trigger)
// is checked once, as a new resource, with nothing naming its old record.
import { forgetWithRun } from "./run-memory";

export interface Holding {
  /** Where it is held alone: `network <uuid>`, `pool <uuid>`. */
  place: string;
  /** What is held: a CIDR, `address:port`. */
  value: string;
  /** The input it comes from, for messages. */
  property: string;
}

interface Noted {
  kind: string;
  label: string;
  holding: Holding;
}

const noted: Noted[] = [];
const diffed = new Map<string, string>();

const keyOf = (kind: string, h: Holding) => `${kind}\n${h.place}\n${h.value}`;

/** Forgets every note: the next check is as the first of a new deployment's (unit tests run many in one process). */
export function forgetHoldings(): void {
  noted.length = 0;
  diffed.clear();
}
forgetWithRun(forgetHoldings);

/** A diff saw the resource with this id, holding this: a replacement's second check may follow. */
export function noteDiffed(kind: string, holding: Holding, id: string): void {
  diffed.set(keyOf(kind, holding), id);
}

/** The id of the record the resource holding this replaces (its diff's), taken once; undefined for a new resource. */
export function takeDiffed(kind: string, holding: Holding): string | undefined {
  const key = keyOf(kind, holding);
  const id = diffed.get(key);
  diffed.delete(key);
  return id;
}

/**
 * Notes what a resource of the program will hold, and answers the other resource of the
 * program holding what clashes with it, if any. `again`: its replacement's second check, the
 * same resource as a note already made.
 */
export function hold(
  kind: string,
  label: string,
  holding: Holding,
  clash: (a: string, b: string) => boolean,
  again: boolean,
): Noted | undefined {
  const self = again
    ? noted.findIndex((n) => n.kind === kind && n.label === label && n.holding.place === holding.place && n.holding.value === holding.value)
    : -1;
  const other = noted.find(
    (n, i) => i !== self && n.kind === kind && n.holding.place === holding.place && clash(n.holding.value, holding.value),
  );
  if (self < 0) noted.push({ kind, label, holding });
  return other;
}

/** The failure of a resource whose holding clashes with another of the same program. */
export function clashMessage(label: string, holding: Holding, other: Noted, rule: string): string {
  return (
    `${holding.property}: ${label} (${holding.value}) and ${other.label} (${other.holding.value}), both of this program, ` +
    `clash on ${holding.place}: ${rule}, so nothing was written. Give one of them another ${holding.property}`
  );
}

// Resource names for imported records: derived from the records' own names, valid as Pulumi
// resource names (lowercase letters, digits and dashes), unique, and the same on every run
// over the same records. Records are taken in id order, and a name two records would share
// gets each one's id as a suffix (the short id first, the whole id if that still collides),
// so a name never passes from one record to another: the program's `subnet-app` is always
// the same subnet, which Pulumi would otherwise replace.

/** The longest part a record's name contributes. */
const MAX_SLUG = 48;

/** `App net! (prod)` -> `app-net-prod`; accents dropped (`café` -> `cafe`); "" when nothing is left. */
export function slug(text: unknown): string {
  if (typeof text !== "string") return "";
  const ascii = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  const s = ascii.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return s.slice(0, MAX_SLUG).replace(/-+$/, "");
}

/** An id as a name part: a uuid's first 8 hex digits (`short`) or all of it, an integer as is. */
function idPart(id: string | number, short: boolean): string {
  const s = slug(String(id));
  return short && /^[0-9a-f]{8}-/.test(s) ? s.slice(0, 8) : s;
}

/** Ids in one order: integers by value, strings by code unit. */
export function compareIds(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a).toLowerCase();
  const y = String(b).toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

export interface NameSource {
  id: string | number;
  /** The record's name; blank or absent: the name is made from the id. */
  name?: unknown;
}

/**
 * A Pulumi resource name for each record (by id): `<prefix>-<slug of its name>`, with
 * `-<short id>` appended to every record whose name would collide (and the whole id when
 * short ids collide too). Only the set of records decides the names, not their order.
 */
export function resourceNames(prefix: string, records: readonly NameSource[]): Map<string | number, string> {
  const sorted = [...records].sort((a, b) => compareIds(a.id, b.id));
  const bases = sorted.map((r) => {
    const s = slug(r.name);
    return `${prefix}-${s || idPart(r.id, true)}`;
  });
  let names = [...bases];
  const duplicated = () => {
    const count = new Map<string, number>();
    for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
    return (n: string) => (count.get(n) ?? 0) > 1;
  };
  for (const short of [true, false]) {
    const dup = duplicated();
    names = names.map((n, i) => (dup(n) ? `${bases[i]}-${idPart(sorted[i].id, short)}` : n));
  }
  // Only a record literally named like another's name plus its id is left: number them in id order.
  const seen = new Map<string, number>();
  names = names.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n}-${k}`;
  });
  return new Map(sorted.map((r, i) => [r.id, names[i]]));
}

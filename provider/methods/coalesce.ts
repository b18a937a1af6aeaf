// Coalesced reads. During `pulumi refresh` (and the refresh inside `up --refresh` or
// `preview --refresh`) the engine calls read() for every resource of the stack, and one
// provider process serves them all. Reads of one kind (subnets, images) and one scope are
// answered from one paged list request of that scope instead of one GET each: 200 subnets,
// one request instead of 200, which keeps a large stack's drift check clear of the
// service's rate limit.
//
// When reads arrive: measured under `pulumi refresh` of 30 subnets (v3.248.0, 2 cores),
// the engine's read() calls reach the provider in bursts a fraction of a ms to 3 ms apart,
// with pauses of 10-250 ms between bursts, over about 0.6 s in all. A debounce of a few ms
// alone would send a list per burst. So:
// - the first read of a scope waits WINDOW_MS (longer than the gaps inside a burst) for
//   others, then the scope is listed once (every page);
// - reads that arrive while that list is in flight, or after it while reads keep coming
//   (no pause longer than IDLE_MS, and at most MAX_AGE_MS after it was sent), are answered
//   from it. A refresh is a snapshot of the stack as the service holds it; a list a few
//   hundred ms old is as good a snapshot as a GET sent as long ago.
// Correctness first:
// - a record missing from the list is read by id (GET): only that GET's 404 drops it from
//   the state, so a record the list raced (made after it, or paged past) loses nothing;
// - a list that fails, or whose scope holds more pages than the reads it would answer,
//   falls back to a GET per id;
// - any write this process sends (POST, PATCH, PUT, DELETE) ends every list's use: a read
//   never uses a list older than a write of ours. create() and update() never read from
//   lists. Nothing outlives the provider process, which lives for one command.
import { LIST_PAGE_MAX } from "../../api/paths";
import { apiClient, currentSettings, onWrite } from "./context";
import type { ApiRecord } from "../../api/guards";
import { runMemory } from "./run-memory";

/** How long the first read of a scope waits for others before the list is sent. */
export const WINDOW_MS = 10;
/** A list keeps answering reads while no pause between them is longer than this... */
export const IDLE_MS = 1_000;
/** ...and for at most this long after it was sent. */
export const MAX_AGE_MS = 10_000;

interface ScopeList {
  /** When the list request was (or will be) sent. */
  sentAt: number;
  lastRead: number;
  /** The scope's records by id; undefined when reads must fall back to GET by id. */
  records: Promise<Map<string, ApiRecord> | undefined>;
  reads: number;
}

const lists = runMemory(new Map<string, ScopeList>());

/** A write of ours: no read may use a list sent before it. */
export function forgetLists(): void {
  lists.clear();
}
onWrite(forgetLists);

/**
 * The record `getPath` names, read through the list `listPath` of its scope when coalescing
 * is on. Throws what the GET by id throws (a NotFoundError when it is gone).
 */
export async function coalescedGet(listPath: string, id: string, getPath: string): Promise<ApiRecord> {
  const byId = () => apiClient().record("GET", getPath);
  if (!currentSettings().coalesceReads) return byId();
  const records = await listFor(listPath).records;
  return records?.get(id.toLowerCase()) ?? byId();
}

function listFor(listPath: string): ScopeList {
  const now = Date.now();
  const current = lists.get(listPath);
  if (current && now - current.lastRead <= IDLE_MS && now - current.sentAt <= MAX_AGE_MS) {
    current.lastRead = now;
    current.reads++;
    return current;
  }
  const entry: ScopeList = { sentAt: now + WINDOW_MS, lastRead: now, reads: 1, records: Promise.resolve(undefined) };
  entry.records = new Promise((resolve) => setTimeout(resolve, WINDOW_MS)).then(() =>
    listRecords(listPath, () => entry.reads).catch(() => undefined),
  );
  lists.set(listPath, entry);
  return entry;
}

/**
 * Every record of the list, by id, read page by page until `count` came (the service may
 * answer fewer per page than asked); undefined when the scope has more pages than reads have
 * asked for (listing would cost more requests than it saves).
 */
async function listRecords(listPath: string, reads: () => number): Promise<Map<string, ApiRecord> | undefined> {
  const out = new Map<string, ApiRecord>();
  for (let offset = 0; ;) {
    const page = await apiClient().page(listPath, { query: { limit: LIST_PAGE_MAX, offset } });
    for (const r of page.results) out.set(String(r.id).toLowerCase(), r);
    const count = Number(page.count);
    if (offset === 0 && page.results.length > 0 && Math.ceil(count / page.results.length) > reads()) return undefined;
    offset += page.results.length;
    if (page.results.length === 0 || offset >= count) return out;
  }
}

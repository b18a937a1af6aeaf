// The API's list calls (public reference): `{count, results}`, paged by `limit`/`offset`.
import { LIST_PAGE_MAX } from "../../api/paths";
import { InvalidResponseError } from "./errors";
import type { CimsClient, RequestOptions } from "./http";

export interface Page<T> {
  count: number;
  results: T[];
}

/**
 * Every record a list call holds: pages asked for `pageSize` (at most 1000) records, read
 * until `count` records came. The service may answer fewer per page than asked (a cap of its
 * own), so a short page is not the last one; the next page starts after what came. A page
 * with nothing in it ends the reading (records deleted meanwhile), as does `count` reached.
 */
export async function listAll<T = Record<string, unknown>>(
  client: CimsClient,
  path: string,
  query: RequestOptions["query"] = {},
  pageSize = LIST_PAGE_MAX,
): Promise<T[]> {
  const out: T[] = [];
  for (;;) {
    const page = await client.request<Page<T>>("GET", path, { query: { ...query, limit: pageSize, offset: out.length } });
    if (typeof page !== "object" || page === null || !Array.isArray(page.results)) {
      throw new InvalidResponseError(`GET ${path}: a list call answered without \`results\``);
    }
    const count = Number(page.count);
    if (!Number.isSafeInteger(count) || count < 0) throw new InvalidResponseError(`GET ${path}: a list call answered without a \`count\``);
    out.push(...page.results);
    if (page.results.length === 0 || out.length >= count) return out;
  }
}

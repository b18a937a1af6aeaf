// The API's list calls (public reference): `{count, results}`, paged by `limit`/`offset`.
import { LIST_PAGE_MAX } from "../../api/paths";
import type { CimsClient, RequestOptions } from "./http";

export type { Page } from "./answers";

/** A list call's request options, and `keep`: what of each record the caller holds (all of it by default). */
export type ListOptions = Omit<RequestOptions, "query"> & { keep?: (record: Record<string, unknown>) => Record<string, unknown> };

/**
 * Every record a list call holds: pages asked for `pageSize` (at most 1000) records, read
 * until `count` records came. The service may answer fewer per page than asked (a cap of its
 * own), so a short page is not the last one; the next page starts after what came. A page
 * with nothing in it ends the reading (records deleted meanwhile), as does `count` reached.
 * `keep` is applied page by page, so what it drops is left behind before the next page is read.
 */
export async function listAll(
  client: CimsClient,
  path: string,
  query: RequestOptions["query"] = {},
  pageSize = LIST_PAGE_MAX,
  { keep, ...opts }: ListOptions = {},
): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (;;) {
    const page = await client.page(path, { ...opts, query: { ...query, limit: pageSize, offset: out.length } });
    out.push(...(keep ? page.results.map(keep) : page.results));
    if (page.results.length === 0 || out.length >= page.count) return out;
  }
}

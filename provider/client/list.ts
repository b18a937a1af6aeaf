// The API's list calls (public reference): `{count, results}`, paged by `limit`/`offset`.
import { LIST_PAGE_MAX } from "../../api/paths";
import type { CimsClient, RequestOptions } from "./http";

export type { Page } from "./answers";

/**
 * Every record a list call holds: pages asked for `pageSize` (at most 1000) records, read
 * until `count` records came. The service may answer fewer per page than asked (a cap of its
 * own), so a short page is not the last one; the next page starts after what came. A page
 * with nothing in it ends the reading (records deleted meanwhile), as does `count` reached.
 */
export async function listAll(
  client: CimsClient,
  path: string,
  query: RequestOptions["query"] = {},
  pageSize = LIST_PAGE_MAX,
  opts: Omit<RequestOptions, "query"> = {},
): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (;;) {
    const page = await client.page(path, { ...opts, query: { ...query, limit: pageSize, offset: out.length } });
    out.push(...page.results);
    if (page.results.length === 0 || out.length >= page.count) return out;
  }
}

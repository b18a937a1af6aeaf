// The API's list calls (public reference): `{count, results}`, paged by `limit`/`offset`.
import { LIST_PAGE_MAX } from "../../api/paths";
import { InvalidResponseError } from "./errors";
import type { CimsClient, RequestOptions } from "./http";

export interface Page<T> {
  count: number;
  results: T[];
}

/** Every record a list call holds, one page of `pageSize` (at most 1000) after another. */
export async function listAll<T = Record<string, unknown>>(
  client: CimsClient,
  path: string,
  query: RequestOptions["query"] = {},
  pageSize = LIST_PAGE_MAX,
): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await client.request<Page<T>>("GET", path, { query: { ...query, limit: pageSize, offset } });
    if (typeof page !== "object" || page === null || !Array.isArray(page.results)) {
      throw new InvalidResponseError(`GET ${path}: a list call answered without \`results\``);
    }
    out.push(...page.results);
    if (page.results.length < pageSize || out.length >= Number(page.count)) return out;
  }
}

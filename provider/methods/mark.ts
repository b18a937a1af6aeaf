// The create mark: a tag with a value nobody else can know (a fresh random uuid) that a create
// of a subnet or an image carries, so that when the POST's answer is lost the record it made
// can be told from every other (another team's subnet with the same name and CIDR, a twin
// image from the same volume). It is the provider's bookkeeping, not the user's: the create
// removes it once it has landed, and no output, diff or generated program ever shows it.
import { randomUUID } from "node:crypto";
import { splitTags } from "../../api/tags";

/** The key of the mark (a user tag as far as the service is concerned). */
export const CREATE_MARK_TAG = "pulumi-cims-create-mark";

/** A new mark: one per create call. */
export const newMark = (): string => randomUUID();

/** The mark a record carries, if any (`tags` for subnets, `tags_v2` for images, list or object). */
export function markOf(record: Record<string, unknown>): string | undefined {
  for (const field of [record.tags, record.tags_v2]) {
    const value = splitTags(field).tags[CREATE_MARK_TAG];
    if (value !== undefined) return String(value).toLowerCase();
  }
  return undefined;
}

/** Users' tags without the mark: what outputs, diffs and generated programs show. */
export function withoutMark(tags: Record<string, string>): Record<string, string> {
  if (!Object.hasOwn(tags, CREATE_MARK_TAG)) return tags;
  const { [CREATE_MARK_TAG]: _mark, ...rest } = tags;
  return rest;
}

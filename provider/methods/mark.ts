// The create mark: a tag with a value nobody else can know (a fresh random uuid) that a create
// of a subnet or an image carries, so that when the POST's answer is lost the record it made
// can be told from every other (another team's subnet with the same name and CIDR, a twin
// image from the same volume). It is the provider's bookkeeping, not the user's: the create
// removes it once it has landed, and no output, diff or generated program ever shows it.
// Where the face knows the resource's URN (the plugin), the mark also names the resource, as a
// digest of its URN after the random part: a record a lost create left is then known, at the
// resource's next create, as its own, and adopted instead of made twice (owned.ts). A mark
// without it (the dynamic face) proves nothing about a later create.
import { createHash, randomUUID } from "node:crypto";
import { splitTags } from "../../api/tags";

/** The key of the mark (a user tag as far as the service is concerned). */
export const CREATE_MARK_TAG = "pulumi-cims-create-mark";

/** The marks this process's creates sent: a record carrying one is a create under way here, not one left. */
const issued = new Set<string>();

/** How a mark names its resource: a digest of its URN (a URN may be longer than a tag's 255 characters). */
export const ownerKey = (urn: string): string => createHash("sha256").update(urn).digest("hex").slice(0, 32);

/** A new mark: one per create call, naming the resource (its URN) when the face knows it. */
export function newMark(urn?: string): string {
  const mark = urn === undefined ? randomUUID() : `${randomUUID()}.${ownerKey(urn)}`;
  issued.add(mark);
  return mark;
}

/** Whether a mark is one a create of this process sent. */
export const issuedHere = (mark: string): boolean => issued.has(mark);

/** The resource a mark names (ownerKey of its URN), if it names one. */
export function markOwner(mark: string): string | undefined {
  const key = mark.split(".")[1];
  return key !== undefined && /^[0-9a-f]{32}$/.test(key) ? key : undefined;
}

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

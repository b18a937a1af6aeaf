// Tags as the service keeps them: a list of {key, value, read_only} in records, with the
// service's own read-only tag; an update is a merge patch where null removes a key (the
// request rules refuse read-only keys).
import { stringEntries } from "../api/guards";
import { CREATOR_TAG, splitTags, tagList, type TagRecord } from "../api/tags";

/** A new record's tags: the users', and the service's record of the task that created it. */
export function newTags(requested: unknown, taskId: string): TagRecord[] {
  const tags = Object.fromEntries(stringEntries(requested).filter((e): e is [string, string] => e[1] !== null));
  return tagList(tags, { [CREATOR_TAG]: taskId });
}

/** Tags after a merge patch; read-only tags stay as they are. */
export function mergeTags(current: unknown, patch: unknown): TagRecord[] {
  const { tags, readOnly } = splitTags(current);
  for (const [key, value] of stringEntries(patch)) {
    if (value === null) delete tags[key];
    else tags[key] = value;
  }
  return tagList(tags, readOnly);
}

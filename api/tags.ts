// Tags as the service holds them. Requests carry an object of key -> value (on update a
// merge patch, where null removes a key); records carry a list of {key, value, read_only}.
// Read-only tags are the service's own (it adds one to every subnet and image it creates):
// users cannot set, change or remove them.

import { stringEntries } from "./guards";
export interface TagRecord {
  key: string;
  value: string;
  read_only: boolean;
}

/** The read-only tag the service adds to every subnet and image: the task that created it. */
export const CREATOR_TAG = "creator_task_id";

/** Keys users may never set: the service's own tags. */
export const READ_ONLY_TAG_KEYS: readonly string[] = [CREATOR_TAG];

function isTagList(value: unknown): value is TagRecord[] {
  return Array.isArray(value);
}

/** A record's tags split into the users' and the service's, each as key -> value. */
export function splitTags(value: unknown): { tags: Record<string, string>; readOnly: Record<string, string> } {
  const tags: Record<string, string> = {};
  const readOnly: Record<string, string> = {};
  // A record written as an object (an older seed) holds users' tags only.
  const list: TagRecord[] = isTagList(value)
    ? value
    : stringEntries(value).map(([key, v]) => ({ key, value: String(v), read_only: false }));
  for (const tag of list) (tag.read_only ? readOnly : tags)[tag.key] = tag.value;
  return { tags, readOnly };
}

/** Users' tags (key -> value) and the service's as a record's list. */
export function tagList(tags: Record<string, string>, readOnly: Record<string, string> = {}): TagRecord[] {
  return [
    ...Object.entries(tags).map(([key, value]) => ({ key, value, read_only: false })),
    ...Object.entries(readOnly).map(([key, value]) => ({ key, value, read_only: true })),
  ];
}

// What `cims:defaultTags` and `cims:ignoreTags` do to a resource's tags. Pure: the settings
// come from the caller (context.ts reads them). Default tags are merged into the program's
// tags at check(), so the state, the diff and the preview hold each tag once, and removing a
// default removes it as removing an own tag does. Ignored tags are taken out of everything
// read from a record and out of every comparison and write, so a tag another system adds
// never shows as drift and is never in a PATCH (every tagged kind's PATCH is a merge patch:
// what it leaves out, the service keeps).
import type { IgnoreTags } from "../config";
import { isRecord } from "../../api/guards";
import type { CheckFailure, Inputs } from "./schema";

export interface TagSettings {
  defaultTags: Record<string, string>;
  ignoreTags: IgnoreTags;
}

export const NO_TAG_SETTINGS: TagSettings = { defaultTags: {}, ignoreTags: { keys: [], keyPrefixes: [] } };

export function isIgnoredTag(ignore: IgnoreTags, key: string): boolean {
  return ignore.keys.includes(key) || ignore.keyPrefixes.some((prefix) => key.startsWith(prefix));
}

/** The users' tags of a record without those the stack leaves to others. */
export function ownTags(tags: Record<string, string>, ignore: IgnoreTags): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).filter(([key]) => !isIgnoredTag(ignore, key)));
}

/** A tags value (the state's, the program's) without those the stack leaves to others; any other value as it is. */
export function withoutIgnored(tags: unknown, ignore: IgnoreTags): unknown {
  if (!isRecord(tags) || (ignore.keys.length === 0 && ignore.keyPrefixes.length === 0)) return tags;
  return Object.fromEntries(Object.entries(tags).filter(([key]) => !isIgnoredTag(ignore, key)));
}

const IGNORED_RULE = "the provider never writes, changes or removes a tag under ignoreTags (`cims:ignoreTags`)";

/**
 * The program's inputs with the default tags merged into `field` (its own value of a key wins),
 * and a failure for each tag, its own or a default, that ignoreTags leaves to others. Tags not
 * known until apply stay as given: the merge is made when they are.
 */
export function withDefaultTags(inputs: Inputs, field: string, settings: TagSettings): { inputs: Inputs; failures: CheckFailure[] } {
  const own = inputs[field];
  if (own !== undefined && own !== null && !isRecord(own)) return { inputs, failures: [] };
  const failures: CheckFailure[] = [];
  for (const key of Object.keys(own ?? {}).filter((k) => isIgnoredTag(settings.ignoreTags, k))) {
    failures.push({
      property: field,
      reason: `${field}: tag "${key}" is one others own: ${IGNORED_RULE}; remove it from ${field}, or take it out of ignoreTags for this stack to manage it`,
    });
  }
  for (const key of Object.keys(settings.defaultTags).filter((k) => isIgnoredTag(settings.ignoreTags, k))) {
    failures.push({
      property: field,
      reason: `${field}: default tag "${key}" (\`cims:defaultTags\`) is under ignoreTags too: ${IGNORED_RULE}; remove it from one of the two`,
    });
  }
  if (Object.keys(settings.defaultTags).length === 0) return { inputs, failures };
  return { inputs: { ...inputs, [field]: { ...settings.defaultTags, ...(own ?? {}) } }, failures };
}

// Tags as the service treats them on update: a merge patch, where null removes a key.
export function mergeTags(current: unknown, patch: unknown): Record<string, string> {
  const merged: Record<string, string> = { ...((current ?? {}) as Record<string, string>) };
  for (const [key, value] of Object.entries((patch ?? {}) as Record<string, string | null>)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

// What a thrown value says, for messages shown to people: provider and emulator alike.

/** What a thrown value says. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

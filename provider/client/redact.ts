// The API key out of every message: what the service answers is data, parsed and kept as it
// came (a record whose text happens to hold the key's characters is still that record), while
// everything said to a person (an error's message and stack, the fields a message is built
// from, a log line) has the key's text replaced. A proxy or a server that echoes the request
// would otherwise put the key into an error; a short key would be cut out of the data itself.
// A key shorter than MIN_REDACTED_KEY_LENGTH is not searched for at all: its text occurs inside
// names and ids, and "[redacted]-prod" in a message both mangles the name and tells the reader
// the key; the provider warns once instead (context.ts).

const MARK = "[redacted]";

/** The shortest key whose text is replaced in messages. */
export const MIN_REDACTED_KEY_LENGTH = 8;

/** Whether a key is too short to be searched for in messages (an empty key is no key). */
export function tooShortToRedact(secret: string): boolean {
  return secret !== "" && secret.length < MIN_REDACTED_KEY_LENGTH;
}

/** Fields of a thrown error that are data to record, not words to show (a partial create's state). */
const DATA_FIELDS: ReadonlySet<string> = new Set(["properties"]);

export interface Redactor {
  /** `text` with the key replaced, raw or as JSON writes it when it escapes "/". */
  text(text: string): string;
  /** `err` with every string it carries redacted, in place (its class and fields stay); returned. */
  error<T>(err: T): T;
}

export function redactor(secret: string): Redactor {
  const forms = secret.length < MIN_REDACTED_KEY_LENGTH ? [] : [...new Set([secret, secret.replaceAll("/", "\\/")])];
  const text = (value: string): string => forms.reduce((t, form) => t.replaceAll(form, MARK), value);
  const walk = (value: unknown, seen: WeakSet<object>): unknown => {
    if (typeof value === "string") return text(value);
    if (typeof value !== "object" || value === null || seen.has(value)) return value;
    seen.add(value);
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key !== "string" || (value instanceof Error && DATA_FIELDS.has(key))) continue;
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (!descriptor || !("value" in descriptor)) continue;
      const next = walk(descriptor.value, seen);
      if (next !== descriptor.value) {
        if (descriptor.writable) Reflect.set(value, key, next);
        else if (descriptor.configurable) Object.defineProperty(value, key, { ...descriptor, value: next });
      }
    }
    return value;
  };
  return {
    text,
    error<T>(err: T): T {
      if (forms.length > 0) walk(err, new WeakSet());
      return err;
    },
  };
}

// Text that cims-import did not write itself (a Terraform state's addresses and ids, the
// service's names, tags and messages) as each syntax it lands in must spell it, so that no such
// text can end a comment, a string or a shell word: one function per target. A string literal
// keeps the value exactly (the first `pulumi up` must write nothing); a comment or a terminal
// line shows it with its controls made visible, as no comment syntax can escape them.

/**
 * What ends a line or a comment, or hides or disguises text, in one of the languages or on a
 * terminal: controls (NUL, newline, CR, ESC, DEL, C1 such as NEL), format characters (bidi
 * overrides, zero-width characters, the BOM), U+2028 and U+2029 (line ends to TypeScript and
 * to Pulumi YAML's parser), and lone surrogates.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
const LONE_SURROGATE = /\p{Cs}/u;

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
const SHORT: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const codeOf = (c: string) => c.codePointAt(0) ?? 0;

/** Whether `text` holds a character UNSAFE names. */
export const hasUnsafe = (text: string): boolean => new RegExp(UNSAFE.source, "u").test(text);

/**
 * `text` with each unsafe character as a visible escape (`\n`, `\u001b`, `\u2028`, `\u{e0001}`):
 * for comments and for the lines printed on a terminal, which no character can then end, colour
 * or reorder. Idempotent: its output holds no unsafe character.
 */
export function visible(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = codeOf(c);
    return SHORT[c] ?? (code > 0xffff ? `\\u{${hex(code, 1)}}` : `\\u${hex(code, 4)}`);
  });
}

/** A double-quoted literal: JSON's escapes, then every unsafe character JSON leaves raw as `\uXXXX` (or `astral`). */
function literal(text: string, astral: (code: number) => string): string {
  return JSON.stringify(text).replace(UNSAFE, (c) => {
    const code = codeOf(c);
    return code > 0xffff ? astral(code) : `\\u${hex(code, 4)}`;
  });
}

/** Go and YAML strings are UTF-8: a lone surrogate has no spelling there. */
function refuseLoneSurrogate(text: string, language: string): void {
  if (!LONE_SURROGATE.test(text)) return;
  throw new UnwritableTextError(
    `${JSON.stringify(text)} holds a lone UTF-16 surrogate, which a ${language} string cannot hold: ` +
      "write the program with --language typescript or python. Nothing was written.",
  );
}

/** A text the language asked for cannot hold; says which languages can. */
export class UnwritableTextError extends Error {}

/** A TypeScript (JavaScript) string literal of `text`. */
export const tsString = (text: string): string => literal(text, (code) => `\\u{${hex(code, 1)}}`);

/** A Python string literal of `text` (`\U0001xxxx` beyond the BMP: Python reads `\uXXXX` pairs as two surrogates). */
export const pyString = (text: string): string => literal(text, (code) => `\\U${hex(code, 8)}`);

/**
 * A Java string literal of `text`: an unsafe character beyond the BMP as its UTF-16 pair of
 * `\uXXXX` (Java strings are UTF-16). JSON's escapes write a line end as `\n`, never
 * `\u000a`, which javac would read as a line end before it reads the string.
 */
export const javaString = (text: string): string =>
  literal(text, (code) => {
    const high = 0xd800 + ((code - 0x10000) >> 10);
    const low = 0xdc00 + ((code - 0x10000) & 0x3ff);
    return `\\u${hex(high, 4)}\\u${hex(low, 4)}`;
  });

/** A Go interpreted string literal of `text`. */
export function goString(text: string): string {
  refuseLoneSurrogate(text, "Go");
  return literal(text, (code) => `\\U${hex(code, 8)}`);
}

/**
 * A YAML double-quoted scalar of `text` as Pulumi YAML reads it: every `$` doubled, as Pulumi
 * YAML reads `${...}` as an interpolation and `$$` as one `$` (in keys too).
 */
export function yamlString(text: string): string {
  refuseLoneSurrogate(text, "YAML");
  return literal(
    text.replace(/\$/g, () => "$$"),
    (code) => `\\U${hex(code, 8)}`,
  );
}

/**
 * `text` as one POSIX shell word: single quotes, each `'` as `'\''`, so a pasted line is one
 * command with this one argument. A character that could end the line or show as other than it
 * is (a newline, ESC, a bidi override) is refused: the caller writes only text without one.
 */
export function shellWord(text: string): string {
  if (hasUnsafe(text)) throw new UnwritableTextError(`${visible(text)} holds a control character: it is no shell word to paste`);
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * Pure: the first or last N lines of a text, as they are in it (each with its line
 * break; a last line without one is still a line) — read_text_file's `head` and `tail`.
 * Also the number of lines, counted the same way.
 */

/** The first `n` lines of `text`. */
export function headLines(text: string, n: number): string {
  if (n <= 0) return "";
  let at = -1;
  for (let k = 0; k < n; k++) {
    at = text.indexOf("\n", at + 1);
    if (at === -1) return text;
  }
  return text.slice(0, at + 1);
}

/** The last `n` lines of `text`. */
export function tailLines(text: string, n: number): string {
  if (n <= 0) return "";
  // The last line's break (if any) ends it; it does not start an empty line after it.
  let at = text.endsWith("\n") ? text.length - 1 : text.length;
  for (let k = 0; k < n; k++) {
    if (at <= 0) return text;
    at = text.lastIndexOf("\n", at - 1);
    if (at === -1) return text;
  }
  return text.slice(at + 1);
}

/** How many lines `text` has (0 when empty). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}

/**
 * The fast path of `rawLinesForHash` (split-lines.ts): one slice of the source
 * instead of a slice per line joined again. The two agree whenever every line
 * break inside the range is `\n` or `\r\n` (each line's `\r` is kept either way,
 * and `\n` joins the lines in both); a lone `\r` inside the range ends a line that
 * the slow path joins with `\n`, so such a range (and a range starting before
 * line 1) takes the slow path. read_doc hashes every block with an id, a
 * section's range holding all its children's: per-line slicing made that
 * quadratic in nesting depth over the lines (docs/perf/mcp.md).
 * Equivalence: test/noma/raw-lines-slice.test.ts (property test against the slow path).
 */
import { rawLinesForHash } from "./split-lines.js";

export function rawLinesSlice(source: string, lineStarts: ArrayLike<number>, start: number, end: number): string {
  const last = Math.min(end, lineStarts.length - 1);
  if (start < 1 || start > last) return rawLinesForHash(source, lineStarts, start, end);
  const s = source.slice(lineStarts[start - 1], lineStarts[last]);
  for (let i = s.indexOf("\r"); i !== -1; i = s.indexOf("\r", i + 1)) {
    // A lone `\r` ends a line; the last character of the range joins nothing after it.
    if (i + 1 < s.length && s.charCodeAt(i + 1) !== 10) return rawLinesForHash(source, lineStarts, start, end);
  }
  return s.endsWith("\n") ? s.slice(0, -1) : s;
}

/**
 * Pure: apply NOA `apply_patch` hunks to a file's bytes, all or nothing.
 *
 * Lines are numbered from 1; a line is its bytes up to and including its `\n` (a
 * `\r\n` line keeps its `\r`); a final line without `\n` is still a line; an empty
 * file has none. A hunk `{start_line, end_line, replacement}` replaces lines
 * start_line…end_line (inclusive) with `replacement`; `end_line = start_line − 1`
 * replaces nothing, i.e. inserts before start_line (start_line = lines + 1 appends).
 * Hunks must be in order and must not overlap (each starts after the previous one
 * ends; two insertions at one place are refused). Every hunk is checked against the
 * file before any is applied.
 *
 * Replacements are whole lines: a non-empty replacement that does not end with a
 * line break gets one (the replaced lines' style: `\r\n` or `\n`) — except when it
 * replaces the file's last line and that line had none. Appending after a last line
 * without a line break gives that line one first. An empty replacement deletes the lines.
 */
import { WorkspaceError } from "./workspace-error.js";

export interface Hunk {
  start_line: number;
  end_line: number;
  replacement: string;
}

/** Byte offsets: line i (0-based) is bytes[starts[i], starts[i+1]). */
function lineStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a && i + 1 < bytes.length) starts.push(i + 1);
  if (bytes.length === 0) starts.pop();
  return starts;
}

/** Check hunk order and overlap (independent of the file). */
export function checkHunkOrder(hunks: readonly Hunk[]): void {
  hunks.forEach((h, i) => {
    if (!Number.isInteger(h.start_line) || h.start_line < 1)
      throw new WorkspaceError("invalid_arguments", `hunk ${i + 1}: start_line must be a whole number ≥ 1 (lines are 1-indexed)`);
    if (!Number.isInteger(h.end_line) || h.end_line < h.start_line - 1) {
      throw new WorkspaceError(
        "invalid_arguments",
        `hunk ${i + 1}: end_line ${h.end_line} is before start_line ${h.start_line} (inclusive range; end_line = start_line − 1 inserts before start_line)`,
      );
    }
    if (i === 0) return;
    const p = hunks[i - 1]!;
    const bothInserts = h.end_line === h.start_line - 1 && p.end_line === p.start_line - 1;
    if (h.start_line <= p.end_line || (bothInserts && h.start_line === p.start_line)) {
      throw new WorkspaceError(
        "invalid_arguments",
        `hunk ${i + 1} (lines ${h.start_line}–${h.end_line}) overlaps or comes before hunk ${i} (lines ${p.start_line}–${p.end_line}): hunks must ` +
          `be ordered and non-overlapping`,
      );
    }
  });
}

const enc = new TextEncoder();

/** The new bytes; throws WorkspaceError (nothing applied) when any hunk does not fit. */
export function applyHunks(bytes: Uint8Array, hunks: readonly Hunk[], name = "the file"): Uint8Array {
  if (hunks.length === 0) throw new WorkspaceError("invalid_arguments", "hunks: give at least one hunk");
  checkHunkOrder(hunks);
  const starts = lineStarts(bytes);
  const n = starts.length;
  const endsWithBreak = bytes.length > 0 && bytes[bytes.length - 1] === 0x0a;
  hunks.forEach((h, i) => {
    if (h.end_line > n || h.start_line > n + 1) {
      throw new WorkspaceError(
        "hunk_out_of_range",
        `hunk ${i + 1}: lines ${h.start_line}–${h.end_line}, but ${name} has ${n} line${n === 1 ? "" : "s"}; nothing was changed`,
      );
    }
  });
  const lineStart = (line: number): number => (line <= n ? starts[line - 1]! : bytes.length); // 1-based line → offset
  const breakOf = (line: number): string => {
    // the line break style of a line (1-based), "\n" when it has none
    const end = line < n ? starts[line]! : bytes.length;
    if (end >= 2 && bytes[end - 1] === 0x0a && bytes[end - 2] === 0x0d) return "\r\n";
    return "\n";
  };
  const chunks: Uint8Array[] = [];
  let cursor = 0;
  for (const h of hunks) {
    const from = lineStart(h.start_line);
    const to = h.end_line >= h.start_line ? lineStart(h.end_line + 1) : from;
    chunks.push(bytes.subarray(cursor, from));
    let text = h.replacement;
    const replacesLastUnterminated = h.end_line === n && n > 0 && !endsWithBreak && h.end_line >= h.start_line;
    if (h.start_line === n + 1 && n > 0 && !endsWithBreak) chunks.push(enc.encode(breakOf(n))); // append after an unterminated last line
    if (text.length > 0 && !text.endsWith("\n") && !replacesLastUnterminated) {
      const styleLine = h.end_line >= h.start_line ? h.end_line : Math.min(h.start_line, n);
      text += n > 0 && styleLine >= 1 ? breakOf(styleLine) : "\n";
    }
    chunks.push(enc.encode(text));
    cursor = to;
  }
  chunks.push(bytes.subarray(cursor));
  let total = 0;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

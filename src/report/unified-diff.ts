/**
 * Unified diffs of a file's text before and after an edit (`fmt --diff`, `check --fix-dry-run`),
 * in git's layout (`--- a/path`, `+++ b/path`, `@@ -l,n +l,n @@`, 3 lines of context). Pure.
 */
import type { LineEdit } from "../noma/line-edits.js";
import { splitLines } from "../noma/split-lines.js";

/** A changed region: lines [aStart, aEnd) of the old text became [bStart, bEnd) of the new (0-based). */
export interface Hunk {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** Beyond this many differences the middle is shown as one replaced region (a display, not a minimal diff). */
const MAX_D = 2000;

/** The changed regions between two line lists (Myers' O(ND) diff, after trimming the common ends). */
export function diffLines(a: readonly string[], b: readonly string[]): Hunk[] {
  let lo = 0;
  while (lo < a.length && lo < b.length && a[lo] === b[lo]) lo++;
  let ea = a.length;
  let eb = b.length;
  while (ea > lo && eb > lo && a[ea - 1] === b[eb - 1]) {
    ea--;
    eb--;
  }
  if (lo === ea && lo === eb) return [];
  if (lo === ea || lo === eb) return [{ aStart: lo, aEnd: ea, bStart: lo, bEnd: eb }];
  const n = ea - lo;
  const m = eb - lo;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  // The trace keeps one array per difference: bounded to about 80 MB.
  const limit = Math.min(max, MAX_D, Math.floor(20_000_000 / v.length));
  for (let d = 0; d <= limit && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[lo + x] === b[lo + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) return [{ aStart: lo, aEnd: ea, bStart: lo, bEnd: eb }];
  // Walk back: each step is a deletion or an insertion; collect them as regions.
  const changes: Array<{ a: number; b: number; del: boolean }> = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
    }
    if (x === prevX) changes.push({ a: prevX, b: prevY, del: false });
    else changes.push({ a: prevX, b: prevY, del: true });
    x = prevX;
    y = prevY;
  }
  changes.reverse();
  const hunks: Hunk[] = [];
  for (const c of changes) {
    const aStart = lo + c.a;
    const bStart = lo + c.b;
    const last = hunks[hunks.length - 1];
    if (last !== undefined && last.aEnd === aStart && last.bEnd === bStart) {
      if (c.del) last.aEnd++;
      else last.bEnd++;
    } else {
      hunks.push({ aStart, aEnd: aStart + (c.del ? 1 : 0), bStart, bEnd: bStart + (c.del ? 0 : 1) });
    }
  }
  return hunks;
}

/** Each region narrowed to the lines that differ within it (a region of line edits often repeats lines it rewrites). */
export function refineHunks(before: string, after: string, hunks: readonly Hunk[]): Hunk[] {
  const a = splitLines(before).lines;
  const b = splitLines(after).lines;
  const out: Hunk[] = [];
  for (const h of hunks) {
    for (const r of diffLines(a.slice(h.aStart, h.aEnd), b.slice(h.bStart, h.bEnd)))
      out.push({ aStart: h.aStart + r.aStart, aEnd: h.aStart + r.aEnd, bStart: h.bStart + r.bStart, bEnd: h.bStart + r.bEnd });
  }
  return out;
}

/** The regions line edits change (their own order), in new-text line numbers too. */
export function hunksOfLineEdits(edits: readonly LineEdit[]): Hunk[] {
  let shift = 0;
  return edits.map((e) => {
    const inserted = e.insert.length === 0 ? 0 : splitLines(e.insert).lines.length;
    const h = { aStart: e.line - 1, aEnd: e.line - 1 + e.delete, bStart: e.line - 1 + shift, bEnd: e.line - 1 + shift + inserted };
    shift += inserted - e.delete;
    return h;
  });
}

/**
 * The unified diff of `path` from `before` to `after` (empty when equal). Lines are shown
 * without their line breaks; a last line without one is marked as git marks it. `hunks`:
 * the changed regions when the caller knows them (else diffLines).
 */
export function unifiedDiff(path: string, before: string, after: string, hunks?: readonly Hunk[], context = 3): string {
  if (before === after) return "";
  const a = splitLines(before).lines;
  const b = splitLines(after).lines;
  const regions = hunks ?? diffLines(a, b);
  if (regions.length === 0) return "";
  const aNoEol = before.length > 0 && !/[\r\n]$/.test(before);
  const bNoEol = after.length > 0 && !/[\r\n]$/.test(after);
  let out = `--- a/${path}\n+++ b/${path}\n`;
  let i = 0;
  while (i < regions.length) {
    // Regions closer than two contexts share a hunk.
    let j = i;
    while (j + 1 < regions.length && regions[j + 1]!.aStart - regions[j]!.aEnd <= 2 * context) j++;
    const first = regions[i]!;
    const lastR = regions[j]!;
    const aFrom = Math.max(0, first.aStart - context);
    const aTo = Math.min(a.length, lastR.aEnd + context);
    const bFrom = first.bStart - (first.aStart - aFrom);
    const bTo = lastR.bEnd + (aTo - lastR.aEnd);
    const lines: string[] = [];
    const show = (prefix: string, text: string, index: number, total: number, noEol: boolean): void => {
      lines.push(`${prefix}${text}\n`);
      if (noEol && index === total - 1) lines.push("\\ No newline at end of file\n");
    };
    let ai = aFrom;
    for (let r = i; r <= j; r++) {
      const h = regions[r]!;
      for (; ai < h.aStart; ai++) show(" ", a[ai]!, ai, a.length, aNoEol && bNoEol);
      for (let k = h.aStart; k < h.aEnd; k++) show("-", a[k]!, k, a.length, aNoEol);
      for (let k = h.bStart; k < h.bEnd; k++) show("+", b[k]!, k, b.length, bNoEol);
      ai = h.aEnd;
    }
    for (; ai < aTo; ai++) show(" ", a[ai]!, ai, a.length, aNoEol && bNoEol);
    const range = (from: number, to: number): string => (to - from === 1 ? `${from + 1}` : `${to - from === 0 ? from : from + 1},${to - from}`);
    out += `@@ -${range(aFrom, aTo)} +${range(bFrom, bTo)} @@\n${lines.join("")}`;
    i = j + 1;
  }
  return out;
}

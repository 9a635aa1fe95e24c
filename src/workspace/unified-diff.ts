/**
 * Pure: a unified diff of two texts, line by line (`git diff`'s shape: `---`/`+++`
 * headers, `@@ -a,b +c,d @@` hunks with three lines of context, `\ No newline at end of
 * file` where a last line has none), headed the way the MCP filesystem server heads its
 * edit_file answer (`Index:` and a rule). The line diff is Myers' shortest edit script;
 * past MAX_EDIT_DISTANCE edits (huge rewrites) it gives the common head and tail and one
 * change between, still a correct diff, in bounded time and memory.
 */

const CONTEXT = 3;
const MAX_EDIT_DISTANCE = 4000;

type Op = { kind: " " | "-" | "+"; line: string; last: boolean };

/** Lines of `text` (each without its `\n`); `last` marks a final line without a line break. */
function splitLines(text: string): Array<{ line: string; last: boolean }> {
  if (text.length === 0) return [];
  const parts = text.split("\n");
  const noFinalBreak = parts[parts.length - 1] !== "";
  if (!noFinalBreak) parts.pop();
  return parts.map((line, i) => ({ line, last: noFinalBreak && i === parts.length - 1 }));
}

const key = (l: { line: string; last: boolean }): string => (l.last ? `${l.line}\u0000` : l.line);

/** Myers' diff of `a` and `b`; null when it would take more than MAX_EDIT_DISTANCE edits. */
function myers(a: readonly string[], b: readonly string[]): Array<" " | "-" | "+"> | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        // Walk the trace back to the start.
        const ops: Array<" " | "-" | "+"> = [];
        let cx = n;
        let cy = m;
        for (let dd = d; dd > 0; dd--) {
          const pv = trace[dd]!;
          const ck = cx - cy;
          const prevK = ck === -dd || (ck !== dd && pv[offset + ck - 1]! < pv[offset + ck + 1]!) ? ck + 1 : ck - 1;
          const px = pv[offset + prevK]!;
          const py = px - prevK;
          while (cx > px && cy > py) {
            ops.push(" ");
            cx--;
            cy--;
          }
          if (cx === px) {
            ops.push("+");
            cy--;
          } else {
            ops.push("-");
            cx--;
          }
        }
        while (cx > 0 && cy > 0) {
          ops.push(" ");
          cx--;
          cy--;
        }
        return ops.reverse();
      }
    }
  }
  return null;
}

/** The edit script from `before` to `after`, line by line. */
export function diffLines(before: string, after: string): Op[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && key(a[head]!) === key(b[head]!)) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && key(a[a.length - 1 - tail]!) === key(b[b.length - 1 - tail]!)) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const ops: Op[] = a.slice(0, head).map((l) => ({ kind: " ", ...l }));
  const script = myers(midA.map(key), midB.map(key)) ?? [...midA.map(() => "-" as const), ...midB.map(() => "+" as const)];
  let i = 0;
  let j = 0;
  for (const k of script) {
    if (k === " ") {
      ops.push({ kind: " ", ...midA[i++]! });
      j++;
    } else if (k === "-") ops.push({ kind: "-", ...midA[i++]! });
    else ops.push({ kind: "+", ...midB[j++]! });
  }
  for (const l of a.slice(a.length - tail)) ops.push({ kind: " ", ...l });
  return ops;
}

/** The hunks of a unified diff (`@@` lines and what follows), empty when the texts are equal. */
export function unifiedHunks(before: string, after: string): string {
  const ops = diffLines(before, after);
  const out: string[] = [];
  let i = 0;
  // Line numbers before each op.
  const aLine: number[] = [];
  const bLine: number[] = [];
  let an = 1;
  let bn = 1;
  for (const op of ops) {
    aLine.push(an);
    bLine.push(bn);
    if (op.kind !== "+") an++;
    if (op.kind !== "-") bn++;
  }
  while (i < ops.length) {
    if (ops[i]!.kind === " ") {
      i++;
      continue;
    }
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    // Extend while the next change is within 2 × CONTEXT lines of unchanged ones.
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== " ") end++;
      let next = end;
      while (next < ops.length && ops[next]!.kind === " ") next++;
      if (next < ops.length && next - end <= 2 * CONTEXT) end = next;
      else break;
    }
    const stop = Math.min(ops.length, end + CONTEXT);
    const slice = ops.slice(start, stop);
    const aCount = slice.filter((o) => o.kind !== "+").length;
    const bCount = slice.filter((o) => o.kind !== "-").length;
    const aStart = aCount === 0 ? aLine[start]! - 1 : aLine[start]!;
    const bStart = bCount === 0 ? bLine[start]! - 1 : bLine[start]!;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const o of slice) {
      out.push(`${o.kind}${o.line}`);
      if (o.last) out.push("\\ No newline at end of file");
    }
    i = stop;
  }
  return out.length > 0 ? `${out.join("\n")}\n` : "";
}

/** A whole unified diff of one file, headed as the MCP filesystem server heads edit_file's answer. */
export function unifiedDiff(path: string, before: string, after: string): string {
  return `Index: ${path}\n${"=".repeat(67)}\n--- ${path}\toriginal\n+++ ${path}\tmodified\n${unifiedHunks(before, after)}`;
}

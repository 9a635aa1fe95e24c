/**
 * What an edit changed in a document's diagnostics: the ones it introduced, the ones it
 * resolved, and how many it left as they were.
 *
 * A diagnostic before the edit and one after it are the same finding when they have the
 * same identity:
 * - the same `code`;
 * - the same subject: the node's canonical id (`nodeId`) when the diagnostic has one (a
 *   finding about a block stays the same finding wherever the block moved); otherwise its
 *   position, the earlier one carried across the edit by `LineShift` (line and column; a
 *   line the edit rewrote has no counterpart, so a finding there without an id is always
 *   new); a diagnostic without either is about the whole document;
 * - the same `message`, where the line numbers a message itself names (`duplicate-id`'s
 *   "(lines 3, 9)") are carried across the edit as positions are.
 * Severity follows from the code, and `endLine` is left out: a block that grew keeps its
 * findings. Diagnostics with one identity are matched as a multiset (two blocks sharing
 * an id may each have the same finding), in order.
 */
import type { Diagnostic } from "./diagnostic.js";

/**
 * How the lines of a text map to the lines of its edited version: lines 1…`head` keep their
 * number, lines from `tail` on move by `shift`, and the lines between were rewritten.
 */
export interface LineShift {
  head: number;
  tail: number;
  shift: number;
}

/** No line moved or was rewritten (an edit that changed nothing). */
export const SAME_LINES: LineShift = { head: Number.MAX_SAFE_INTEGER, tail: Number.MAX_SAFE_INTEGER, shift: 0 };

/**
 * The line map of an edit that replaced characters [`prefix`, `length - suffix`) of a text
 * of `length` characters, lines starting at `starts` (one final entry, the length: see
 * indexLines), with the text `after`, of `afterLines` lines (a function of it, so that the
 * caller may compute it later: the earlier text's line index may be reused for the edited
 * one's). A line of the suffix the edit left (it starts after the last changed character,
 * or at it where `after` starts a line there too) moves by the difference in line count:
 * it and every line after it are the same text. Otherwise a line that starts at or before
 * the first changed character keeps its number: everything before it is the same text (the
 * edit may have rewritten the rest of it: a finding there is compared where it stands).
 * The lines between were rewritten.
 */
export function lineShiftOf(starts: Int32Array, length: number, after: string, prefix: number, suffix: number): (afterLines: number) => LineShift {
  const lines = starts.length - 1;
  // 1-based: the count of lines starting before `prefix`, and one starting at it when `after` has a line there
  // (not when the edit starts with "\n" after a "\r": the two are one line break there).
  let head = firstAbove(starts, lines, prefix - 1);
  if (head < lines && starts[head] === prefix && startsLine(after, prefix)) head++;
  const changedEnd = length - suffix;
  // The first line (0-based) starting at or after the last changed character.
  let tail = firstAbove(starts, lines, changedEnd - 1);
  if (tail < lines && starts[tail] === changedEnd && !startsLine(after, changedEnd + after.length - length)) tail++;
  return (afterLines) => ({ head, tail: tail + 1, shift: afterLines - lines });
}

/** Whether a line of `text` starts at `at` (a final line break starts none; see indexLines). */
function startsLine(text: string, at: number): boolean {
  if (at >= text.length) return false;
  if (at === 0) return true;
  const c = text.charCodeAt(at - 1);
  return c === 10 || (c === 13 && text.charCodeAt(at) !== 10);
}

/** The first index in [lo, hi) whose entry exceeds `value` (entries ascending), or hi. */
function firstAbove(a: Int32Array, hi: number, value: number): number {
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where line `line` (1-based) of the earlier text is in the edited one, or undefined when the edit rewrote it. */
export function mapLine(map: LineShift, line: number): number | undefined {
  if (line >= map.tail) return line + map.shift;
  if (line <= map.head) return line;
  return undefined;
}

/** Codes whose message names lines, and where: those numbers move with the edit as positions do. */
const LINE_LISTS: Readonly<Record<string, RegExp>> = { "duplicate-id": /\(lines ([\d, ]+)\)/ };

/** The identity of `d` (see the module header), its lines read through `lineOf`; undefined when a line it names has no counterpart. */
export function diagnosticIdentity(d: Diagnostic, lineOf: (line: number) => number | undefined = (l) => l): string | undefined {
  let message = d.message;
  const list = LINE_LISTS[d.code];
  if (list !== undefined) {
    const m = list.exec(message);
    if (m !== null) {
      const mapped: number[] = [];
      for (const part of m[1]!.split(",")) {
        const l = lineOf(Number(part.trim()));
        if (l === undefined) return undefined;
        mapped.push(l);
      }
      message = `${message.slice(0, m.index)}(lines ${mapped.join(", ")})${message.slice(m.index + m[0].length)}`;
    }
  }
  let subject = "";
  if (d.nodeId !== undefined) subject = `#${d.nodeId}`;
  else if (d.pos !== undefined) {
    const l = lineOf(d.pos.line);
    if (l === undefined) return undefined;
    subject = `@${l}:${d.pos.column}`;
  }
  return `${d.code}\u0000${subject}\u0000${message}`;
}

/** What an edit changed in a document's diagnostics. */
export interface DiagnosticChange {
  /** Diagnostics after the edit that none before it matches, in their order. */
  introduced: Diagnostic[];
  /** Diagnostics before the edit that none after it matches, in their order. */
  resolved: Diagnostic[];
  /** How many diagnostics after the edit match one before it. */
  unchanged: number;
}

/** Compare the diagnostics of a text (`before`) with those of its edited version (`after`), lines mapped by `map`. */
export function diagnosticChange(before: readonly Diagnostic[], after: readonly Diagnostic[], map: LineShift): DiagnosticChange {
  const open = new Map<string, number>();
  const earlier: Array<string | undefined> = [];
  for (const d of before) {
    const key = diagnosticIdentity(d, (l) => mapLine(map, l));
    earlier.push(key);
    if (key !== undefined) open.set(key, (open.get(key) ?? 0) + 1);
  }
  const introduced: Diagnostic[] = [];
  let unchanged = 0;
  for (const d of after) {
    const key = diagnosticIdentity(d);
    const left = key !== undefined ? (open.get(key) ?? 0) : 0;
    if (left > 0) {
      open.set(key!, left - 1);
      unchanged++;
    } else introduced.push(d);
  }
  // The earlier diagnostics left unmatched, in order (of several with one identity, the last ones).
  const resolved: Diagnostic[] = [];
  for (let k = before.length - 1; k >= 0; k--) {
    const key = earlier[k];
    const left = key !== undefined ? (open.get(key) ?? 0) : 1;
    if (left > 0) {
      if (key !== undefined) open.set(key, left - 1);
      resolved.push(before[k]!);
    }
  }
  resolved.reverse();
  return { introduced, resolved, unchanged };
}

/** A change as the JSON outputs carry it (`patch --format json`, MCP `patch_block`): both lists and the totals. */
export interface DiagnosticChangesJson {
  introduced: Diagnostic[];
  resolved: Diagnostic[];
  totals: { introduced: number; resolved: number; unchanged: number; before: number; after: number };
}

export function diagnosticChangesJson(o: {
  change: DiagnosticChange;
  preDiagnostics: readonly Diagnostic[];
  postDiagnostics: readonly Diagnostic[];
}): DiagnosticChangesJson {
  const { introduced, resolved, unchanged } = o.change;
  return {
    introduced,
    resolved,
    totals: { introduced: introduced.length, resolved: resolved.length, unchanged, before: o.preDiagnostics.length, after: o.postDiagnostics.length },
  };
}

/**
 * What changed between two runs of `check` (`check --watch` prints only this): per file, the
 * findings that are new and those that are gone. A finding is the same across runs when its
 * severity, code and message are: its position is not part of it, so a line inserted above a
 * finding does not show it as fixed and new again. Equal findings are matched as a multiset
 * (two identical findings, one fixed: one "fixed"). Pure.
 */
import type { Diagnostic } from "../validate/diagnostic.js";
import type { FileDiagnostics } from "../report/file-diagnostics.js";

export interface FileFindingChanges {
  file: string;
  /** Findings of the new run without a match in the old one, in the new run's order. */
  added: Diagnostic[];
  /** Findings of the old run without a match in the new one, in the old run's order. */
  fixed: Diagnostic[];
}

const keyOf = (d: Diagnostic): string => `${d.severity}\u0000${d.code}\u0000${d.message}`;

/** The findings of `from` that `against` does not hold (as a multiset). */
function unmatched(from: readonly Diagnostic[], against: readonly Diagnostic[]): Diagnostic[] {
  const left = new Map<string, number>();
  for (const d of against) left.set(keyOf(d), (left.get(keyOf(d)) ?? 0) + 1);
  const out: Diagnostic[] = [];
  for (const d of from) {
    const n = left.get(keyOf(d)) ?? 0;
    if (n > 0) left.set(keyOf(d), n - 1);
    else out.push(d);
  }
  return out;
}

/** The files whose findings differ between `before` and `after`, sorted by path. */
export function findingChanges(before: readonly FileDiagnostics[], after: readonly FileDiagnostics[]): FileFindingChanges[] {
  const old = new Map(before.map((f) => [f.file, f.diagnostics] as const));
  const now = new Map(after.map((f) => [f.file, f.diagnostics] as const));
  const files = [...new Set([...old.keys(), ...now.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: FileFindingChanges[] = [];
  for (const file of files) {
    const was = old.get(file) ?? [];
    const is = now.get(file) ?? [];
    const added = unmatched(is, was);
    const fixed = unmatched(was, is);
    if (added.length > 0 || fixed.length > 0) out.push({ file, added, fixed });
  }
  return out;
}

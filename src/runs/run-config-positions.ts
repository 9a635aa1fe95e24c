/**
 * Where each problem of `.norma/config.json` sits in its text (an editor shows it there): at
 * the key its key path names, or the deepest key of that path the file has (a missing key is
 * reported at the object that lacks it); a syntax error where the JSON stops being JSON.
 * Pure. Positions are 1-based lines and columns (UTF-16 code units).
 */
import { parseJsonSpans, type JsonSpan } from "../patch/json-spans.js";
import type { RunConfigProblem } from "./run-config.js";

export interface PositionedProblem {
  message: string;
  line: number;
  column: number;
}

/** The offset where the deepest existing part of `path` is written in `root`. */
function offsetOf(root: JsonSpan, path: readonly PropertyKey[]): number {
  let node: JsonSpan = root;
  let at = root.start;
  for (const seg of path) {
    if (node.kind === "object") {
      const entry = node.entries.find((e) => e.key === String(seg));
      if (entry === undefined) break;
      at = entry.start;
      node = entry.value;
    } else if (node.kind === "array" && typeof seg === "number" && seg < node.items.length) {
      node = node.items[seg]!;
      at = node.start;
    } else break;
  }
  return at;
}

export function positionRunConfigProblems(text: string, problems: readonly RunConfigProblem[]): PositionedProblem[] {
  let root: JsonSpan | null = null;
  try {
    root = parseJsonSpans(text);
  } catch {
    root = null;
  }
  const lineOf = (offset: number): { line: number; column: number } => {
    let line = 1;
    let start = 0;
    for (let k = text.indexOf("\n"); k !== -1 && k < offset; k = text.indexOf("\n", k + 1)) {
      line++;
      start = k + 1;
    }
    return { line, column: offset - start + 1 };
  };
  return problems.map((p) => {
    if (p.line !== undefined) return { message: p.message, line: p.line, column: p.column ?? 1 };
    const at = root !== null && p.path !== null ? offsetOf(root, p.path) : (root?.start ?? 0);
    return { message: p.message, ...lineOf(at) };
  });
}

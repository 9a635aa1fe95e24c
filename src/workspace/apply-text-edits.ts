/**
 * Pure: the filesystem server's `edit_file` edits — `[{oldText, newText}]`, applied in
 * order, each to the text the previous ones left.
 *
 * An edit's oldText is looked for exactly first (its first occurrence is replaced by
 * newText, as given). When it is not there, it is looked for line by line ignoring each
 * line's leading and trailing white space (an agent's copy rarely keeps the file's
 * indentation): the first run of lines that matches is replaced by newText's lines,
 * re-indented to the file's — each indentation oldText uses stands for the file's
 * indentation of the line it matched (oldText's two spaces where the file has eight, its
 * four where the file has twelve), and a new line takes the file's indentation for its
 * own (or for the deepest oldText indentation it extends, plus the rest of its own), so
 * newText's nesting lands at the file's levels. Nothing found is `no_match`, naming the
 * edit.
 *
 * Line breaks: in a file whose every line break is CRLF, the edits see (and their texts
 * are read as) LF, and the result is written back with CRLF; any other file is edited as
 * it is.
 */
import { WorkspaceError } from "./workspace-error.js";

export interface TextEdit {
  oldText: string;
  newText: string;
}

export interface AppliedEdit {
  /** How oldText was found: as written, or line by line ignoring white space at either end. */
  match: "exact" | "lines";
  /** 1-based line of the result where the replacement starts. */
  line: number;
}

const indentOf = (line: string): string => /^[ \t]*/.exec(line)![0];

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Apply `edits` to `text`; throws `no_match` (nothing applied) when an oldText is not found. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): { text: string; applied: AppliedEdit[] } {
  const crlf = text.includes("\r\n") && !/(^|[^\r])\n/.test(text);
  const lf = (s: string): string => (crlf ? s.replace(/\r\n/g, "\n") : s);
  let out = lf(text);
  const applied: AppliedEdit[] = [];
  edits.forEach((edit, i) => {
    const oldText = lf(edit.oldText);
    const newText = lf(edit.newText);
    if (oldText.length === 0) throw new WorkspaceError("invalid_arguments", `edits[${i}].oldText is empty: give the text to replace`);
    const at = out.indexOf(oldText);
    if (at !== -1) {
      out = out.slice(0, at) + newText + out.slice(at + oldText.length);
      applied.push({ match: "exact", line: lineAt(out, at) });
      return;
    }
    const found = findLines(out, oldText);
    if (found === null) {
      const first = oldText.split("\n").find((l) => l.trim().length > 0) ?? oldText;
      throw new WorkspaceError(
        "no_match",
        `edits[${i}]: oldText is not in the file, neither exactly nor line by line ignoring indentation (its first ` +
          `line: ${JSON.stringify(first.length > 120 ? `${first.slice(0, 120)}…` : first)}); nothing was changed`,
      );
    }
    const lines = out.split("\n");
    // oldText's indentations → the file's, line by line of the match (the first seen wins).
    const levels = new Map<string, string>();
    oldText.split("\n").forEach((l, k) => {
      if (l.trim().length > 0 && k < found.count && !levels.has(indentOf(l))) levels.set(indentOf(l), indentOf(lines[found.start + k]!));
    });
    const byDepth = [...levels.keys()].sort((a, b) => b.length - a.length);
    const reindent = (l: string): string => {
      const own = indentOf(l);
      const exact = levels.get(own);
      if (exact !== undefined) return exact + l.slice(own.length);
      const base = byDepth.find((i) => own.startsWith(i));
      if (base !== undefined) return levels.get(base)! + l.slice(base.length);
      return (levels.get(byDepth[byDepth.length - 1] ?? "") ?? "") + l.trimStart();
    };
    const newLines = newText.length === 0 ? [] : newText.split("\n");
    // oldText's last line break ended its last line (it matched no empty line): newText's ends its own the same way.
    if (oldText.endsWith("\n") && newLines.length > 1 && newLines[newLines.length - 1] === "") newLines.pop();
    const replacement = newLines.map((l) => (l.trim().length === 0 ? l : reindent(l)));
    lines.splice(found.start, found.count, ...replacement);
    out = lines.join("\n");
    applied.push({ match: "lines", line: found.start + 1 });
  });
  return { text: crlf ? out.replace(/\n/g, "\r\n") : out, applied };
}

/** The first run of `text`'s lines equal to `oldText`'s, each compared without white space at either end. */
function findLines(text: string, oldText: string): { start: number; count: number } | null {
  const want = oldText.split("\n");
  // A trailing line break in oldText ends its last line; it does not add an empty one to match.
  if (want.length > 1 && want[want.length - 1] === "") want.pop();
  const wanted = want.map((l) => l.trim());
  const lines = text.split("\n");
  const have = lines.map((l) => l.trim());
  for (let s = 0; s + wanted.length <= have.length; s++) {
    let k = 0;
    while (k < wanted.length && have[s + k] === wanted[k]) k++;
    if (k === wanted.length) return { start: s, count: wanted.length };
  }
  return null;
}

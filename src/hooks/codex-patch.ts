/**
 * Codex's `apply_patch` text (pure): which files it adds, updates, moves or deletes, what an
 * added file holds, and — given a file's current text — what an update makes of it.
 *
 *     *** Begin Patch
 *     *** Add File: docs/new.noma          (then its lines, each after "+")
 *     *** Update File: docs/plan.noma      (optionally *** Move to: docs/other.noma)
 *     @@ a line the hunk follows
 *      context
 *     -removed
 *     +added
 *     *** Delete File: docs/old.noma
 *     *** End Patch
 *
 * An update applies here only when each hunk's lines are found exactly, in order (Codex also
 * tries them with whitespace trimmed); otherwise `applyCodexUpdate` says it cannot tell, and
 * the gate refuses the edit without an op to offer.
 */

export interface CodexHunk {
  /** The `@@` line's text after `@@ ` (a line the hunk comes after), or "". */
  anchor: string;
  /** The hunk's lines: " " context, "-" removed, "+" added. */
  lines: string[];
}

export type CodexFileOp =
  | { op: "add"; path: string; content: string }
  | { op: "update"; path: string; moveTo?: string; hunks: CodexHunk[] }
  | { op: "delete"; path: string };

const HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;

/** The file operations of a patch (an empty list for text that holds none). */
export function parseCodexPatch(text: string): CodexFileOp[] {
  const lines = text.split(/\r?\n/);
  const out: CodexFileOp[] = [];
  let current: CodexFileOp | null = null;
  let added: string[] = [];
  let hunk: CodexHunk | null = null;
  const flush = (): void => {
    if (current?.op === "add") current.content = added.length > 0 ? `${added.join("\n")}\n` : "";
    if (current !== null) out.push(current);
    current = null;
    added = [];
    hunk = null;
  };
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header !== null) {
      flush();
      const path = header[2]!.trim();
      current = header[1] === "Add" ? { op: "add", path, content: "" } : header[1] === "Update" ? { op: "update", path, hunks: [] } : { op: "delete", path };
      continue;
    }
    if (line === "*** End Patch") {
      flush();
      continue;
    }
    if (current === null || line === "*** Begin Patch" || line === "*** End of File") continue;
    const c = current as CodexFileOp;
    if (c.op === "add") {
      if (line.startsWith("+")) added.push(line.slice(1));
      continue;
    }
    if (c.op !== "update") continue;
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move !== null) {
      c.moveTo = move[1]!.trim();
      continue;
    }
    if (line.startsWith("@@")) {
      hunk = { anchor: line.slice(2).trim(), lines: [] };
      c.hunks.push(hunk);
      continue;
    }
    if (line.startsWith(" ") || line.startsWith("-") || line.startsWith("+") || line === "") {
      if (hunk === null) {
        hunk = { anchor: "", lines: [] };
        c.hunks.push(hunk);
      }
      (hunk as CodexHunk).lines.push(line === "" ? " " : line);
    }
  }
  flush();
  return out;
}

/** An update's hunks applied to `text` (each found exactly, in order), or null when one is not found. */
export function applyCodexUpdate(text: string, hunks: readonly CodexHunk[]): string | null {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  let from = 0;
  for (const h of hunks) {
    if (h.anchor.length > 0) {
      const at = lines.indexOf(h.anchor, from);
      if (at === -1) return null;
      from = at + 1;
    }
    const old = h.lines.filter((l) => !l.startsWith("+")).map((l) => l.slice(1));
    const now = h.lines.filter((l) => !l.startsWith("-")).map((l) => l.slice(1));
    const at = findLines(lines, old, from);
    if (at === -1) return null;
    lines.splice(at, old.length, ...now);
    from = at + now.length;
  }
  return lines.join(eol);
}

function findLines(lines: readonly string[], wanted: readonly string[], from: number): number {
  if (wanted.length === 0) return from;
  for (let i = from; i + wanted.length <= lines.length; i++) {
    let ok = true;
    for (let j = 0; j < wanted.length && ok; j++) ok = lines[i + j] === wanted[j];
    if (ok) return i;
  }
  return -1;
}

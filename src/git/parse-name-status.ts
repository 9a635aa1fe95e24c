/**
 * Parse `git diff --name-status -z` output. Entries are `<status>\0<path>\0`,
 * or `<R|C><score>\0<old>\0<new>\0` for renames and copies.
 * @see https://git-scm.com/docs/git-diff#_raw_output_format
 */
import { NomaError } from "../errors/noma-error.js";

export type ChangeStatus = "A" | "C" | "D" | "M" | "R" | "T" | "U" | "X";

export interface NameStatusEntry {
  status: ChangeStatus;
  path: string;
  /** The source path of a rename or copy. */
  oldPath?: string;
}

export class GitOutputError extends NomaError {
  static override readonly errorName: string = "GitOutputError";
  constructor(message: string) {
    super("git-output", `unexpected git output: ${message}`);
  }
}

const STATUSES = new Set(["A", "C", "D", "M", "R", "T", "U", "X"]);

export function parseNameStatusZ(out: string): NameStatusEntry[] {
  const parts = out.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  const entries: NameStatusEntry[] = [];
  for (let i = 0; i < parts.length; ) {
    const code = parts[i++]!;
    const letter = code.charAt(0);
    if (!STATUSES.has(letter)) throw new GitOutputError(`unknown name-status code ${JSON.stringify(code)}`);
    const status = letter as ChangeStatus;
    if (status === "R" || status === "C") {
      const oldPath = parts[i++];
      const path = parts[i++];
      if (oldPath === undefined || path === undefined) throw new GitOutputError(`truncated ${status} entry`);
      entries.push({ status, path, oldPath });
    } else {
      const path = parts[i++];
      if (path === undefined) throw new GitOutputError(`truncated ${status} entry`);
      entries.push({ status, path });
    }
  }
  return entries;
}

/**
 * Parse `git diff --numstat -z`: `<added>\t<deleted>\t<path>\0`, or for a
 * rename `<added>\t<deleted>\t\0<old>\0<new>\0`. Git prints `-` for both
 * counts of a binary file (its own detection, honouring .gitattributes).
 * @see https://git-scm.com/docs/git-diff#Documentation/git-diff.txt---numstat
 */
import { GitOutputError } from "./parse-name-status.js";

export interface NumstatEntry {
  path: string;
  oldPath?: string;
  binary: boolean;
  added: number;
  deleted: number;
}

export function parseNumstatZ(out: string): NumstatEntry[] {
  const parts = out.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  const entries: NumstatEntry[] = [];
  for (let i = 0; i < parts.length; ) {
    const head = parts[i++]!;
    const m = /^(-|\d+)\t(-|\d+)\t([\s\S]*)$/.exec(head);
    if (m === null) throw new GitOutputError(`bad numstat entry ${JSON.stringify(head)}`);
    const binary = m[1] === "-" && m[2] === "-";
    const added = binary ? 0 : Number(m[1]);
    const deleted = binary ? 0 : Number(m[2]);
    if (m[3] === "") {
      const oldPath = parts[i++];
      const path = parts[i++];
      if (oldPath === undefined || path === undefined) throw new GitOutputError("truncated numstat rename entry");
      entries.push({ path, oldPath, binary, added, deleted });
    } else {
      entries.push({ path: m[3]!, binary, added, deleted });
    }
  }
  return entries;
}

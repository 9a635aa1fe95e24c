/**
 * A judged path that git holds as a symbolic link or a submodule is not a file: git commits the
 * link's target path (or a commit id), which every clone and the PR check read as the content.
 * Reported as `file-unreadable` (what it is instead of a regular file), never parsed — by the
 * hook (`check --staged`, the index) and the PR check (`ci`, the commits).
 */
import type { FileDiagnostics } from "../report/file-diagnostics.js";

/** Git's modes of a symbolic link and a submodule (gitlink). */
const LINK_MODES: Readonly<Record<string, string>> = { "120000": "a symbolic link", "160000": "a submodule (gitlink)" };

/** What git holds at a path: the object (null when the path is gone) and its mode. */
export interface GitEntry {
  oid: string | null;
  mode: string;
}

/** Whether git holds `e` as something other than a regular file. */
export function isNotRegular(e: GitEntry | undefined): boolean {
  return e !== undefined && e.oid !== null && LINK_MODES[e.mode] !== undefined;
}

/**
 * `file-unreadable` for each of `targets` git holds as something other than a regular file.
 * @param where how git got it ("Staged", "Committed"), the start of the message
 * @param read the link's text (its target path), for the message
 */
export function notRegularFiles(
  targets: readonly string[],
  entryOf: (path: string) => GitEntry | undefined,
  read: (path: string) => string | null,
  where: string,
): FileDiagnostics[] {
  const out: FileDiagnostics[] = [];
  for (const t of targets) {
    const e = entryOf(t);
    if (e === undefined || !isNotRegular(e)) continue;
    const what = LINK_MODES[e.mode]!;
    const to = e.mode === "120000" ? ` to ${JSON.stringify((read(t) ?? "").slice(0, 200))}` : ` at ${e.oid!.slice(0, 12)}`;
    const message =
      `${where} as ${what}${to}, not a regular file: git holds the link itself, which every clone and the PR check read as its content. ` +
      `Commit the file instead (git rm --cached ${JSON.stringify(t)}, put the file in the link's place, git add it).`;
    out.push({ file: t, diagnostics: [{ severity: "error", code: "file-unreadable", message }] });
  }
  return out;
}

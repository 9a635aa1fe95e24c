/**
 * The `doc_uri` of the transcript records we write: the document named relative to the
 * repository, as a URI reference (RFC 3986 §4.1) — its repository path with each segment
 * percent-encoded (`docs/refunds.noma`, `docs/my%20doc%231.noma`), the string SARIF gives
 * the same file (layout/uri-reference.ts). Resolved against the repository's top level as a
 * directory URI (`file:///<top level>/`), it is the file URI Noma §5.2 describes; unlike
 * that absolute URI it is the same in every clone, so a committed transcript carries no
 * author's local layout (user names, folders). docs/noma-decisions.md says why this form.
 *
 * Outside any repository (a library call on a loose file) there is nothing to be relative
 * to, and nothing is committed: the absolute file URI. Readers accept either (the verifier
 * never uses `doc_uri`: a transcript is found beside its document, §5.1, and every
 * integrity check is over the hashes).
 */
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { findRepoRoot } from "../git/find-repo-root.js";
import { pathToUriReference } from "../layout/uri-reference.js";

/** `absPath`'s path under `root`, POSIX, or null when it is not under it. */
function under(root: string, absPath: string): string | null {
  const rel = relative(root, absPath);
  return rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? null : rel.split(sep).join("/");
}

/**
 * The `doc_uri` for the document at `absPath` in the repository whose top level is `root`
 * (found from the document's folder when not given; the CLI and the MCP server pass theirs).
 */
export function documentUri(absPath: string, root?: string): string {
  const top = root ?? findRepoRoot(dirname(absPath));
  if (top !== null) {
    const rel = under(top, absPath) ?? realUnder(top, absPath);
    if (rel !== null) return pathToUriReference(rel);
  }
  return pathToFileURL(absPath).href;
}

/** The same through real paths (a root found by git is one; a caller's path may go through a link such as macOS's /var). */
function realUnder(root: string, absPath: string): string | null {
  try {
    return under(realpathSync(root), join(realpathSync(dirname(absPath)), basename(absPath)));
  } catch {
    return null;
  }
}

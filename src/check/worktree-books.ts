/**
 * The books of the work tree, for `check` and for the MCP `validate_doc` tool: manifests git
 * knows (tracked, or untracked and not ignored; on disk outside a repository; `check` with no
 * paths: the tracked ones it judges), read from disk, chapter paths resolved beside their
 * manifest and contained in the repository.
 */
import { BookContext } from "./book-context.js";
import { listBookManifests } from "./list-noma-files.js";

/** @param known the manifests, when the caller has listed them already (`check` with no paths: the tracked ones) */
export function worktreeBooks(root: string, inRepo: boolean, read: (path: string) => string | null, resolve: (fromFile: string, written: string) => string | null, known?: readonly string[]): BookContext {
  return new BookContext({ read, resolve, manifests: () => known ?? listBookManifests(root, inRepo) });
}

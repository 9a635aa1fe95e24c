/**
 * The books of the work tree, for `check` and for the MCP `validate_doc` tool: manifests git
 * knows (tracked, or untracked and not ignored; on disk outside a repository; `check` with no
 * paths: the tracked ones it judges), read from disk, chapter paths resolved beside their
 * manifest and contained in the repository.
 */
import { dirname, join } from "node:path";
import { containPath } from "../fsx/contain-path.js";
import { readRegularFileIfPresent } from "../fsx/read-regular-file.js";
import { decodeText } from "../fsx/utf8-text.js";
import { BookContext, type OutsideResolver } from "./book-context.js";
import { listBookManifests } from "./list-noma-files.js";

/** @param known the manifests, when the caller has listed them already (`check` with no paths: the tracked ones) */
export function worktreeBooks(
  root: string,
  inRepo: boolean,
  read: (path: string) => string | null,
  resolve: (fromFile: string, written: string) => string | null,
  known?: readonly string[],
): BookContext {
  return new BookContext({ read, resolve, manifests: () => known ?? listBookManifests(root, inRepo) });
}

/**
 * The lookup of `rel`'s targets in the work tree's books (ValidateOptions.resolveOutside), for
 * one document judged or patched on its own (the MCP `validate_doc`, `patch`, `patch_block`,
 * the run loop's patches): manifests and chapters are read only inside the repository
 * (symbolic links resolved), and the manifests are listed only when the document first has a
 * target it does not define.
 */
export function worktreeChapterLookup(root: string, inRepo: boolean, rel: string, inspect?: (books: BookContext) => void): OutsideResolver {
  const beside = (from: string, written: string): string | null => {
    try {
      return containPath(join(dirname(join(root, from)), written), root, root);
    } catch {
      return null;
    }
  };
  const read = (p: string): string | null => {
    let inside: string;
    try {
      inside = containPath(p, root, root);
    } catch {
      return null;
    }
    const bytes = readRegularFileIfPresent(join(root, inside), inside);
    return bytes === null ? null : decodeText(bytes, inside); // a refusal reads as no chapter here (book-context.ts)
  };
  const books = worktreeBooks(root, inRepo, read, beside);
  inspect?.(books);
  return books.lookupFor(rel);
}

/**
 * As worktreeChapterLookup, but decided now: the lookup when a book lists `rel`, else
 * undefined (a long-lived server passes a lookup only to a chapter, so that validations of
 * other documents stay reusable from one patch to the next; see validation-cache-key.ts).
 */
export function worktreeChapterLookupIfListed(root: string, inRepo: boolean, rel: string): OutsideResolver | undefined {
  let listed = false;
  const lookup = worktreeChapterLookup(root, inRepo, rel, (books) => (listed = books.booksOf(rel).length > 0));
  return listed ? lookup : undefined;
}

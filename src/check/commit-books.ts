/**
 * The books of the PR check: the context is the head commit (manifests and chapters as
 * committed there), the state before is the merge-base. Paths the change did not touch are
 * read once, from the head commit.
 */
import { listTree } from "../git/paths-in-tree.js";
import { blobTextReader, type BlobTextReader } from "../git/blob-text-reader.js";
import { BookContext } from "./book-context.js";
import { ChapterNames } from "./book-names.js";
import { checkedPathKind } from "../layout/checked-path.js";
import { resolveBeside } from "./resolve-beside.js";

export interface CommitSource {
  commit: string;
  reader: BlobTextReader;
}

/** The book manifests of a commit. */
export function listCommitManifests(cwd: string, commit: string): string[] {
  return listTree(cwd, commit)
    .filter((p) => checkedPathKind(p) === "book")
    .sort();
}

/**
 * @param head the head commit and the reader the check reads it with
 * @param mergeBase the commit the change is judged against
 * @param changed the paths that differ between the two commits
 */
export function commitBooks(cwd: string, head: CommitSource, mergeBase: string, changed: readonly string[]): { context: BookContext; before: BookContext } {
  const names = new ChapterNames();
  const differs = new Set(changed);
  const base = { commit: mergeBase, reader: blobTextReader(cwd, (p) => `${mergeBase}:${p}`), label: `the merge-base ${mergeBase.slice(0, 12)}` };
  const context = new BookContext(
    { read: head.reader.read, prefetch: head.reader.prefetch, manifests: () => listCommitManifests(cwd, head.commit), resolve: resolveBeside },
    names,
  );
  const before = new BookContext(
    {
      read: (p) => (differs.has(p) ? base.reader.read(p) : head.reader.read(p)),
      prefetch: (paths) => {
        base.reader.prefetch(paths.filter((p) => differs.has(p)));
        head.reader.prefetch(paths.filter((p) => !differs.has(p)));
      },
      manifests: () => listCommitManifests(cwd, base.commit),
      resolve: resolveBeside,
      label: base.label,
    },
    names,
  );
  return { context, before };
}

/**
 * The books of a commit being made, for the hook: the context is the index — manifests and
 * chapters as staged, every other chapter as the index holds it (what HEAD holds, read by
 * `HEAD:<path>` like the rest of the hook) — and the state before is HEAD. The manifests come
 * from one `git ls-files` (the index git is using, a hook's temporary GIT_INDEX_FILE
 * included), which the hook starts while it loads the parser.
 */
import { listFiles, listFilesAsync } from "../../git/list-files.js";
import { blobTextReader, type BlobTextReader } from "../../git/blob-text-reader.js";
import { BookContext } from "../book-context.js";
import { ChapterNames } from "../book-names.js";
import { checkedPathKind } from "../../layout/checked-path.js";
import { resolveBeside } from "../resolve-beside.js";
import type { RawDiffEntry } from "../../git/parse-diff-raw.js";

const MANIFESTS = { fullName: true, pathspecs: [":(top)*.noma.yml", ":(top)*.noma.yaml"] } as const;

function manifestsOf(paths: readonly string[]): string[] {
  return paths.filter((p) => checkedPathKind(p) === "book").sort();
}

/** The book manifests in the index. */
export function listIndexManifests(cwd: string): string[] {
  return manifestsOf(listFiles(cwd, MANIFESTS));
}

/** `listIndexManifests` without blocking. */
export async function listIndexManifestsAsync(cwd: string): Promise<string[]> {
  return manifestsOf(await listFilesAsync(cwd, MANIFESTS));
}

/**
 * @param staged the staged entries by path
 * @param texts the index's texts (staged blobs, `HEAD:<path>` for the rest)
 * @param manifests the book manifests in the index
 * @param prefetched blobs read early by object name (prefetch-books.ts), HEAD versions of staged chapters among them
 */
export function stagedBooks(
  cwd: string,
  staged: ReadonlyMap<string, RawDiffEntry>,
  texts: BlobTextReader,
  manifests: () => readonly string[],
  prefetched?: ReadonlyMap<string, Buffer | null>,
): { context: BookContext; before: BookContext } {
  const names = new ChapterNames();
  const context = new BookContext({ read: texts.read, prefetch: texts.prefetch, manifests, resolve: resolveBeside }, names);
  // HEAD's version of a staged path is its source blob; an unstaged path's is the index's.
  let head: BlobTextReader | undefined;
  const headText = (): BlobTextReader => {
    if (head === undefined) {
      head = blobTextReader(cwd, (p) => staged.get(p)?.headOid ?? null);
      if (prefetched !== undefined) head.seed([...staged.keys()], prefetched);
    }
    return head;
  };
  const before = new BookContext(
    {
      read: (p) => (staged.has(p) ? headText().read(p) : texts.read(p)),
      prefetch: (paths) => {
        headText().prefetch(paths.filter((p) => staged.has(p)));
        texts.prefetch(paths.filter((p) => !staged.has(p)));
      },
      manifests: () => {
        const list = new Set(manifests());
        for (const [p, e] of staged) {
          if (checkedPathKind(p) !== "book") continue;
          if (e.headOid === null) list.delete(p);
          else list.add(p);
        }
        return [...list].sort();
      },
      resolve: resolveBeside,
      label: "HEAD",
    },
    names,
  );
  return { context, before };
}

/**
 * An early start on the books of a commit that stages a document or a manifest: while the
 * hook loads the parser, git lists the index's manifests, reads them, and — for each manifest
 * of the usual shape that lists a staged document — reads that book's chapters and the
 * staged chapters' HEAD versions, so judging the chapter in its book waits on no git call.
 * A manifest of another shape (read with the YAML library, which stays off this path) is
 * simply read later, when the check needs it.
 */
import { checkedPathKind } from "../../layout/checked-path.js";
import { resolveBeside } from "../resolve-beside.js";
import { readSimpleManifest } from "../../noma/read-simple-manifest.js";
import type { RawDiffEntry } from "../../git/parse-diff-raw.js";
import { stagedObjectName } from "./staged-object-name.js";
import { listIndexManifestsAsync } from "./staged-books.js";

export interface BookPrefetch {
  /** The book manifests in the index. */
  manifests: string[];
  /** Paths whose index versions are among `blobs` (manifests, chapters of the books of staged documents). */
  paths: string[];
  /** By object name: those index versions, and the HEAD versions of the staged chapters. */
  blobs: Map<string, Buffer | null>;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** @param readBlobs reads objects by name (the hook's one `git cat-file --batch` session) */
export async function prefetchBooks(
  cwd: string,
  staged: ReadonlyMap<string, RawDiffEntry>,
  readBlobs: (names: string[]) => Promise<Map<string, Buffer | null>>,
): Promise<BookPrefetch> {
  const manifests = await listIndexManifestsAsync(cwd);
  const name = (p: string): string | null => stagedObjectName(staged, p);
  if (manifests.length === 0) return { manifests, paths: [], blobs: new Map() };
  const blobs = await readBlobs(manifests.map(name).filter((n): n is string => n !== null));
  const documents = [...staged.keys()].filter((p) => checkedPathKind(p) === "document");
  const chapters = new Set<string>();
  for (const m of manifests) {
    const n = name(m);
    const text = n === null ? undefined : blobs.get(n)?.toString("utf8");
    if (text === undefined || !documents.some((d) => text.includes(baseName(d)))) continue;
    const list = readSimpleManifest(text)?.["chapters"];
    if (!Array.isArray(list)) continue;
    const paths = list.map((f) => resolveBeside(m, typeof f === "string" ? f : (f as { file: string }).file)).filter((p): p is string => p !== null);
    if (!documents.some((d) => paths.includes(d))) continue;
    for (const p of paths) chapters.add(p);
  }
  if (chapters.size === 0) return { manifests, paths: manifests, blobs };
  const more = [...chapters].map(name).filter((n): n is string => n !== null && !blobs.has(n));
  for (const d of documents) {
    const head = staged.get(d)?.headOid ?? null;
    if (head !== null && chapters.has(d)) more.push(head);
  }
  for (const [k, v] of await readBlobs(more)) blobs.set(k, v);
  return { manifests, paths: [...manifests, ...chapters], blobs };
}

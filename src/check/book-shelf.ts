/**
 * The books of one source (the work tree, the index, a commit): which manifests
 * (`*.noma.yml`) list a chapter, and each manifest's chapters as paths of that source.
 * Pure: reads and the manifest listing are injected.
 *
 * A manifest is parsed (YAML) only when its text can name the chapter asked about — it
 * holds the chapter's file name, or a backslash or a quote that could spell it in another
 * way — so a repository whose books do not hold the judged documents never loads the YAML
 * library, and a document in no book costs one look at each manifest's text.
 */
import { parseBookManifest, type BookManifestError } from "../noma/parse-book.js";

export interface BookSource {
  /** A path's text in this source, or null when it has none. */
  read(path: string): string | null;
  /** Read these paths' texts in one go (a batch where the source is git). */
  prefetch?(paths: readonly string[]): void;
  /** Every book manifest of this source (asked once, when a judged document or manifest needs it). */
  manifests(): readonly string[];
  /** A path written in `fromFile` (a manifest's chapter entry) as a path of this source; null when it leaves it. */
  resolve(fromFile: string, written: string): string | null;
  /** How reports name this source when it is the state before a change ("HEAD", "the merge-base …"). */
  label?: string;
}

export interface ShelvedBook {
  manifest: string;
  /** The chapters as paths of the source, in manifest order (entries leaving the source dropped). */
  chapters: string[];
  /** What is wrong with the manifest itself (its YAML, its shape). */
  errors: BookManifestError[];
}

/** The last path component. */
function baseName(path: string): string {
  const at = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return at === -1 ? path : path.slice(at + 1);
}

/** Whether a manifest's text can list a file named `name` (YAML spells a name otherwise only through an escape or a doubled quote). */
function mayName(text: string, name: string): boolean {
  return text.includes(name) || text.includes("\\") || name.includes("'");
}

export class BookShelf {
  private list: readonly string[] | undefined;
  private readonly books = new Map<string, ShelvedBook | null>();
  private readonly of = new Map<string, ShelvedBook[]>();

  constructor(readonly source: BookSource) {}

  /** Every manifest of the source, their texts read in one go. */
  manifests(): readonly string[] {
    if (this.list === undefined) {
      this.list = this.source.manifests();
      if (this.list.length > 0) this.source.prefetch?.(this.list);
    }
    return this.list;
  }

  /** A manifest of the source, parsed; null when the source has no such file. */
  book(manifest: string): ShelvedBook | null {
    let b = this.books.get(manifest);
    if (b === undefined) {
      const text = this.source.read(manifest);
      if (text === null) b = null;
      else {
        const parsed = parseBookManifest(text);
        const chapters: string[] = [];
        for (const f of parsed.files) {
          const p = this.source.resolve(manifest, f);
          if (p !== null && !chapters.includes(p)) chapters.push(p);
        }
        b = { manifest, chapters, errors: parsed.errors };
      }
      this.books.set(manifest, b);
    }
    return b;
  }

  /**
   * Manifests that cannot be read as a book (invalid YAML, not a mapping, no `chapters:`
   * list) whose text names `chapter`'s file: it may be one of their chapters.
   */
  unreadableNaming(chapter: string): string[] {
    const name = baseName(chapter);
    this.booksOf(chapter); // parses every manifest that can name it
    return [...this.books.values()]
      .filter((b): b is ShelvedBook => b !== null && b.errors.length > 0 && b.chapters.length === 0 && this.source.read(b.manifest)!.includes(name))
      .map((b) => b.manifest);
  }

  /** The books that list `chapter`, in manifest path order. */
  booksOf(chapter: string): ShelvedBook[] {
    let found = this.of.get(chapter);
    if (found === undefined) {
      found = [];
      const name = baseName(chapter);
      for (const m of this.manifests()) {
        if (!this.books.has(m)) {
          const text = this.source.read(m);
          if (text === null || !mayName(text, name)) continue;
        }
        const b = this.book(m);
        if (b?.chapters.includes(chapter)) found.push(b);
      }
      this.of.set(chapter, found);
    }
    return found;
  }
}

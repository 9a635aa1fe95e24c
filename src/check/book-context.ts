/**
 * A chapter judged in its books' context (§2.3): a reference or wikilink the chapter does not
 * resolve itself is looked up in the other chapters of every book that lists it, as that
 * book's source holds them (the work tree, the index, a commit). A chapter in two books must
 * resolve its links in both. Pure: reads are the source's.
 */
import { BookNames, ChapterNames } from "./book-names.js";
import { BookShelf, type BookSource, type ShelvedBook } from "./book-shelf.js";
import { unreadableDiagnostic } from "./unreadable-diagnostic.js";

/** What the validator asks for a target the document does not define (ValidateOptions.resolveOutside). */
export type OutsideResolver = (target: string) => true | string;

function books(list: readonly string[]): string {
  return `${list.length === 1 ? "book" : "books"} ${list.join(", ")}`;
}

export class BookContext {
  readonly shelf: BookShelf;
  /** Manifests whose books a lookup consulted (or found unreadable), in the order met. */
  readonly consulted = new Set<string>();
  private readonly byBook = new Map<string, BookNames>();

  readonly source: BookSource;

  /**
   * @param source its reads of a file that cannot be read as text (check-files.ts reports it
   *   where it is judged) answer null here: a book is read around such a file, never stopped by it
   * @param names shared with the other contexts of the run (before and after a change)
   */
  constructor(
    source: BookSource,
    readonly names: ChapterNames = new ChapterNames(),
  ) {
    const read = (path: string): string | null => {
      try {
        return source.read(path);
      } catch (e) {
        if (unreadableDiagnostic(e) === null) throw e;
        return null;
      }
    };
    this.source = {
      read,
      manifests: () => source.manifests(),
      resolve: (fromFile, written) => source.resolve(fromFile, written),
      ...(source.prefetch !== undefined ? { prefetch: (paths: readonly string[]) => source.prefetch!(paths) } : {}),
      ...(source.label !== undefined ? { label: source.label } : {}),
    };
    this.shelf = new BookShelf(this.source);
    this.holds = (path) => {
      try {
        return source.read(path) !== null;
      } catch (e) {
        if (unreadableDiagnostic(e) === null) throw e;
        return true;
      }
    };
  }

  /** Whether the source has a file at `path` (one that cannot be read as text included: it is judged, and refused, like any other). */
  readonly holds: (path: string) => boolean;

  booksOf(chapter: string): ShelvedBook[] {
    return this.shelf.booksOf(chapter);
  }

  /** The names `chapter` defines in book mode, as this source holds it (null: the source has no such file). */
  namesOf(chapter: string): ReadonlySet<string> | null {
    const text = this.source.read(chapter);
    return text === null ? null : this.names.of(chapter, text);
  }

  /** Whether some chapter of `book` defines `target`. */
  bookHas(book: ShelvedBook, target: string, self?: string): boolean {
    let names = this.byBook.get(book.manifest);
    if (names === undefined) {
      this.source.prefetch?.(book.chapters);
      this.byBook.set(book.manifest, (names = new BookNames(book.chapters, (p) => this.source.read(p), this.names)));
    }
    return names.has(target, self);
  }

  /**
   * The lookup for a document's targets in its books, for the validator: the books are found
   * when the document first has a target it does not define (a document whose links all
   * resolve in itself never lists the manifests). In no book, a target is simply broken.
   */
  lookupFor(document: string): OutsideResolver {
    let found: OutsideResolver | null | undefined;
    return (target) => {
      if (found === undefined) found = this.resolverFor(document) ?? null;
      return found === null ? "" : found(target);
    };
  }

  /** The lookup for `chapter`'s targets in its books; undefined when no book lists it. */
  resolverFor(chapter: string): OutsideResolver | undefined {
    const list = this.booksOf(chapter);
    if (list.length === 0) {
      // A manifest that cannot be read may be this chapter's book: say so where its links fail.
      const unreadable = this.shelf.unreadableNaming(chapter);
      if (unreadable.length === 0) return undefined;
      const note = ` (${unreadable.join(", ")}, which may list this chapter, is not a valid book manifest: see the error there)`;
      return () => {
        for (const m of unreadable) this.consulted.add(m);
        return note;
      };
    }
    return (target) => {
      for (const b of list) this.consulted.add(b.manifest);
      const missing = list.filter((b) => !this.bookHas(b, target, chapter)).map((b) => b.manifest);
      if (missing.length === 0) return true;
      if (missing.length === list.length) return ` in ${books(missing)}`;
      const found = list.map((b) => b.manifest).filter((m) => !missing.includes(m));
      return ` in ${books(missing)} (it does in ${found.join(", ")}; a chapter's links must resolve in every book that lists it)`;
    };
  }
}

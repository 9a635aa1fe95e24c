/**
 * The names a book's chapters define — canonical ids and aliases as book mode makes them
 * (§2.3: `<chapter-slug>/<id>` for sections at depth ≥ 2, the unscoped id kept as an alias,
 * the filename slug an alias of the chapter's root) — found lazily: a lookup parses chapters
 * one at a time until one defines the name, likeliest first (the chapter a scoped name or a
 * filename slug points at, then chapters whose text holds the words of the name), so a link
 * into one chapter of a long book parses that chapter, not the book. Only a name no chapter
 * defines (a broken link) parses them all. Pure.
 */
import { chapterSlug, parseChapter } from "../noma/parse-book.js";

/** Names per chapter text, shared by every book and source of one run (a chapter's names depend on its path and text alone). */
export class ChapterNames {
  private readonly byPath = new Map<string, Map<string, ReadonlySet<string>>>();

  of(path: string, text: string): ReadonlySet<string> {
    let byText = this.byPath.get(path);
    if (byText === undefined) this.byPath.set(path, (byText = new Map()));
    let names = byText.get(text);
    if (names === undefined) {
      const set = new Set<string>();
      parseChapter(path, text, (node) => {
        set.add(node.id!);
        for (const a of node.aliases) set.add(a);
      });
      byText.set(text, (names = set));
    }
    return names;
  }
}

export class BookNames {
  private readonly found = new Set<string>();
  private readonly parsed = new Set<string>();
  private readonly lower = new Map<string, string | null>();

  /**
   * @param chapters the book's chapter paths, in manifest order
   * @param read a chapter's text, or null when the source has none (a missing chapter defines nothing)
   */
  constructor(
    private readonly chapters: readonly string[],
    private readonly read: (path: string) => string | null,
    private readonly names: ChapterNames,
  ) {}

  /** Whether some chapter defines `target`; `self` (the chapter asking, whose own names already failed) is looked at last unless named. */
  has(target: string, self?: string): boolean {
    if (this.found.has(target)) return true;
    if (this.parsed.size === this.chapters.length) return false;
    for (const path of this.order(target, self)) {
      if (this.parsed.has(path)) continue;
      this.parsed.add(path);
      const text = this.read(path);
      if (text === null) continue;
      for (const n of this.names.of(path, text)) this.found.add(n);
      if (this.found.has(target)) return true;
    }
    return false;
  }

  /** Unparsed chapters, likeliest to define `target` first. */
  private order(target: string, self: string | undefined): string[] {
    const slash = target.indexOf("/");
    const slug = slash === -1 ? target : target.slice(0, slash);
    const words = target.toLowerCase();
    const spaced = words.replace(/-/g, " ");
    const first: string[] = [];
    const then: string[] = [];
    const rest: string[] = [];
    for (const path of this.chapters) {
      if (this.parsed.has(path)) continue;
      if (chapterSlug(path) === slug) {
        first.push(path);
        continue;
      }
      if (path !== self) {
        let text = this.lower.get(path);
        if (text === undefined) this.lower.set(path, (text = this.read(path)?.toLowerCase() ?? null));
        if (text !== null && (text.includes(words) || text.includes(spaced))) {
          then.push(path);
          continue;
        }
      }
      rest.push(path);
    }
    return [...first, ...then, ...rest];
  }
}

/**
 * What a change does to the books around it (the hook and the PR check judge changes): a
 * chapter nobody touched can still break when the change removes what its links point at —
 * a section of another chapter, a chapter the manifest no longer lists or that was deleted —
 * or changes the books that list it. Those chapters are judged for exactly that: their
 * broken references that resolved before the change. A manifest still listing a chapter the
 * change deleted is judged too (book-chapter-missing, once, at the manifest).
 *
 * It costs nothing more than the changed chapters when no name disappears: the names each
 * changed chapter defined before and defines now are compared (one parse of its earlier
 * state), and only a chapter whose text holds a vanished name, or whose books changed, is
 * parsed. Pure: both sources are read through their contexts.
 */
import { checkedPathKind } from "../layout/checked-path.js";
import type { BookContext, OutsideResolver } from "./book-context.js";
import type { ShelvedBook } from "./book-shelf.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import type { FileDiagnostics } from "../report/file-diagnostics.js";

export interface BookRippleInput {
  /** The documents and manifests the change touched, deleted ones included. */
  changed: readonly string[];
  /** Paths already judged in full (not judged again). */
  judged: ReadonlySet<string>;
  /** Paths never judged (the configuration's `exclude`). */
  excluded?: (path: string) => boolean;
  after: BookContext;
  before: BookContext;
  /** A chapter's diagnostics with this lookup for the targets it does not define. */
  judgeChapter: (file: string, text: string, resolveOutside: OutsideResolver) => Diagnostic[];
  /** A manifest's own diagnostics. */
  judgeManifest: (file: string, text: string) => Diagnostic[];
}

function sameBooks(a: readonly ShelvedBook[], b: readonly ShelvedBook[]): boolean {
  return a.length === b.length && a.every((x, i) => x.manifest === b[i]!.manifest);
}

export function bookRipple(input: BookRippleInput): FileDiagnostics[] {
  const { after, before } = input;
  const touched = new Set<string>();
  const gone = new Set<string>();
  const manifestsToJudge = new Set<string>();
  const forget = (names: ReadonlySet<string> | null, kept: ReadonlySet<string> | null): void => {
    if (names !== null) for (const n of names) if (kept === null || !kept.has(n)) gone.add(n);
  };
  for (const path of input.changed) {
    const kind = checkedPathKind(path);
    if (kind === "book") {
      touched.add(path);
      const now = after.shelf.book(path)?.chapters ?? [];
      for (const c of before.shelf.book(path)?.chapters ?? []) if (!now.includes(c)) forget(before.namesOf(c), null);
    } else if (kind === "document") {
      const was = before.booksOf(path);
      const is = after.booksOf(path);
      for (const b of [...was, ...is]) touched.add(b.manifest);
      if (was.length > 0) forget(before.namesOf(path), after.namesOf(path));
      if (after.source.read(path) === null) for (const b of is) manifestsToJudge.add(b.manifest);
    }
  }
  if (touched.size === 0) return [];
  // No name gone and no manifest changed (the usual chapter edit): no other chapter can break.
  const manifestChanged = input.changed.some((p) => checkedPathKind(p) === "book");
  if (gone.size === 0 && !manifestChanged) touched.clear();

  const out: FileDiagnostics[] = [];
  const label = before.source.label ?? "before this change";
  const seen = new Set<string>();
  const chapters = [...touched].flatMap((m) => [...(after.shelf.book(m)?.chapters ?? []), ...(before.shelf.book(m)?.chapters ?? [])]);
  after.source.prefetch?.(chapters.filter((c) => !input.judged.has(c)));
  for (const c of chapters) {
    if (seen.has(c) || input.judged.has(c) || input.excluded?.(c) === true) continue;
    seen.add(c);
    const text = after.source.read(c);
    if (text === null) continue;
    const now = after.booksOf(c);
    const then = before.booksOf(c);
    if (sameBooks(now, then) && ![...gone].some((n) => text.includes(n))) continue;
    const resolveNow = after.resolverFor(c);
    const resolveThen = before.resolverFor(c);
    const resolveOutside: OutsideResolver = (target) => {
      const r = resolveNow === undefined ? " now that no book lists this chapter" : resolveNow(target);
      if (r === true) return true;
      // Only what the change broke: a target that did not resolve before is not its doing.
      if (resolveThen === undefined || resolveThen(target) !== true) return true;
      return `${r} (it did at ${label})`;
    };
    const diagnostics = input.judgeChapter(c, text, resolveOutside).filter((d) => d.code === "broken-reference");
    if (diagnostics.length > 0) out.push({ file: c, diagnostics });
  }
  for (const m of manifestsToJudge) {
    if (input.judged.has(m) || input.excluded?.(m) === true) continue;
    const text = after.source.read(m);
    if (text === null) continue;
    const diagnostics = input.judgeManifest(m, text);
    if (diagnostics.length > 0) out.push({ file: m, diagnostics });
  }
  return out;
}

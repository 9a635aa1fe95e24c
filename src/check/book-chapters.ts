/**
 * Judged paths with the chapters of every judged book manifest added (each once, existing
 * ones only, sorted): judging a book judges its chapters.
 */
import type { BookContext } from "./book-context.js";
import { checkedPathKind } from "../layout/checked-path.js";

export function bookChapters(books: BookContext, paths: readonly string[]): string[] {
  if (!paths.some((p) => checkedPathKind(p) === "book")) return [...paths];
  const out = new Set(paths);
  for (const p of paths) {
    if (checkedPathKind(p) !== "book") continue;
    for (const c of books.shelf.book(p)?.chapters ?? []) if (checkedPathKind(c) === "document" && books.holds(c)) out.add(c);
  }
  return [...out].sort();
}

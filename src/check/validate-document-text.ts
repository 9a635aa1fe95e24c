/**
 * One document's text judged as `check` judges it in the work tree: the profile from its
 * frontmatter, `::dataset src=` files looked up beside it inside the repository, and — for
 * a chapter of a book manifest — its links into the other chapters resolved in its books.
 * What MCP `validate_doc` answers and what the coding agent's gate asks of a new document
 * before it lands, so the two never disagree. `ok` is true when no diagnostic is an error.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { containPath } from "../fsx/contain-path.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import { checkDocument } from "./check-document.js";
import { worktreeChapterLookup } from "./worktree-books.js";

export interface DocumentTextVerdict {
  ok: boolean;
  diagnostics: Diagnostic[];
}

/** `rel`: the document's repository-relative path (it need not exist yet); `text`: what it holds, or would hold. */
export function validateDocumentText(root: string, inRepo: boolean, rel: string, text: string): DocumentTextVerdict {
  /** A path written in `from` (a dataset's src=, a manifest's chapter), inside the repository, or null. */
  const beside = (from: string, written: string): string | null => {
    try {
      return containPath(join(dirname(join(root, from)), written), root, root);
    } catch {
      return null;
    }
  };
  const isFile = (p: string | null): boolean => {
    if (p === null) return false;
    const target = join(root, p);
    return existsSync(target) && statSync(target).isFile();
  };
  const srcExists = (from: string, src: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(src) || isFile(beside(from, src));
  const resolveOutside = worktreeChapterLookup(root, inRepo, rel);
  const { diagnostics } = checkDocument(rel, text, { datasetSrcExists: srcExists, resolveOutside });
  return { ok: !diagnostics.some((d) => d.severity === "error"), diagnostics };
}

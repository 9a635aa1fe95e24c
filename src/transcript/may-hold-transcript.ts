/**
 * The one rule for which files have a transcript (`<file>.patches`): a Noma document — a file
 * whose name ends in `.noma` (any case, as `check` judges it: layout/checked-path.ts). Not a
 * book manifest (`.noma.yml`: patchBook sends each op to its chapter, and each chapter's
 * transcript gets its records), nor YAML, JSON, Markdown or any other file. Every writer of a
 * transcript asks here first: patchDocument (the CLI's `patch`, MCP patch_block, the LSP's code
 * actions, the run loop's act step, `fmt` and `check --fix`), patchBook for each chapter,
 * `transcript accept`, and appendTranscript itself, so no path forgets it. A refusal comes before
 * anything is read, locked or written.
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";
import { checkedPathKind, TRANSCRIPT_SUFFIX } from "../layout/checked-path.js";

/** Whether the file at `path` (a document's path, not its transcript's) may hold a transcript. */
export function mayHoldTranscript(path: string): boolean {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  return name.length > ".noma".length && checkedPathKind(name) === "document";
}

/** A patch or an acknowledgement aimed at a file that is not a document: nothing is read, locked or written. */
export class NotADocumentError extends NomaError {
  static override readonly errorName: string = "NotADocumentError";
  static override readonly kind: ErrorKind = "usage";
  constructor(shown: string) {
    super(
      "not-a-document",
      checkedPathKind(shown) === "book"
        ? `${shown}: a book manifest is not a document; patch the book with patchBook ` +
            "(the CLI's `patch` and MCP patch_block route a manifest there), which sends each op to its chapter"
        : `${shown}: not a Noma document (a document's name ends in .noma); only a document is patched, ` +
            `and only a document has a transcript (${shown}${TRANSCRIPT_SUFFIX} is never written)`,
    );
  }
}

/** Refuse `docPath` unless it may hold a transcript; `shown` names it in the refusal (the repository-relative path). */
export function assertMayHoldTranscript(docPath: string, shown: string = docPath): void {
  if (!mayHoldTranscript(docPath)) throw new NotADocumentError(shown);
}

/** Refuse a transcript path whose document may not hold one (appendTranscript, the book transaction). */
export function assertTranscriptPath(transcriptPath: string, shown: string = transcriptPath): void {
  const doc = transcriptPath.endsWith(TRANSCRIPT_SUFFIX) ? transcriptPath.slice(0, -TRANSCRIPT_SUFFIX.length) : "";
  if (!mayHoldTranscript(doc)) throw new NotADocumentError(shown.endsWith(TRANSCRIPT_SUFFIX) ? shown.slice(0, -TRANSCRIPT_SUFFIX.length) : shown);
}

/**
 * What a validation is told besides the document (validate-noma.ts): the profile, the rules
 * to silence, the clock and stale window, dataset lookups, and what an incremental
 * validation takes over from an earlier one (facts-index.ts).
 */
import type { NomaDocument } from "../noma/ast.js";

export interface ValidateOptions {
  /** Profile to validate against; overrides the frontmatter's `profile:`/`profiles:`. */
  profile?: string;
  /** Rule codes to silence for this run. */
  ignoreRules?: readonly string[];
  /** Default stale window for citations, in days (documents and blocks may set their own). Default DEFAULT_STALE_DAYS (365). */
  staleDays?: number;
  /** "Now", for stale-citation. Default: the current time. */
  now?: Date;
  /** claim-without-evidence is on unless this is false. */
  requireEvidenceForClaims?: boolean;
  /** Whether a ::dataset's src= can be loaded; when absent, dataset-src-missing is not checked. */
  datasetSrcExists?: (src: string) => boolean;
  /**
   * Remember what this document's blocks contribute (directives, references, wikilinks), so
   * a later validation with `previous: <this document>` takes them over. Costs a little;
   * the diagnostics are the same either way.
   */
  cacheBlockFacts?: boolean;
  /**
   * An earlier state of this document, validated with `cacheBlockFacts`, that shares nodes
   * with it (an incremental re-parse, as the patch engine does): facts of the shared head and
   * tail of the walk are taken over, only the blocks between them are read again.
   */
  previous?: NomaDocument;
  /**
   * Where a reference or wikilink target this document does not define is looked up next
   * (a chapter's book: its other chapters, §2.3): `true` when it resolves there (no
   * broken-reference), else words that finish the broken-reference message after "does
   * not exist" (e.g. " in book.noma.yml"). Asked once per target that does not resolve.
   */
  resolveOutside?: (target: string) => true | string;
}

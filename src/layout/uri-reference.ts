/**
 * A slash-separated path as an RFC 3986 URI reference: each segment percent-encoded (its
 * UTF-8 bytes; everything but the unreserved characters and `!*'()`), the `/` between
 * segments kept. `my doc#1.noma` → `my%20doc%231.noma`, `café/100%.noma` →
 * `caf%C3%A9/100%25.noma`. A `:` is encoded too, so a first segment never reads as a scheme.
 *
 * Used wherever we name a repository file by URI: SARIF locations (format-sarif.ts) and a
 * transcript record's `doc_uri` (editing/document-uri.ts). Pure.
 */

/** A lone surrogate (no file system gives one, but a caller might): U+FFFD, as a UTF-8 encoder writes it, rather than a URIError. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function pathToUriReference(path: string): string {
  return path.replace(LONE_SURROGATE, "\uFFFD").split("/").map(encodeURIComponent).join("/");
}

/**
 * The fast path of `items.map(item).join(sep)` for read_doc's block list: the items
 * are joined a few hundred at a time into flat strings as they are written, and the
 * chunks joined at the end. The text is the same byte for byte. Keeping all 63,058
 * block strings of a 5 MiB document alive until one final join kept each one's
 * pieces (a concatenation tree of a dozen small strings) alive too, so the young
 * generation's collector copied about a million small objects into the old one;
 * joined in chunks, the pieces die young (docs/perf/mcp.md, "read_doc … issue 38").
 * Equivalence: test/mcp/join-in-chunks.test.ts (property test against map + join, and
 * read_doc's answer against the old path on generated documents and the conformance corpus).
 */

/** How many items one chunk joins: enough to make the final join short, few enough to die young. */
export const CHUNK_ITEMS = 256;

export function joinInChunks<T>(items: readonly T[], from: number, item: (x: T) => string, sep: string, chunk: number = CHUNK_ITEMS): string {
  const size = Math.max(1, Math.floor(chunk));
  const chunks: string[] = [];
  let part: string[] = [];
  for (let i = from; i < items.length; i++) {
    part.push(item(items[i]!));
    if (part.length === size) {
      chunks.push(part.join(sep));
      part = [];
    }
  }
  if (part.length > 0) chunks.push(part.join(sep));
  return chunks.join(sep);
}

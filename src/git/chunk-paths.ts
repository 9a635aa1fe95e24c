/**
 * Split a long path list into argv-sized chunks. Windows caps a command line
 * at 32 767 characters and the ecosystem habit is "a few thousand"; every git
 * call that takes file lists goes through this, so no list ever overflows argv.
 */

/** Default budget (characters of paths per git invocation). */
export const DEFAULT_CHUNK_CHARS = 6_000;

/** Chunks whose summed path lengths (+1 per separator) stay within `maxChars`; a longer single path gets its own chunk. */
export function chunkPaths(paths: readonly string[], maxChars: number = DEFAULT_CHUNK_CHARS): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const p of paths) {
    const cost = p.length + 1;
    if (current.length > 0 && size + cost > maxChars) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(p);
    size += cost;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** A path as a literal pathspec (no glob or magic interpretation of `*`, `[`, `:`). */
export function literalPathspec(path: string): string {
  return `:(literal)${path}`;
}

/** A glob as an exclude pathspec (`:(exclude,glob)…`). */
export function excludePathspec(glob: string): string {
  return `:(exclude,glob)${glob}`;
}

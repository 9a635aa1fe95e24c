/**
 * "Did you mean …?" for a mistyped name: a command, a flag, an action, a patch op, a
 * configuration key, an MCP tool argument. One distance for all of them: the optimal string
 * alignment distance (Levenshtein plus the swap of two neighbours, so `chekc` is one edit
 * from `check`), compared case-insensitively.
 */

/** Edits (insert, delete, substitute, swap two neighbours) turning `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1]!;
}

/** How far a guess may be from what was typed: 1 edit for short names, about a third of the length for longer ones. */
function tolerance(given: string): number {
  return given.length <= 3 ? 1 : Math.max(2, Math.floor(given.length / 3));
}

/**
 * The known name closest to `given`, if one is close enough to be what was meant; ties go to
 * the earlier name in `known`. A known name that `given` is a prefix of (3+ characters, one
 * such name only) counts too: `mark` → `mark-reconciled`.
 */
export function closestName(given: string, known: Iterable<string>): string | undefined {
  const g = given.toLowerCase();
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  const prefixed: string[] = [];
  for (const k of known) {
    const kl = k.toLowerCase();
    if (kl === g) return k;
    const dist = editDistance(g, kl);
    if (dist < bestD) {
      bestD = dist;
      best = k;
    }
    if (g.length >= 3 && kl.startsWith(g)) prefixed.push(k);
  }
  if (best !== undefined && bestD <= tolerance(g)) return best;
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** ` (did you mean "x"?)` for the closest known name, or "" when none is close. */
export function didYouMean(given: string, known: Iterable<string>): string {
  const k = closestName(given, known);
  return k !== undefined ? ` (did you mean "${k}"?)` : "";
}

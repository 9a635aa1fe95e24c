/** The lines of a `git status` that only one of two states has (pure). */
export function statusDelta(before: string, after: string): string {
  const a = new Set(before.split("\n").filter((l) => l !== ""));
  const b = new Set(after.split("\n").filter((l) => l !== ""));
  const gone = [...a].filter((l) => !b.has(l)).map((l) => `-${l}`);
  const came = [...b].filter((l) => !a.has(l)).map((l) => `+${l}`);
  return [...gone, ...came].join(", ");
}

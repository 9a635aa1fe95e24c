/**
 * zod issues as one readable sentence (field, what was expected, what was found).
 */
/** Describe zod issues as one sentence: field, expected, found. */
export function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; code?: string }>, value: unknown): string {
  return issues
    .slice(0, 3)
    .map((i) => {
      const path = i.path.map(String).join(".");
      let found: unknown = value;
      for (const k of i.path) found = found !== null && typeof found === "object" ? (found as Record<PropertyKey, unknown>)[k] : undefined;
      const shown = found === undefined ? "nothing" : JSON.stringify(found);
      return `${path.length > 0 ? path : "op"}: ${i.message} (found ${shown && shown.length > 60 ? `${shown.slice(0, 57)}...` : shown})`;
    })
    .join("; ");
}

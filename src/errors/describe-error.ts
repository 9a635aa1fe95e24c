/**
 * An error as one line for a message: a system error as `<code>: <message>` (its code said
 * once), one of ours or an Error of a known kind by its message, any other Error (a bug:
 * a TypeError, a RangeError) by its class and message.
 */
export function describeError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err === null || typeof err !== "object") return String(e);
  if (typeof err.code === "string") return err.message.startsWith(`${err.code}:`) ? err.message : `${err.code}: ${err.message}`;
  return String(err.message ?? e);
}

/** A bug's error as one line: its class and its message (`TypeError: x is not a function`). */
export function describeBug(e: unknown): string {
  return e instanceof Error && e.name !== "Error" ? `${e.name}: ${e.message}` : describeError(e);
}

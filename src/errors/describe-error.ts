/** An error as one line for a message: `<code>: <message>` for a system error, else its message. */
export function describeError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code !== undefined ? `${err.code}: ${err.message}` : String(err.message ?? e);
}

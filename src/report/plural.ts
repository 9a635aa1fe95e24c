/** `1 error`, `2 errors`, `0 errors`: a count and a noun that takes an s. */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}

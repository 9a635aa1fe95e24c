/** Is `text[start, start + key.length)` exactly `key`? (No string is made for the range.) */
export function rangeEquals(text: string, start: number, key: string): boolean {
  for (let c = 0; c < key.length; c++) if (key.charCodeAt(c) !== text.charCodeAt(start + c)) return false;
  return true;
}

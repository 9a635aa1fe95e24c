/**
 * One CSV/TSV line → cells. Double-quoted cells may contain the delimiter and
 * `""` for a quote. Cells are returned unquoted and untrimmed.
 */
export function splitDelimited(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let i = 0;
  let quoted = false;
  while (i < line.length) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"') {
        if (line[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell.trim().length === 0) {
      quoted = true;
      cell = "";
      i++;
      continue;
    }
    if (c === delimiter) {
      cells.push(cell);
      cell = "";
      i++;
      continue;
    }
    cell += c;
    i++;
  }
  cells.push(cell);
  return cells;
}

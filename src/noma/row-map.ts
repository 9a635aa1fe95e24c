/**
 * Values by block-table row, for some rows or all of them: a dense list and a typed
 * index. (V8 makes `new Array(n)` a slow dictionary once n passes 100,000 or so; a
 * large document has more rows than that.)
 */
export class RowMap<T> {
  private readonly at: Int32Array;
  private readonly list: T[] = [];

  constructor(rows: number) {
    this.at = new Int32Array(rows).fill(-1);
  }

  get(row: number): T | undefined {
    const k = this.at[row];
    return k === undefined || k === -1 ? undefined : this.list[k];
  }

  set(row: number, value: T): void {
    const k = this.at[row]!;
    if (k !== -1) this.list[k] = value;
    else {
      this.at[row] = this.list.length;
      this.list.push(value);
    }
  }
}

/** Pure: a size the way list_directory_with_sizes shows it (`24 B`, `1.95 KB`, `3.10 MB`, …: powers of 1024). */
export function formatSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  if (bytes < 1024) return `${bytes} B`;
  let u = 0;
  let v = bytes;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(2)} ${units[u]}`;
}

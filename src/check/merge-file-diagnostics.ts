/**
 * The one merge of a check's results, whatever its source (the work tree, the index, a
 * commit): one entry per file, each file's diagnostics in the order their lists gave them,
 * files sorted by path (code-unit order, as git sorts).
 */
import type { FileDiagnostics } from "../report/file-diagnostics.js";

export function mergeFileDiagnostics(...lists: ReadonlyArray<readonly FileDiagnostics[]>): FileDiagnostics[] {
  const byFile = new Map<string, FileDiagnostics>();
  for (const list of lists) {
    for (const r of list) {
      const have = byFile.get(r.file);
      if (have === undefined) byFile.set(r.file, { file: r.file, diagnostics: [...r.diagnostics] });
      else have.diagnostics.push(...r.diagnostics);
    }
  }
  return [...byFile.values()].sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0));
}

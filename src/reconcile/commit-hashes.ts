/**
 * BLAKE3 of changed files as a commit holds them, hashed from their blobs as
 * `git cat-file --batch` streams them (no checkout, no work tree, no cache).
 * Regular files are read by object id, so any path works (spaces, unicode,
 * line breaks); identical contents are read once. A symlink is judged by what
 * it points to inside the commit (`--follow-symlinks`), as a checkout's file
 * would be read; a link leaving the tree, dangling, or whose own path holds a
 * line break has no content, nor has a gitlink (submodule): null, as for a
 * deleted file.
 */
import { loadBlake3 } from "../cache/blake3.js";
import { streamCatFile } from "../git/cat-file-stream.js";
import type { TreeChange } from "../git/tree-changes.js";

const REGULAR = new Set(["100644", "100755"]);
const SYMLINK = "120000";

/** path → BLAKE3 (lowercase hex) of its content in `commit`, or null; for every entry of `changes`. */
export async function commitHashes(
  root: string,
  commit: string,
  changes: readonly Pick<TreeChange, "path" | "oid" | "mode">[],
): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const byOid = new Map<string, string[]>();
  const links: string[] = [];
  for (const c of changes) {
    out.set(c.path, null);
    if (c.oid === null) continue;
    if (REGULAR.has(c.mode)) {
      const paths = byOid.get(c.oid);
      if (paths === undefined) byOid.set(c.oid, [c.path]);
      else paths.push(c.path);
    } else if (c.mode === SYMLINK && !/[\r\n]/.test(c.path)) links.push(c.path);
  }
  if (byOid.size === 0 && links.length === 0) return out;
  const b3 = await loadBlake3();
  await streamCatFile(root, [...byOid.keys()], (oid, blob) => {
    if (blob === null) return;
    const hash = b3.hashHex(blob);
    for (const p of byOid.get(oid)!) out.set(p, hash);
  });
  const prefix = `${commit}:`;
  await streamCatFile(
    root,
    links.map((p) => `${prefix}${p}`),
    (name, blob) => {
      if (blob !== null) out.set(name.slice(prefix.length), b3.hashHex(blob));
    },
    { followSymlinks: true },
  );
  return out;
}

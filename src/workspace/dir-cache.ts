/**
 * Open pinned directories (pinned-dir.ts) by repo-relative path, for a request that reads
 * many files: each directory is opened once, from its nearest open ancestor, instead of
 * walking from the root for every file; at most `limit` are kept open (least recently
 * used closed first). A request closes the cache when it is done.
 */
import { openPinnedDir, type PinnedDir } from "./pinned-dir.js";

export class DirCache {
  private readonly open = new Map<string, PinnedDir>();
  constructor(
    private readonly root: string,
    private readonly limit = 64,
  ) {}

  get(rel: string): PinnedDir {
    const hit = this.open.get(rel);
    if (hit !== undefined) {
      this.open.delete(rel);
      this.open.set(rel, hit); // most recently used last
      return hit;
    }
    const slash = rel.lastIndexOf("/");
    const dir = rel === "" ? openPinnedDir(this.root, "") : this.get(slash === -1 ? "" : rel.slice(0, slash)).sub(rel.slice(slash + 1));
    this.open.set(rel, dir);
    if (this.open.size > this.limit) {
      const [oldest, d] = this.open.entries().next().value as [string, PinnedDir];
      this.open.delete(oldest);
      d.close();
    }
    return dir;
  }

  close(): void {
    for (const d of this.open.values()) d.close();
    this.open.clear();
  }
}

/**
 * Remove many directory trees at once: `fs.promises.rm` (recursive, symlinks removed not
 * followed, as `rmSync`) with up to `concurrency` removals in flight. On a busy disk the
 * queue depth is what a removal waits on: measured in docs/perf/worktree.md, 1,000 run
 * directories went ≈ 4× faster than one `rmSync` after another (and than `rm -rf`).
 * The first failure is thrown after every removal has settled.
 */
import { rm } from "node:fs/promises";

export async function removeTrees(paths: readonly string[], concurrency = 16): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const path = paths[next++]!;
      try {
        await rm(path, { recursive: true, force: true, maxRetries: 2 });
      } catch (e) {
        failure ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, paths.length)) }, worker));
  if (failure !== null) throw failure;
}

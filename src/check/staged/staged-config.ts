/**
 * The configuration as the index holds it (what the pre-commit hook judges by), read before
 * the judgement when the hook may fix (`fix_on_commit`), from the blobs the hook already
 * started reading. Light: no parser, no patch engine.
 */
import type { NomaConfig } from "../../config/config-defaults.js";
import { loadConfigLazy } from "../../config/load-config-lazy.js";
import { blobTextReader } from "../../git/blob-text-reader.js";
import type { RawDiffEntry } from "../../git/parse-diff-raw.js";
import type { StagedPrefetch } from "./prefetch-staged.js";
import { stagedObjectName } from "./staged-object-name.js";

/** The configuration as the index holds it (what the hook judges by). */
export async function stagedConfig(
  cwd: string,
  staged: readonly RawDiffEntry[],
  options: { prefetch?: StagedPrefetch; configPath?: string; onWarning?: (m: string) => void } = {},
): Promise<NomaConfig> {
  const byPath = new Map(staged.map((e) => [e.path, e]));
  const texts = blobTextReader(cwd, (path) => stagedObjectName(byPath, path));
  if (options.prefetch !== undefined) texts.seed(options.prefetch.paths, await options.prefetch.blobs);
  return loadConfigLazy({
    cwd,
    read: (p) => texts.read(p),
    ...(options.configPath !== undefined ? { override: options.configPath } : {}),
    ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}),
  });
}

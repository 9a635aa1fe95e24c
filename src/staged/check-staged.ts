/**
 * `check --staged` (the pre-commit hook): judge what will be committed — the
 * index, read through git (one `git cat-file --batch` process), never the work
 * tree, so a partially staged file is judged by its staged content and a
 * hook's temporary GIT_INDEX_FILE is honoured. Read-only: no cache, no
 * snapshot, no work-tree or index writes.
 */
import { readBlobs } from "../git/cat-file-batch.js";
import { execGit, GitError, splitNul } from "../git/exec-git.js";
import { isSpecPath } from "../governance/glob.js";
import { loadConfig } from "../config/load-config.js";
import { checkedPathKind, CONFIG_PATH } from "../check/checked-path.js";
import { checkFiles, relatedPaths } from "../check/check-files.js";
import { applyExclude } from "../check/apply-exclude.js";
import type { CheckRun } from "../check/check-worktree.js";
import { resolveBeside } from "../check/resolve-beside.js";
import type { CheckOptions } from "../check/check-document.js";
import { listStagedFiles } from "./list-staged-files.js";

export interface CheckStagedOptions {
  /** The repository's top level. */
  root: string;
  cwd: string;
  /** The staged paths, when the caller already listed them. */
  staged?: readonly string[];
  configPath?: string;
  document?: Omit<CheckOptions, "datasetSrcExists" | "chapterExists">;
  onWarning?: (message: string) => void;
}

export function checkStaged(options: CheckStagedOptions): CheckRun {
  const { root } = options;
  const staged = options.staged ?? listStagedFiles(root);
  const relevant = staged.filter((p) => checkedPathKind(p) !== null);
  const texts = new Map<string, string | null>();
  const fetch = (paths: readonly string[]): void => {
    const missing = paths.filter((p) => !texts.has(p));
    if (missing.length === 0) return;
    const blobs = readBlobs(root, missing.map((p) => `:${p}`));
    for (const p of missing) {
      const b = blobs.get(`:${p}`);
      texts.set(p, b === undefined || b === null ? null : b.toString("utf8"));
    }
  };
  fetch([...relatedPaths(relevant), CONFIG_PATH]);
  const read = (p: string): string | null => {
    if (!texts.has(p)) fetch([p]);
    return texts.get(p) ?? null;
  };
  const config = loadConfig({ cwd: options.cwd, read, ...(options.configPath !== undefined ? { override: options.configPath } : {}), ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}) });
  const targets = applyExclude(relevant, config.exclude);
  const inIndex = new Map<string, boolean>();
  const indexHas = (rel: string | null): boolean => {
    if (rel === null) return false;
    let known = inIndex.get(rel);
    if (known === undefined) {
      try {
        execGit(["cat-file", "-e", `:${rel}`], { cwd: root });
        known = true;
      } catch (e) {
        if (!(e instanceof GitError) || e.exitCode === null) throw e;
        known = false;
      }
      inIndex.set(rel, known);
    }
    return known;
  };
  const results = checkFiles({
    targets,
    read,
    specPaths: () => {
      const paths = splitNul(execGit(["ls-files", "-z", "--cached", "--", ".notarai"], { cwd: root })).filter(isSpecPath);
      fetch(paths);
      return paths;
    },
    config,
    document: {
      ...options.document,
      datasetSrcExists: (from, src) => /^[a-z][a-z0-9+.-]*:\/\//i.test(src) || indexHas(resolveBeside(from, src)),
      chapterExists: (from, chapter) => indexHas(resolveBeside(from, chapter)),
    },
  });
  return { targets, results, config };
}

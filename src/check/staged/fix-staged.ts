/**
 * The pre-commit hook's `check --fix` (`fix_on_commit: true` in .notarai/config.yaml, or
 * `check --staged --fix`): apply the fixes to the staged documents, then stage them (and the
 * transcript records they appended) again, into the index git gave the hook — never silently:
 * every fixed and every re-staged file is named on stderr.
 *
 * A fix edits the work tree and stages the result, so it would stage whatever else the work
 * tree holds. A document is fixed only when the work tree and the index agree on it and on
 * its transcript (nothing unstaged; no transcript the index does not hold); otherwise it is
 * left as staged and the hook says why (`check --fix`, then stage, does it by hand).
 */
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import type { NomaConfig } from "../../config/config-defaults.js";
import { fixDocument } from "../../editing/fix-document.js";
import type { RawDiffEntry } from "../../git/parse-diff-raw.js";
import { indexedPaths, stagePaths, unstagedPaths } from "../../git/stage-paths.js";
import { checkedPathKind, documentTranscript } from "../../layout/checked-path.js";
import type { ValidateOptions } from "../../validate/validate-noma.js";
import { worktreeChapterLookup } from "../worktree-books.js";

export interface FixStagedOptions {
  /** The top level of the work tree (where the hook runs). */
  root: string;
  staged: readonly RawDiffEntry[];
  config: NomaConfig;
  /** The check's document options (profile, ignored rules, stale window). */
  validate?: Omit<ValidateOptions, "resolveOutside">;
  /** One line per fixed, skipped or re-staged document. */
  say: (line: string) => void;
  /** The hook's environment (GIT_INDEX_FILE says which index git gave it). */
  env?: NodeJS.ProcessEnv;
}

/** Fix the staged documents; the paths staged again (documents and transcripts). */
export async function fixStaged(options: FixStagedOptions): Promise<string[]> {
  const { root, say } = options;
  let documents = options.staged.filter((e) => e.oid !== null && checkedPathKind(e.path) === "document").map((e) => e.path);
  if (options.config.exclude.length > 0) documents = (await import("../apply-exclude.js")).applyExclude(documents, options.config.exclude);
  if (documents.length === 0) return [];
  const transcripts = documents.map(documentTranscript);
  const unstaged = new Set(unstagedPaths(root, [...documents, ...transcripts]));
  const indexed = new Set(indexedPaths(root, transcripts));
  const restaged: string[] = [];
  for (const doc of documents) {
    const transcript = documentTranscript(doc);
    const hasTranscript = existsSync(join(root, transcript));
    const reason = unstaged.has(doc)
      ? "it has unstaged changes"
      : unstaged.has(transcript)
        ? `${transcript} has unstaged changes`
        : hasTranscript && !indexed.has(transcript)
          ? `${transcript} is not staged`
          : undefined;
    const result =
      reason === undefined
        ? fixDocument(join(root, doc), { root, validate: { ...options.validate, resolveOutside: worktreeChapterLookup(root, true, doc) } })
        : fixDocument(join(root, doc), { root, dryRun: true, validate: { ...options.validate, resolveOutside: worktreeChapterLookup(root, true, doc) } });
    if (result.fixes.length === 0) continue;
    const what = `${result.fixes.length} ${result.fixes.length === 1 ? "fix" : "fixes"} (${[...new Set(result.fixes.map((f) => f.code))].join(", ")})`;
    if (reason !== undefined) {
      say(`not fixed: ${doc}: ${what} possible, but ${reason}; run \`noma-reconcile check --fix ${doc}\` and stage the result`);
      continue;
    }
    if (result.skipped !== undefined) {
      say(`not fixed: ${doc}: ${result.skipped}`);
      continue;
    }
    const paths = [doc, ...(result.recorded ? [transcript] : [])];
    stagePaths(root, paths);
    restaged.push(...paths);
    say(`fixed ${doc}: ${what}; re-staged ${paths.join(", ")}`);
  }
  // `git commit <path>` commits from a temporary index and keeps the real one (locked meanwhile) as it was.
  const index = options.env?.["GIT_INDEX_FILE"];
  if (restaged.length > 0 && index !== undefined && basename(index).startsWith("next-index"))
    say(
      `git commit <path> commits from a temporary index: the fixes are in this commit, but your index keeps the unfixed copies; after the commit, ` +
        `\`git add ${restaged.join(" ")}\` (git status shows them)`,
    );
  return restaged;
}

/**
 * `check --staged` (the pre-commit hook): judge what will be committed — the
 * index, read through git, never the work tree — so a partially staged file
 * is judged by its staged content and a hook's temporary GIT_INDEX_FILE is
 * honoured. Read-only: no cache, no snapshot, no work-tree or index writes.
 *
 * Only the first git call (`git diff --cached --raw`) reads the index; it also
 * names the staged blob of every staged path. Everything else is one
 * `git cat-file --batch` by blob id — and, for paths not staged (a staged
 * document's unchanged transcript, the configuration), by `HEAD:<path>`, which
 * is what the index holds for them. HEAD's version of each staged transcript
 * comes in the same batch: transcripts are append-only against HEAD (records
 * dropped, rewritten or re-sealed, a transcript deleted while its document
 * stays — renames followed), as the PR check holds them to the merge-base.
 *
 * A staged chapter is judged in its books as staged (staged-books.ts), and an unchanged
 * chapter whose links the commit breaks is judged for those links.
 */
import { listTree } from "../../git/paths-in-tree.js";
import { mergeFileDiagnostics } from "../merge-file-diagnostics.js";
import { blobTextReader } from "../../git/blob-text-reader.js";
import { GitError } from "../../git/exec-git.js";
import { loadConfigLazy } from "../../config/load-config-lazy.js";
import { checkedPathKind, CONFIG_PATH, relatedPaths } from "../../layout/checked-path.js";
import { checkFiles } from "../check-files.js";
import type { CheckRun } from "../check-worktree.js";
import type { NomaConfig } from "../../config/config-defaults.js";
import type { CheckOptions } from "../check-document.js";
import { besideLookups, resolveBeside } from "../resolve-beside.js";
import type { RawDiffEntry } from "../../git/parse-diff-raw.js";
import { isNotRegular, notRegularFiles } from "../not-regular-files.js";
import { readBlobs } from "../../git/cat-file-batch.js";
import { renameMap } from "../../git/rename-map.js";
import { transcriptHistoryDiagnostics } from "../transcript-history.js";
import { listStagedEntries } from "../../git/list-staged-files.js";
import type { StagedPrefetch } from "./prefetch-staged.js";
import { stagedObjectName } from "./staged-object-name.js";
import { listIndexManifests, stagedBooks } from "./staged-books.js";

export interface CheckStagedOptions {
  /** Any directory of the work tree (git finds the repository). */
  cwd: string;
  /** The staged entries, when the caller already listed them. */
  staged?: readonly RawDiffEntry[];
  /** Reads the caller already started (`prefetchStaged` on the same entries). */
  prefetch?: StagedPrefetch;
  configPath?: string;
  /** The configuration, when the caller already read it from the index (staged-config.ts). */
  config?: NomaConfig;
  document?: Omit<CheckOptions, "datasetSrcExists" | "chapterExists">;
  onWarning?: (message: string) => void;
}

export async function checkStaged(options: CheckStagedOptions): Promise<CheckRun> {
  const { cwd } = options;
  const staged = new Map((options.staged ?? listStagedEntries(cwd)).map((e) => [e.path, e]));
  const texts = blobTextReader(cwd, (path) => stagedObjectName(staged, path));
  const prefetched = options.prefetch !== undefined ? await options.prefetch.blobs : null;
  if (options.prefetch !== undefined) texts.seed(options.prefetch.paths, prefetched!);
  const relevant = [...staged.keys()].filter((p) => checkedPathKind(p) !== null);
  texts.prefetch([...relatedPaths(relevant), CONFIG_PATH]);
  const read = texts.read;
  const config =
    options.config ??
    (await loadConfigLazy({
      cwd,
      read,
      ...(options.configPath !== undefined ? { override: options.configPath } : {}),
      ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}),
    }));
  const targets = config.exclude.length > 0 ? (await import("../apply-exclude.js")).applyExclude(relevant, config.exclude) : relevant;
  const inIndex = (rel: string | null): boolean => rel !== null && read(rel) !== null;
  const early = options.prefetch?.books !== undefined ? await options.prefetch.books : undefined;
  if (early !== undefined) texts.seed(early.paths, early.blobs);
  const books = stagedBooks(cwd, staged, texts, () => early?.manifests ?? listIndexManifests(cwd), early?.blobs);
  const excluded = config.exclude.length > 0 ? (await import("../apply-exclude.js")).excludedBy(config.exclude) : undefined;
  // A judged path staged as a symbolic link or a submodule is reported, never parsed (not-regular-files.ts).
  const notFiles = notRegularFiles(targets, (t) => staged.get(t), read, "Staged");
  const results = await checkFiles({
    targets: notFiles.length === 0 ? targets : targets.filter((t) => !isNotRegular(staged.get(t))),
    read,
    specPaths: () => {
      const paths = new Set<string>();
      try {
        for (const p of listTree(cwd, "HEAD", ".notarai")) if (checkedPathKind(p) === "spec") paths.add(p);
      } catch (e) {
        if (!(e instanceof GitError) || e.status === null) throw e; // no commit yet: every spec is staged
      }
      for (const [p, e] of staged) {
        if (checkedPathKind(p) !== "spec") continue;
        if (e.oid === null) paths.delete(p);
        else paths.add(p);
      }
      const list = [...paths].sort();
      texts.prefetch(list);
      return list;
    },
    config,
    document: {
      ...options.document,
      ...besideLookups(resolveBeside, inIndex),
    },
    books: { context: books.context, before: books.before, ...(excluded !== undefined ? { excluded } : {}) },
  });
  // Append-only against HEAD: each staged transcript HEAD holds (its blob came in the same batch).
  const headOf = new Map<string, string>();
  // Staged transcripts HEAD does not hold: only the acknowledgements they carry are shown.
  const created: string[] = [];
  for (const t of targets) {
    const headOid = checkedPathKind(t) === "transcript" ? (staged.get(t)?.headOid ?? null) : null;
    if (headOid !== null) headOf.set(t, headOid);
    else if (checkedPathKind(t) === "transcript" && (staged.get(t)?.oid ?? null) !== null) created.push(t);
  }
  if (headOf.size === 0 && created.length === 0) return { targets, results: notFiles.length === 0 ? results : mergeFileDiagnostics(results, notFiles), config };
  const blobs =
    headOf.size === 0
      ? new Map<string, Buffer>()
      : prefetched !== null && [...headOf.values()].every((o) => prefetched.has(o))
        ? prefetched
        : readBlobs(cwd, [...headOf.values()]);
  let renames: Map<string, string> | undefined;
  const history = transcriptHistoryDiagnostics({
    transcripts: [...headOf.keys(), ...created],
    before: (p) => blobs.get(headOf.get(p) ?? "")?.toString("utf8") ?? null,
    after: read,
    renames: () => (renames ??= renameMap(cwd, ["--cached"])),
    label: "HEAD",
  });
  return { targets, results: mergeFileDiagnostics(results, history, notFiles), config };
}

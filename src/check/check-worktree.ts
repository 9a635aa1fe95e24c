/**
 * `check` on the work tree (the I/O edge of `checkFiles`): the files to judge
 * (every tracked kind `check` knows, or the paths given), read from disk;
 * specs resolve `$ref`s against the work tree's spec files; the configuration
 * is the work tree's `.notarai/config.yaml` (or `--config`). Read-only. A file
 * that is a symbolic link out of the repository is never read (exit 2, naming
 * the link and its target), so no byte of an outside file is ever printed.
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { containPath } from "../fsx/contain-path.js";
import { loadConfigLazy } from "../config/load-config-lazy.js";
import type { NomaConfig } from "../config/config-defaults.js";
import type { FileDiagnostics } from "../report/file-diagnostics.js";
import type { CheckOptions } from "./check-document.js";
import { checkFiles } from "./check-files.js";
import { worktreeBeside, worktreeLookups } from "./worktree-lookups.js";
import { listNomaFiles } from "./list-noma-files.js";
import { bookChapters } from "./book-chapters.js";
import { checkedPathKind } from "../layout/checked-path.js";
import { worktreeBooks } from "./worktree-books.js";
import { readRegularFileIfPresent } from "../fsx/read-regular-file.js";
import { decodeText } from "../fsx/utf8-text.js";
import type { Prefetched } from "../fsx/prefetch-files.js";
import { assertNoSymlinkEscape, isSymlink, SymlinkEscapeError } from "../fsx/symlink-escape.js";
import { isOutside } from "../fsx/is-outside.js";
import { displayPath, fsPath, parseQuotedPath } from "../git/git-path.js";

export interface CheckWorktreeOptions {
  root: string;
  inRepo: boolean;
  cwd: string;
  /** Paths as given (files or directories); empty: every tracked file of a checked kind. */
  paths: readonly string[];
  configPath?: string;
  document?: Omit<CheckOptions, "datasetSrcExists" | "chapterExists">;
  onWarning?: (message: string) => void;
  /** Large documents the bin started reading ahead (prefetch-files.ts); used once each, after the link checks. */
  prefetched?: Prefetched;
}

export interface CheckRun {
  /** The paths judged (before transcripts of judged documents were added). */
  targets: string[];
  results: FileDiagnostics[];
  config: NomaConfig;
  /** The files the configuration's `exclude` left out of `targets` (work tree only). */
  excluded?: string[];
}

/** Whether the link at `abs` (bytes) resolves outside the repository (a link to nothing: no, reading it says so). */
function leadsOut(root: string, abs: Buffer): boolean {
  let real: string;
  try {
    real = realpathSync(abs, "buffer").toString("utf8");
  } catch {
    return false;
  }
  return isOutside(realpathSync(root), real);
}

/**
 * A file's text, or null when nothing is there; never through a symbolic link that leads out
 * of the repository (SymlinkEscapeError). A file that is there but cannot be read as text (not
 * a regular file, no permission, a link to nothing, not UTF-8) throws: check-files.ts makes it
 * the file's error.
 */
function readOrNull(root: string, rel: string, prefetched: Prefetched | undefined): string | null {
  const abs = fsPath(root, rel); // bytes for a name that is not UTF-8 (git-path.ts)
  if (typeof abs !== "string") {
    if (lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink() === true && leadsOut(root, abs))
      throw new SymlinkEscapeError(displayPath(rel), readlinkSync(abs, "utf8"), root, "read it");
    const bytes = readRegularFileIfPresent(abs, rel);
    return bytes === null ? null : decodeText(bytes, rel);
  }
  if (isSymlink(abs)) assertNoSymlinkEscape(root, rel, "read it");
  const bytes = prefetched?.take(abs) ?? readRegularFileIfPresent(abs, rel);
  return bytes === null ? null : decodeText(bytes, rel);
}

export async function checkWorktree(options: CheckWorktreeOptions): Promise<CheckRun> {
  const { root } = options;
  await options.prefetched?.settle();
  const read = (p: string): string | null => readOrNull(root, p, options.prefetched);
  const config = await loadConfigLazy({
    cwd: options.cwd,
    read: options.inRepo ? read : () => null,
    ...(options.configPath !== undefined ? { override: options.configPath } : {}),
    ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}),
  });
  const listed = listNomaFiles(root, options.inRepo, options.paths, options.cwd);
  const explicit = new Set<string>();
  for (const given of options.paths) {
    const rel = containPath(parseQuotedPath(given) ?? given, root, options.cwd);
    if (statSync(fsPath(root, rel), { throwIfNoEntry: false })?.isDirectory() === false) explicit.add(rel);
  }
  const contained = worktreeBeside(root);
  // A book manifest judged brings its chapters (`check book.noma.yml` judges the book).
  const books = worktreeBooks(
    root,
    options.inRepo,
    read,
    contained,
    options.paths.length === 0 && options.inRepo ? listed.filter((p) => checkedPathKind(p) === "book") : undefined,
  );
  const withChapters = bookChapters(books, listed);
  const excluded = config.exclude.length > 0 ? (await import("./apply-exclude.js")).excludedBy(config.exclude, explicit) : undefined;
  // One pass: what is judged, and what the exclude left out (said when nothing is left).
  let targets = withChapters;
  const left: string[] = [];
  if (excluded !== undefined) {
    targets = [];
    for (const p of withChapters) (excluded(p) ? left : targets).push(p);
  }
  const results = await checkFiles({
    targets,
    read,
    // Only when a spec is judged (listing them loads the glob library).
    specPaths: async () => (options.inRepo ? (await import("../governance/list-spec-paths.js")).listSpecPaths(root) : []),
    config,
    document: {
      ...options.document,
      ...worktreeLookups(root),
    },
    books: { context: books, withManifests: true, ...(excluded !== undefined ? { excluded } : {}) },
  });
  return { targets, results, config, excluded: left };
}

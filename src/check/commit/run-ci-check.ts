/**
 * The PR check (`noma-reconcile ci`), as a library function: resolve the base,
 * diff merge-base(base, HEAD)…HEAD (deepening a shallow clone if needed), judge
 * every changed document, transcript, sidecar and spec as committed at HEAD
 * (transcripts against their documents at HEAD, and append-only relative to
 * the merge-base), and report drift: for every affected spec, the governed
 * changed files the committed snapshot does not vouch for.
 *
 * One source: everything is read from the commits (trees and blobs through
 * `git cat-file --batch`) — documents, transcripts, specs, the configuration,
 * the snapshot and the governed files' contents. The work tree, the index and
 * the local cache never change the verdict; uncommitted changes that would
 * matter are only listed (`uncommitted`). Read-only: nothing is checked out or
 * written.
 */
import { mergeFileDiagnostics } from "../merge-file-diagnostics.js";
import { isNotRegular, notRegularFiles } from "../not-regular-files.js";
import { blobTextReader, type BlobTextReader } from "../../git/blob-text-reader.js";
import { findMergeBase } from "../../git/merge-base.js";
import { listTree } from "../../git/paths-in-tree.js";
import { renamesOf, treeChanges } from "../../git/tree-changes.js";
import { uncommittedPaths } from "../../git/uncommitted-paths.js";
import type { DriftSpec } from "../../reconcile/classify-drift.js";
import type { ReconciliationDrift } from "../../reconcile/reconciliation-drift.js";
import { checkFiles } from "../check-files.js";
import { checkedPathKind, CONFIG_PATH, relatedPaths } from "../../layout/checked-path.js";
import type { CheckOptions } from "../check-document.js";
import { besideLookups, resolveBeside } from "../resolve-beside.js";
import { commitBooks } from "../commit-books.js";
import { loadConfig } from "../../config/load-config.js";
import type { NomaConfig } from "../../config/config-defaults.js";
import { SNAPSHOT_PATH } from "../../governance/governance.js";
import { isSpecPath } from "../../governance/glob.js";
import type { FileDiagnostics } from "../../report/file-diagnostics.js";
import type { Diagnostic } from "../../validate/diagnostic.js";
import { committedDrift } from "../../reconcile/committed-drift.js";
import { resolveCiBase, type BaseSource } from "./resolve-ci-base.js";
import { specContextAt } from "../../reconcile/spec-context-at.js";
import { transcriptHistoryDiagnostics } from "../transcript-history.js";
import { relevantUncommitted, type UncommittedChanges } from "./uncommitted-notice.js";

export interface CiCheckOptions {
  /** The repository's top level. */
  root: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--base <ref>`; default: the GitHub event, else the default branch. */
  base?: string;
  configPath?: string;
  document?: Omit<CheckOptions, "datasetSrcExists" | "chapterExists">;
  /** Shallow-clone deepening steps (default: findMergeBase's). */
  deepenSteps?: readonly number[];
  onWarning?: (message: string) => void;
  onProgress?: (message: string) => void;
}

export interface CiDrift {
  /** `warning` (default) or `error` (config `drift: error`). */
  severity: "warning" | "error";
  snapshot: ReconciliationDrift["snapshot"];
  specs: DriftSpec[];
  /** Unreconciled (spec, file) pairs. */
  unreconciled: number;
}

export interface CiReport {
  base: { ref: string; source: BaseSource; commit: string; merge_base: string };
  head: string;
  /** Files changed merge-base…HEAD. */
  changed_files: string[];
  /** Changed files judged (documents, transcripts, sidecars, specs). */
  checked: string[];
  /** Diagnostics per file: validation, transcripts (incl. append-only), specs, drift. */
  results: FileDiagnostics[];
  affected_specs: string[];
  drift: CiDrift;
  config: NomaConfig;
  /** Uncommitted changes (index, work tree, untracked) that were not judged, relevant ones only. */
  uncommitted: UncommittedChanges;
}

const REASON = {
  "not-in-snapshot": "not in the snapshot",
  "hash-differs": "changed since the snapshot",
  deleted: "deleted, not recorded in the snapshot",
} as const;

/** Pure: drift as diagnostics on each unreconciled file. */
export function driftDiagnostics(specs: readonly DriftSpec[], severity: "warning" | "error"): FileDiagnostics[] {
  const byFile = new Map<string, Diagnostic[]>();
  for (const s of specs) {
    for (const f of s.unreconciled) {
      const list = byFile.get(f.path) ?? [];
      list.push({
        severity,
        code: "drift-unreconciled",
        message: `Governed by ${s.spec_path} (through "${f.glob}", ${f.category}) and not reconciled: ${REASON[f.reason]}.`,
      });
      byFile.set(f.path, list);
    }
  }
  return [...byFile].map(([file, diagnostics]) => ({ file, diagnostics }));
}

export async function runCiCheck(options: CiCheckOptions): Promise<CiReport> {
  const { root } = options;
  const base = resolveCiBase(root, { ...(options.base !== undefined ? { base: options.base } : {}), env: options.env });
  options.onProgress?.(`base: ${base.ref} (${base.source})`);
  const mb = findMergeBase(root, base.ref, {
    ...(options.deepenSteps !== undefined ? { deepenSteps: options.deepenSteps } : {}),
    onDeepen: (by) => options.onProgress?.(`shallow clone without the merge-base: git fetch --deepen=${by}`),
  });
  // Only to say what was not judged: git walks the work tree while the commit is judged.
  const worktree = uncommittedPaths(root);
  worktree.catch(() => undefined);
  const changes = treeChanges(root, mb.mergeBase, mb.headCommit);
  const changed = changes.map((c) => c.path);

  const readerAt = (rev: string): BlobTextReader => blobTextReader(root, (p) => `${rev}:${p}`);
  const head = readerAt(mb.headCommit);
  const atHead = head.read;
  const relevant = changed.filter((p) => checkedPathKind(p) !== null);
  // Everything under .notarai/ at HEAD: the specs (governance, and judging changed specs), the snapshot.
  const notarai = listTree(root, mb.headCommit, ".notarai");
  head.prefetch([...relatedPaths(relevant), CONFIG_PATH, SNAPSHOT_PATH, ...notarai.filter(isSpecPath)]);
  const config = loadConfig({
    cwd: options.cwd,
    read: atHead,
    ...(options.configPath !== undefined ? { override: options.configPath } : {}),
    ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}),
  });
  const checked = config.exclude.length > 0 ? (await import("../apply-exclude.js")).applyExclude(relevant, config.exclude) : relevant;
  const inTree = (rel: string | null): boolean => rel !== null && atHead(rel) !== null;
  // A judged path committed as a symbolic link or a submodule is reported, never parsed (not-regular-files.ts).
  const entries = new Map(changes.map((c) => [c.path, c]));
  const notFiles = notRegularFiles(checked, (p) => entries.get(p), atHead, "Committed");
  const check = await checkFiles({
    targets: notFiles.length === 0 ? checked : checked.filter((p) => !isNotRegular(entries.get(p))),
    read: atHead,
    specPaths: () => notarai.filter((p) => checkedPathKind(p) === "spec"),
    config,
    document: {
      ...options.document,
      ...besideLookups(resolveBeside, inTree),
    },
    books: commitBooks(root, { commit: mb.headCommit, reader: head }, mb.mergeBase, changed),
  });

  // Append-only: every changed transcript that existed at the merge-base (renames followed).
  const transcripts = checked.filter((p) => checkedPathKind(p) === "transcript");
  const atMergeBase = readerAt(mb.mergeBase);
  atMergeBase.prefetch(transcripts);
  const history = transcriptHistoryDiagnostics({
    transcripts,
    before: atMergeBase.read,
    after: atHead,
    renames: () => renamesOf(changes),
    label: `the merge-base ${mb.mergeBase.slice(0, 12)}`,
  });

  // Drift: the specs, the snapshot and the changed files' contents, all as committed at HEAD.
  const warn = options.onWarning !== undefined ? { onWarning: options.onWarning } : {};
  // The audit records (ledger, archive) where the configuration committed at HEAD puts them.
  const { governance } = specContextAt(notarai, atHead, warn, { ledger: config.workspace.ledger, archive: config.workspace.archive });
  const drift = await committedDrift({ root, head: mb.headCommit, changes, governance, read: atHead, ...warn });
  const severity = config.drift === "error" ? "error" : "warning";

  return {
    base: { ref: base.ref, source: base.source, commit: mb.baseCommit, merge_base: mb.mergeBase },
    head: mb.headCommit,
    changed_files: changed,
    checked,
    results: mergeFileDiagnostics(check, history, notFiles, driftDiagnostics(drift.specs, severity)),
    affected_specs: drift.specs.map((s) => s.spec_path),
    drift: { severity, snapshot: drift.snapshot, specs: drift.specs, unreconciled: drift.unreconciled },
    config,
    uncommitted: relevantUncommitted(await worktree, governance),
  };
}

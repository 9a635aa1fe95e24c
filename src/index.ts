/**
 * The public library API of noma-reconcile — exactly what docs/library.md documents, pinned
 * by test/api-surface.test.ts. Everything else under src/ is internal and may change in any
 * release. (src/internal.ts exports every library function for the benchmarks and for tests
 * that run a built copy in another process; it is not part of the package's exports.)
 */

// Documents: parse, validate, render (Noma Agent Protocol §2–§4).
export type { BlockNode, DirectiveNode, NomaDocument, SectionNode } from "./noma/ast.js";
export { astToJson } from "./noma/ast-json.js";
export { formatNoma, type FormatResult } from "./noma/format-noma.js";
export { parseBookManifest } from "./noma/parse-book.js";
export { parseNoma, type ParseOptions } from "./noma/parse-noma.js";
export { renderNoma } from "./noma/render-noma.js";
export { slugify } from "./noma/slugify.js";
export { documentStructure } from "./noma/structure.js";
export type { Diagnostic } from "./validate/diagnostic.js";
export { KNOWN_PROFILES } from "./validate/profiles.js";
export { RULES } from "./validate/rule-catalog.js";
export { validateNoma, type ValidateOptions } from "./validate/validate-noma.js";
export { verifyCorpus } from "./verify/verify-corpus.js";

// Patches and transcripts (§3, §5).
export { acceptOutsideEdits, AcceptRefusedError, type AcceptOutsideEditsOptions, type AcceptOutsideEditsResult } from "./editing/accept-document.js";
export { documentFixes, type Fix } from "./editing/document-fixes.js";
export { DocumentMissingError, NotADocumentError, patchDocument, type PatchDocumentOptions, type PatchDocumentResult } from "./editing/patch-document.js";
export { BookManifestInvalidError, patchBook, type BookChapterPatch, type PatchBookOptions, type PatchBookResult } from "./editing/patch-book.js";
export { recoverBookTransaction } from "./editing/book-transaction.js";
export { applyPatch, type OpOutcome, type PatchOutcome } from "./patch/apply-patch.js";
export { MalformedOpError } from "./patch/assert-recordable-ops.js";
export { PatchError, type PatchErrorCode } from "./patch/patch-error.js";
export type { PatchOp } from "./patch/patch-op-schema.js";
export { PatchOpSchema } from "./patch/patch-op-union.js";
export type { Actor, TranscriptRecord } from "./transcript/transcript-schema.js";
export { verifyTranscript, type TranscriptReport, type VerifyTranscriptOptions } from "./transcript/verify-transcript.js";

// Checks: the work tree, the index (the pre-commit hook), a commit (the PR check).
export { CHECK_CODES } from "./check/check-codes.js";
export { checkFiles } from "./check/check-files.js";
export { checkWorktree, type CheckRun } from "./check/check-worktree.js";
export { resolveCiBase } from "./check/commit/resolve-ci-base.js";
export { runCiCheck, type CiCheckOptions, type CiReport } from "./check/commit/run-ci-check.js";
export { renderCheckReport } from "./check/render-check-report.js";
export { checkStaged } from "./check/staged/check-staged.js";
export type { FileDiagnostics } from "./report/file-diagnostics.js";

// Reconciliation (NotarAI-compatible).
export { CacheWriteError } from "./cache/write-cache.js";
export { GitRefError } from "./git/git-ref-error.js";
export { baselineReconciliation } from "./reconcile/baseline-reconciliation.js";
export { clearCache } from "./reconcile/clear-cache.js";
export { getChangedArtifacts } from "./reconcile/get-changed-artifacts.js";
export { getSpecDiff } from "./reconcile/get-spec-diff.js";
export { listAffectedSpecs } from "./reconcile/list-affected-specs.js";
export { markReconciled } from "./reconcile/mark-reconciled.js";
export { readSnapshot } from "./reconcile/read-snapshot.js";
export type { ToolOptions } from "./reconcile/reconcile-context.js";
export { ReconcileError, type ReconcileErrorCode } from "./reconcile/reconcile-error.js";
export { reconciliationDrift } from "./reconcile/reconciliation-drift.js";
export { snapshotState } from "./reconcile/snapshot-state.js";
export { coverageReport } from "./governance/coverage-report.js";
export { buildGovernance, type Governance } from "./governance/governance.js";
export { governedFiles } from "./governance/governed-files.js";
export { loadSpecs, type SpecSet, validateSpecFile } from "./governance/load-specs.js";
export { specSchemaJson } from "./governance/spec-json-schema.js";
export { validateSpecText } from "./governance/validate-spec-text.js";
export { whichSpecsGovern } from "./governance/which-specs-govern.js";

// Configuration (.notarai/config.yaml).
export { DEFAULT_CONFIG, type NomaConfig } from "./config/config-defaults.js";
export { ConfigError, loadConfig } from "./config/load-config.js";
export { parseConfig } from "./config/parse-config.js";

// Set-up: init and the git hooks.
export { installHooks } from "./hooks/install-hooks.js";
export { initProject } from "./init/init-project.js";

// The workspace tools (the NOA agent tool API) and their HTTP binding.
export { startWorkspaceHttp, DEFAULT_HTTP_PORT } from "./http/serve-workspace-http.js";
export { appendLedger } from "./workspace/append-ledger.js";
export { applyHunks } from "./workspace/apply-hunks.js";
export { matchAllowlist } from "./workspace/match-allowlist.js";
export { parseAllowlist } from "./workspace/parse-allowlist.js";
export { listArchived, readArchived } from "./workspace/read-archive.js";
export { recordRefusal, runWorkspaceTool } from "./workspace/run-workspace-tool.js";
export { verifyLedger } from "./workspace/verify-ledger.js";
export { openWorkspace, Workspace } from "./workspace/workspace.js";
export { WorkspaceError } from "./workspace/workspace-error.js";
export { WORKSPACE_SCHEMAS } from "./workspace/workspace-schemas.js";
export { WORKSPACE_TOOL_NAMES } from "./workspace/workspace-tool-names.js";

// The run loop (norma's plan → do → check → act).
export { listRuns, showRun } from "./runs/list-runs.js";
export { RunConfigError } from "./runs/run-config.js";
export { RunLockedError } from "./runs/run-lock.js";
export { runLoop } from "./runs/run-loop.js";

// The MCP server.
export { McpServer } from "./mcp/mcp-server.js";
export { runMcpStdio } from "./mcp/run-mcp-stdio.js";
export { TOOL_CATALOG } from "./mcp/tool-catalog.js";

// Locks, errors, version.
export { type ErrorKind, NomaError, RuntimeError, UsageError } from "./errors/noma-error.js";
export { PathOutsideRepoError } from "./fsx/contain-path.js";
export { SymlinkEscapeError } from "./fsx/symlink-escape.js";
export { LockTimeoutError, withFileLock, withFileLockSync } from "./fsx/with-file-lock.js";
export { GitError } from "./git/exec-git.js";
export { TOOL_NAME, TOOL_VERSION } from "./version.js";

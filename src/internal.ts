/**
 * noma-reconcile — the library. The CLI, the MCP server, the hooks and the
 * GitHub Action are thin shells over these functions.
 */
export type * from "./noma/ast.js";
export {
  parseNoma,
  lineText,
  indexLines,
  directiveAttrTokens,
  classifyColonLine,
  parseHeadingLine,
  type ParseOptions,
  type LineIndex,
} from "./noma/parse-noma.js";
export { renderNoma } from "./noma/render-noma.js";
export { documentStructure, type DocumentStructure } from "./noma/structure.js";
export { astToJson } from "./noma/ast-json.js";
export { walkBlocks, idSummary } from "./noma/walk.js";
export { slugify } from "./noma/slugify.js";
export { splitLines, rawLinesForHash } from "./noma/split-lines.js";
export { parseBook, parseBookManifest, chapterSlug, type Book, type BookChapter } from "./noma/parse-book.js";
export { validateNoma, type ValidateOptions } from "./validate/validate-noma.js";
export { summarize, type Diagnostic, type Severity, type ValidationSummary } from "./validate/diagnostic.js";
export { RULES, type RuleCode } from "./validate/rule-catalog.js";
export { DOMAIN_DIRECTIVES, KNOWN_PROFILES, outOfProfileNames, PROFILE_DIRECTIVES } from "./validate/profiles.js";
export { parseFormula } from "./validate/parse-formula.js";
export { checkDocument, type CheckOptions } from "./check/check-document.js";
export type { FileDiagnostics } from "./report/file-diagnostics.js";
export { formatDiagnosticsText } from "./report/format-text.js";
export { formatDiagnosticsJson } from "./report/format-json.js";
export { formatGithubAnnotations, formatMarkdownSummary } from "./report/format-github.js";
export { formatSarif } from "./report/format-sarif.js";
export { verifyCorpus, type CorpusReport, type FixtureResult } from "./verify/verify-corpus.js";
export { evaluateFixture, type FixturePatchEngine } from "./verify/evaluate-fixture.js";
export { TOOL_NAME, TOOL_VERSION } from "./version.js";
// Reconciliation core (issue 4): specs, governance, the BLAKE3 cache, git, the six tools, snapshots.
export { loadSpecs, listSpecPaths, validateSpecFile, buildSpecSet, SYSTEM_SPEC_PATH, type SpecSet } from "./governance/load-specs.js";
export { validateSpecText, type SpecFile, type SpecRef } from "./governance/validate-spec-text.js";
export { resolveSpecRefs, refTargetPath } from "./governance/resolve-spec-refs.js";
export { formatSpecProblem, type SpecProblem, type SpecProblemCode } from "./governance/spec-problem.js";
export { SPEC_VERSIONS, SPEC_SCHEMAS, isSpecVersion, type SpecVersion, type SpecData, type SpecBehavior } from "./governance/spec-schema.js";
export { specSchemaJson, SPEC_SCHEMA_ID } from "./governance/spec-json-schema.js";
export { compileGlob, compileExcludePattern, normalizeGlob, isSpecPath, globMatcher, globTester, GLOB_OPTIONS, SPEC_FILE_GLOB } from "./governance/glob.js";
export { buildGovernance, isInternalPath, SNAPSHOT_PATH, CACHE_DIR, SELF_CATEGORY, type Governance, type Governor } from "./governance/governance.js";
export { governedFiles, listRepoFiles, type GovernedFile } from "./governance/governed-files.js";
export { auditTest, DEFAULT_AUDIT_LOCATIONS, AUDIT_DESCRIPTIONS, type AuditLocations, type AuditKind } from "./governance/audit-paths.js";
export { readAuditLocations } from "./governance/read-audit-locations.js";
export { whichSpecsGovern, pathGovernance, type PathGovernance, type PathState, type WhichSpecsGovernResult } from "./governance/which-specs-govern.js";
export { coverageReport, computeCoverage, type CoverageReport, type CoveragePolicy } from "./governance/coverage-report.js";
export { blake3Hex, loadBlake3, type Blake3 } from "./cache/blake3.js";
export { hashFile, type FileHash } from "./cache/hash-file.js";
export { currentHashes, RACY_WINDOW_MS, type CurrentHashes, type HashMemo } from "./cache/current-hashes.js";
export { readCache, type CacheRead, type CacheQuery } from "./cache/read-cache.js";
export { writeCache, clearCacheDb, ensureCacheDir, CacheWriteError, type CacheWrite } from "./cache/write-cache.js";
export { cacheStats, type CacheStats } from "./cache/cache-stats.js";
export { CACHE_DB_PATH, CACHE_LOCK_PATH } from "./cache/cache-db-path.js";
export { CACHE_SCHEMA_VERSION, ANY_SPEC } from "./cache/cache-tables.js";
export type { CacheStatus } from "./cache/classify-cache-db.js";
export { prepareShortRunWasm } from "./cli/startup/prepare-short-run-wasm.js";
export { findMergeBase, isShallowRepository, SHALLOW_HINT, type MergeBase, type MergeBaseOptions } from "./git/merge-base.js";
export { resolveCommit, isAncestor, assertSafeRef } from "./git/resolve-commit.js";
export { GitRefError, type GitRefErrorCode } from "./git/git-ref-error.js";
export { changedFiles, foldChanges, type ChangedFile, type ChangeKind } from "./git/changed-files.js";
export { diffPatch, diffNumstat, type DiffOptions } from "./git/diff-patch.js";
export { chunkPaths, literalPathspec, excludePathspec, DEFAULT_CHUNK_CHARS } from "./git/chunk-paths.js";
export { parseNameStatusZ, GitOutputError, type NameStatusEntry } from "./git/parse-name-status.js";
export { parseNumstatZ, type NumstatEntry } from "./git/parse-numstat.js";
export { parseLsFilesTagged, type WorktreeEntry } from "./git/parse-ls-files.js";
export { readWorktreeStatus, readWorktreeStatusAsync } from "./git/read-worktree-status.js";
export { isBinaryContent } from "./git/is-binary-content.js";
export { newFileDiff, gitBlobId, quoteGitPath } from "./git/new-file-diff.js";
export { execGitAsync } from "./git/exec-git-async.js";
export { readTextFile, decodeUtf8 } from "./fsx/read-text-file.js";
export {
  withFileLock,
  withFileLockSync,
  acquireFileLock,
  acquireFileLockSync,
  LockTimeoutError,
  setDefaultLockTimeout,
  DEFAULT_LOCK_TIMEOUT_MS,
  type FileLockOptions,
  type HeldLock,
  type LockTimeout,
  type LockOwner,
} from "./fsx/with-file-lock.js";
export {
  listAffectedSpecs,
  type ListAffectedSpecsInput,
  type ListAffectedSpecsResult,
  type AffectedSpec,
  type GitToolOptions,
} from "./reconcile/list-affected-specs.js";
export { getSpecDiff, type GetSpecDiffInput, type SpecDiffResult, type SpecChange } from "./reconcile/get-spec-diff.js";
export { getChangedArtifacts, type GetChangedArtifactsInput, type ChangedArtifactsResult } from "./reconcile/get-changed-artifacts.js";
export { markReconciled, type MarkReconciledInput, type MarkReconciledResult, type MarkedForSpec, type NotMarked } from "./reconcile/mark-reconciled.js";
export { baselineReconciliation, type BaselineInput, type BaselineResult } from "./reconcile/baseline-reconciliation.js";
export { clearCache, type ClearCacheResult } from "./reconcile/clear-cache.js";
export { snapshotState, buildSnapshot, SNAPSHOT_LOCK_PATH, type SnapshotStateResult } from "./reconcile/snapshot-state.js";
export { showState, resetState, type StateShowResult, type StateResetResult } from "./reconcile/state.js";
export {
  reconciliationDrift,
  type ReconciliationDrift,
  type ReconciliationDriftInput,
} from "./reconcile/reconciliation-drift.js";
export type { DriftSpec, DriftFile, DriftReason } from "./reconcile/classify-drift.js";
export { ReconcileError, type ReconcileErrorCode } from "./reconcile/reconcile-error.js";
export type { ToolOptions } from "./reconcile/reconcile-context.js";
export { readSnapshot, snapshotAncestry, ancestryWarning, type SnapshotRead, type SnapshotAncestry } from "./reconcile/read-snapshot.js";
export {
  parseSnapshot,
  formatSnapshot,
  snapshotFingerprints,
  snapshotTimestampToIso,
  SNAPSHOT_SCHEMA_VERSION,
  type Snapshot,
} from "./reconcile/snapshot-format.js";
// Patch engine, transcripts, capability sidecars (Noma Agent Protocol §3, §5, Annex A)
export {
  applyPatch,
  clearPatchMemo,
  preparePatchMemo,
  sha256Hex,
  type ApplyPatchOptions,
  type PatchOutcome,
  type OpOutcome,
  type PatchResult,
} from "./patch/apply-patch.js";
export { DocumentMemo, type DocumentState } from "./patch/document-memo.js";
export { validateOp, applyOp } from "./patch/apply-op.js";
export { PatchError, PATCH_ERROR_CODES, type PatchErrorCode } from "./patch/patch-error.js";
export { OP_NAMES, CORE_OPS, OP_SCHEMAS, type PatchOp, type OpName } from "./patch/patch-op-schema.js";
export { PatchOpSchema } from "./patch/patch-op-union.js";
export { blockHash } from "./patch/op-support.js";
export { patchDocument, transcriptPath, type PatchDocumentOptions, type PatchDocumentResult } from "./editing/patch-document.js";
export { assertRecordableOps, recordableOpProblem, MalformedOpError, MAX_OP_DEPTH } from "./patch/assert-recordable-ops.js";
export { buildRecords, chainLines, type TranscriptRecord, type Actor } from "./transcript/transcript-record.js";
import { transcriptSchemas } from "./transcript/transcript-schema.js";
/** The v1.0 transcript record as a zod schema (§5). */
export const TranscriptRecordSchema = transcriptSchemas().record;
export { verifyTranscript, transcriptLines, type TranscriptReport, type TranscriptFinding } from "./transcript/verify-transcript.js";
export { acceptOutsideEdits, AcceptRefusedError, type AcceptOutsideEditsOptions, type AcceptOutsideEditsResult } from "./editing/accept-document.js";
export { ACCEPT_OP, type OutsideEdit } from "./transcript/accept-outside-edit.js";
export { readCapabilities, sidecarPath } from "./capability/read-capabilities.js";
export { capabilitySchemas, type CapabilityDescriptor } from "./capability/capability-schema.js";
export { capabilityAdvisories } from "./capability/capability-advisory.js";
export { execGit, execGitBuffer, splitNul, GitError, type ExecGitOptions } from "./git/exec-git.js";
// Hooks and the PR check (issue 6)
export { installHooks, type InstallHooksOptions, type InstallHooksResult } from "./hooks/install-hooks.js";
export { gitHooksDir } from "./git/read-ref.js";
export {
  PRE_COMMIT_SCRIPT,
  PRE_COMMIT_BLOCK,
  HOOK_COMMAND,
  HOOK_MARKER,
  SKIP_ENV,
  BIN_ENV,
  BIN_GIT_CONFIG,
  isOwnHook,
  NOTHING_STAGED,
  STAGED_FILTER,
} from "./hooks/hook-script.js";
export { locateProgram, type ProgramLocation } from "./hooks/locate-program.js";
export { parseCatFileBatch, readBlobs, readBlobsAsync, type BatchObject } from "./git/cat-file-batch.js";
export { listStagedFiles } from "./git/list-staged-files.js";
export { checkStaged, type CheckStagedOptions } from "./check/staged/check-staged.js";
export { checkWorktree, type CheckWorktreeOptions, type CheckRun } from "./check/check-worktree.js";
export { checkFiles, type CheckFilesInput } from "./check/check-files.js";
export { checkedPathKind, relatedPaths, documentTranscript, transcriptDocument, CONFIG_PATH, type CheckedKind } from "./layout/checked-path.js";
export { applyExclude } from "./check/apply-exclude.js";
export { renderCheckReport, CHECK_FORMATS, type CheckFormat } from "./check/render-check-report.js";
export { CHECK_CODES, describeCheckCode } from "./check/check-codes.js";
export { parseConfig, formatConfigProblem, type ConfigProblem, type ConfigResult } from "./config/parse-config.js";
export { loadConfig, ConfigError, type LoadConfigOptions } from "./config/load-config.js";
export {
  ConfigSchema,
  DEFAULT_CONFIG,
  DEFAULT_WORKSPACE_CONFIG,
  CONFIG_KEYS,
  WORKSPACE_KEYS,
  type NomaConfig,
  type WorkspaceConfig,
} from "./config/config-schema.js";
export { runCiCheck, driftDiagnostics, type CiCheckOptions, type CiReport, type CiDrift } from "./check/commit/run-ci-check.js";
export { resolveCiBase, defaultBranchRef, CiBaseError, type CiBase, type BaseSource } from "./check/commit/resolve-ci-base.js";
export { baseFromGithubEvent, parseGithubEvent, type EventBase } from "./check/commit/github-event-base.js";
export { appendOnlyDiagnostics } from "./check/transcript-append-only.js";
export {
  renderCiText,
  renderCiJson,
  renderCiAnnotations,
  renderCiSummary,
  renderCiOutputs,
  renderCiSarif,
  ciCounts,
  ciFails,
  CI_JSON_SCHEMA,
  STEP_SUMMARY_LIMIT,
  type CiCounts,
  type FailOn,
} from "./check/commit/render-ci-report.js";
export { parseDiffRawZ, type RawDiffEntry } from "./git/parse-diff-raw.js";
export { listStagedEntries } from "./git/list-staged-files.js";
export { prefetchStaged, type StagedPrefetch } from "./check/staged/prefetch-staged.js";
export { stagedObjectName } from "./check/staged/staged-object-name.js";
// MCP server and init (issue 5)
export { McpServer, SERVER_INSTRUCTIONS, type McpServerOptions, type RepoRoot } from "./mcp/mcp-server.js";
export { runMcpStdio, type McpStdioOptions } from "./mcp/run-mcp-stdio.js";
export { TOOL_CATALOG, TOOL_NAMES, type ToolName, type ToolMeta, type ToolAnnotations } from "./mcp/tool-catalog.js";
export { TOOL_SCHEMAS, type ToolSchemas } from "./mcp/tool-schemas.js";
export { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION, negotiateProtocolVersion } from "./mcp/protocol-version.js";
export { initProject, planInit, type InitResult, type InitFile, type InitOptions, type InitAction } from "./init/init-project.js";
export { mergeMcpJson, McpJsonError, type McpJsonMerge } from "./init/merge-mcp-json.js";
export { MCP_SERVER_ENTRY, LEGACY_MCP_SERVER_ENTRIES, readmeVersion, readmeVersionLine } from "./init/notarai-files.js";
// The workspace tools (the NOA agent tool API): containment, allowlisted commands, archive-before-overwrite, the evidence ledger.
export { openWorkspace, Workspace, type WorkspaceOptions, type CheckedPath } from "./workspace/workspace.js";
export { runWorkspaceTool, recordRefusal, type WorkspaceCallOptions, type WorkspaceOutcome, type Binding } from "./workspace/run-workspace-tool.js";
export { WORKSPACE_TOOL_NAMES, isWorkspaceTool, type WorkspaceToolName } from "./workspace/workspace-tool-names.js";
export { WORKSPACE_SCHEMAS, MAX_FILE_BYTES } from "./workspace/workspace-schemas.js";
export { WorkspaceError, HTTP_STATUS, failureBody, type WorkspaceErrorCode, type FailureBody } from "./workspace/workspace-error.js";
export { checkPathText, protectedReason, isGitComponent, type ProtectedPaths } from "./workspace/path-rules.js";
export {
  parseAllowlist,
  formatAllowlistProblem,
  isBareExecutable,
  type Allowlist,
  type AllowRecord,
  type AllowlistProblem,
} from "./workspace/parse-allowlist.js";
export { matchAllowlist, recordMatches, refusedEnvironmentKeys } from "./workspace/match-allowlist.js";
export { parseArgPattern, matchArgPattern } from "./workspace/arg-pattern.js";
export { applyHunks, type Hunk } from "./workspace/apply-hunks.js";
export { appendLedger, type LedgerRecord } from "./workspace/append-ledger.js";
export { formatLedgerLine, ledgerLineHash, LEDGER_GENESIS, type LedgerEntry } from "./workspace/ledger-line.js";
export { verifyLedger, splitLedger, type LedgerReport, type LedgerFinding, type LedgerFindingCode } from "./workspace/verify-ledger.js";
export { archiveVersion, archivePathFor, memberName, type ArchivedVersion } from "./workspace/archive-version.js";
export { listArchived, readArchived, type ArchiveFile, type ArchivedMember } from "./workspace/read-archive.js";
export { tarMembers, TarFormatError } from "./workspace/tar-members.js";
export { runProcess, type RunProcessOptions, type RunProcessResult } from "./process/run-process.js";
export {
  startWorkspaceHttp,
  loopbackAddress,
  tokenMatches,
  DEFAULT_HTTP_PORT,
  type WorkspaceHttpOptions,
  type WorkspaceHttpServer,
} from "./http/serve-workspace-http.js";
// The run loop: plan → do → check → act in norma's layout (issue 13)
export { nextStep } from "./runs/next-step.js";
export { checkAgentBinaries } from "./runs/check-agent-binaries.js";
export { RunSetupError } from "./runs/run-setup-error.js";
export { RunStateError, readStored, STORED_RUN_STATE } from "./runs/stored-run-state.js";
export {
  runLoop,
  defaultMcpCommand,
  readStepFile,
  type RunLoopOptions,
  type RunResult,
  type RunProgress,
  type RunStepSummary,
} from "./runs/run-loop.js";
export {
  listRuns,
  showRun,
  runStatus,
  recoverIfIdle,
  type RunList,
  type RunListEntry,
  type RunDetail,
  type RunEvent,
  type RunStatusResult,
} from "./runs/list-runs.js";
export { recoverRuns, type RecoveryReport, type PendingPatch } from "./runs/recover-runs.js";
export { normaTransaction, readNormaState, NormaTx, NormaDbError, type NormaState } from "./runs/norma-db.js";
export { assertWorktreeIgnored, createWorktree, planWorktree } from "./runs/run-worktree.js";
export { pruneRuns } from "./runs/prune-runs.js";
export {
  NORMA_TABLES,
  NORMA_SCHEMA_VERSION,
  type RunRow,
  type StepRow,
  type EventRow,
  type RunStatus,
  type StepStatus,
  type Verdict,
} from "./runs/norma-schema.js";
export {
  NORMA_DIR,
  NORMA_DB,
  NORMA_CONFIG,
  RUN_LOCK,
  RUNS_DIR,
  ROLES,
  RUN_ID_PATTERN,
  stepDirName,
  parseStepDirName,
  runDir,
  stepDir,
  type Role,
} from "./layout/norma-layout.js";
export { commitStep, type StepCommit, type EventSpec } from "./runs/commit-step.js";
export { executeStep, type StepInput, type StepOutcome } from "./runs/execute-step.js";
export {
  AgentResponseSchema,
  VerdictSchema,
  ReconciledAckSchema,
  NomaPatchFileSchema,
  parseJsonAs,
  normalizeResponse,
  PROTOCOL_VERSION,
  type AgentRequest,
  type AgentResponse,
  type AcceptanceCriterion,
  type Budgets,
  type VerdictFile,
  type ReconciledAck,
  type NomaPatchEntry,
  type McpServerRef,
} from "./runs/agent-protocol.js";
export { roleTools, parseAgentStep, formatAgentStep, WORK_TOOLS, AGENT_ROLES, type AgentStep, type AgentRole } from "./runs/agent-step.js";
export { ledgerEdits, worktreeFingerprint, changedPaths, type RecordPaths } from "./runs/worktree-changes.js";
export {
  parseRunConfig,
  loadRunConfig,
  defaultRunConfig,
  RunConfigError,
  AGENT_TYPES,
  CLI_AGENT_TYPES,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_TIMEOUT_MS,
  type RunConfig,
  type AgentConfig,
  type AgentType,
  type CliAgentType,
  type ExecAgentConfig,
  type CliAgentConfig,
  type BuiltinAgentConfig,
} from "./runs/run-config.js";
export { generateCriteria, parseAcArg, publicCriteria, type RunCriterion, type CriterionKind } from "./runs/run-criteria.js";
export {
  planPatch,
  applyPatchPlan,
  budgetBreach,
  filesBreach,
  gitState,
  type PatchPlan,
  type BudgetBreach,
  type GitState,
  type ApplyResult,
} from "./runs/apply-act-patch.js";
export { builtinCheck, type Acknowledgement, type BuiltinCheckInput, type BuiltinCheckResult } from "./runs/agents/builtin-check.js";
export { cliAgentCommand, MCP_SERVER_NAME, type CliCommand } from "./runs/agents/cli-agent-command.js";
export { extractResponse } from "./runs/agents/extract-response.js";
export { rolePrompt } from "./runs/agents/role-prompt.js";
export { acquireRunLock, RunLockedError, readLockHolder, type LockHolder } from "./runs/run-lock.js";
export { pendingDrift, type PendingFile } from "./runs/pending-drift.js";
export { formatJsonEnvelope, jsonEnvelope, OUTPUT_NAMES, outputSchemaId, type OutputName } from "./report/json-envelope.js";
export { outputSchema, outputJsonSchema } from "./cli/output-schemas.js";
export { configJsonSchema, CONFIG_KEY_DESCRIPTIONS } from "./config/config-json-schema.js";
export { runConfigJsonSchema } from "./runs/run-config-json-schema.js";
export { TOP_KEYS as RUN_CONFIG_KEYS } from "./runs/run-config.js";
export { launcherScript, LAUNCHER_PATH, PLUGIN_LAUNCHER_PATH, isOwnLauncher } from "./init/launcher-script.js";
export { AGENT_HOOKS, AGENT_NAMES } from "./init/agent-setups.js";
export { mergeAgentSettings, AgentSettingsError, isGateCommand } from "./init/merge-agent-settings.js";
export { parseShell } from "./hooks/shell-words.js";
export { shellWrites } from "./hooks/shell-writes.js";
export { expandBraces, resolveShellTargets } from "./hooks/resolve-shell-targets.js";
export { parseCodexPatch, applyCodexUpdate } from "./hooks/codex-patch.js";
export { parseAgentHookInput, applyStringEdits, AgentHookInputError } from "./hooks/agent-hook-input.js";
export { opsForTextChange } from "./editing/ops-for-text-change.js";

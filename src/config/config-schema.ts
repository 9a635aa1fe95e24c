/**
 * `.notarai/config.yaml`, the root configuration (one file, at the top level;
 * no per-directory cascades). zod/mini: it is read on the hook path.
 *
 *   transcripts: warn | strict   # strict: a document edited outside the patch protocol blocks
 *   drift: warning | error       # error: unreconciled governed changes fail the PR check
 *   exclude: [glob, …]           # paths check, the hook and the PR check never judge
 *   workspace:                   # the agent workspace tools (NOA) and the run loop's test criterion
 *     allowlist: tools/allowed_commands.toml   # run_command's allowlist (TOML)
 *     ledger: docs/evidence_ledger.tools.log   # the evidence ledger every tool request appends to
 *     archive: archive                         # where overwritten versions are kept
 *     test: [npm, test]                        # argv of run_tests (and of the loop's test criterion)
 *     build: [npm, run, build]                 # argv of build_workspace
 *     read_only: false                         # true: the MCP and HTTP servers offer only the tools that read
 *   lock_timeout: 15             # seconds a write waits for a lock another process holds (0–3600)
 *   fix_on_commit: false         # true: the pre-commit hook applies check --fix to staged documents and re-stages them
 */
import * as z from "zod/mini";
import { MAX_LOCK_TIMEOUT_SECONDS } from "./config-defaults.js";

const argv = z.array(z.string().check(z.minLength(1))).check(z.minLength(1));

export const WorkspaceConfigSchema = z.object({
  allowlist: z.optional(z.string().check(z.minLength(1))),
  ledger: z.optional(z.string().check(z.minLength(1))),
  archive: z.optional(z.string().check(z.minLength(1))),
  test: z.optional(argv),
  build: z.optional(argv),
  read_only: z.optional(z.boolean()),
});

export const ConfigSchema = z.object({
  transcripts: z.optional(z.enum(["warn", "strict"])),
  drift: z.optional(z.enum(["warning", "error"])),
  exclude: z.optional(z.array(z.string())),
  workspace: z.optional(WorkspaceConfigSchema),
  lock_timeout: z.optional(z.number().check(z.gte(0), z.lte(MAX_LOCK_TIMEOUT_SECONDS))),
  fix_on_commit: z.optional(z.boolean()),
});

export {
  CONFIG_KEYS,
  WORKSPACE_KEYS,
  DEFAULT_WORKSPACE_CONFIG,
  DEFAULT_CONFIG,
  MAX_LOCK_TIMEOUT_SECONDS,
  type WorkspaceConfig,
  type NomaConfig,
} from "./config-defaults.js";

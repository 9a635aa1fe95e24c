/**
 * The seven NOA tools' request and response shapes as zod schemas: the single source
 * for validating requests (both bindings) and for the JSON Schemas the MCP server
 * advertises. Requests are closed objects (an unknown key is an error).
 */
import * as z from "zod/mini";

import type { WorkspaceToolName } from "./workspace-tool-names.js";
import { DEFAULT_COMMAND_TIMEOUT_SECONDS, MAX_COMMAND_TIMEOUT_SECONDS } from "./command-timeout.js";
export { WORKSPACE_TOOL_NAMES, isWorkspaceTool, type WorkspaceToolName } from "./workspace-tool-names.js";

/** Largest file read_file returns and edit_file writes (bytes). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_OUTPUT_BYTES = 1024 * 1024;
export const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
export const DEFAULT_LIST_ENTRIES = 10_000;
export const MAX_LIST_ENTRIES = 100_000;

const path = z
  .string()
  .check(
    z.describe(
      "File path relative to the repository root, forward slashes (e.g. docs/example.md); an absolute path must be inside the repository. No .., no backslashes, nothing under .git/",
    ),
  );
const timeout = z.optional(
  z
    .number()
    .check(
      z.positive(),
      z.lte(MAX_COMMAND_TIMEOUT_SECONDS),
      z.describe(
        `Kill the command (and everything it started) after this many seconds. Default ${DEFAULT_COMMAND_TIMEOUT_SECONDS}, or the allowlist record's timeout_seconds, which is also the maximum`,
      ),
    ),
);
const maxOutput = z.optional(
  z
    .int()
    .check(
      z.gte(1024),
      z.lte(MAX_OUTPUT_BYTES),
      z.describe(
        `Keep at most this many bytes of stdout and of stderr (the first and last halves; truncated: true says some were left out). Default ${DEFAULT_OUTPUT_BYTES}`,
      ),
    ),
);

const commandResult = z.strictObject({
  success: z.boolean().check(z.describe("true when the command exited with status 0")),
  exit_code: z.nullable(z.number()),
  signal: z.nullable(z.string()),
  stdout: z.string(),
  stderr: z.string(),
  truncated: z.boolean(),
  timed_out: z.boolean(),
  duration_ms: z.number(),
  argv: z.array(z.string()).check(z.describe("What ran: the executable's absolute path, then the arguments")),
  message: z.optional(z.string()),
});

const hunk = z.strictObject({
  start_line: z.int().check(z.gte(1), z.describe("First line replaced (1-indexed)")),
  end_line: z.int().check(z.gte(0), z.describe("Last line replaced (inclusive); start_line − 1 inserts before start_line")),
  replacement: z.string().check(z.describe("The new lines (a line break is added when missing); empty deletes the lines")),
});

const archived = z.strictObject({
  archive: z.string().check(z.describe("The archive file (archive/YYYY/MM/<path>.tar.zst)")),
  member: z.string().check(z.describe("The member holding the previous version (<path>.~N~)")),
  version: z.number(),
});

export const WORKSPACE_SCHEMAS = {
  run_command: {
    input: z.strictObject({
      command: z.string().check(z.minLength(1), z.describe("A bare executable name (no slashes), looked up on the server's PATH")),
      args: z.optional(z.array(z.string()).check(z.describe("Arguments; command + args must match a record of the allowlist"))),
      environment: z.optional(
        z.record(z.string(), z.string()).check(z.describe("Extra variables; only keys the matching allowlist record lists are accepted")),
      ),
      timeout_seconds: timeout,
      max_output_bytes: maxOutput,
    }),
    output: commandResult,
  },
  edit_file: {
    input: z.strictObject({
      path,
      contents: z.string().check(z.describe("The whole new contents (UTF-8)")),
      create_if_missing: z.optional(z.boolean().check(z.describe("Create the file (and its directories) when it does not exist. Default false"))),
    }),
    output: z.strictObject({
      success: z.literal(true),
      bytes_written: z.number(),
      path: z.string(),
      created: z.boolean(),
      unchanged: z.boolean().check(z.describe("The file already had these contents: nothing was archived or written")),
      archived: z.optional(archived),
    }),
  },
  apply_patch: {
    input: z.strictObject({
      path,
      hunks: z.array(hunk).check(z.minLength(1), z.describe("Ordered, non-overlapping line ranges; all apply or none does")),
    }),
    output: z.strictObject({
      success: z.literal(true),
      hunks_applied: z.number(),
      bytes_written: z.number(),
      path: z.string(),
      archived: z.optional(archived),
    }),
  },
  list_files: {
    input: z.strictObject({
      path: z.optional(path.check(z.describe("Directory relative to the repository root. Default: the root"))),
      recursive: z.optional(z.boolean().check(z.describe("Also list everything below (symbolic links are listed, not followed). Default false"))),
      max_entries: z.optional(
        z.int().check(z.gte(1), z.lte(MAX_LIST_ENTRIES), z.describe(`Stop after this many entries (truncated: true). Default ${DEFAULT_LIST_ENTRIES}`)),
      ),
    }),
    output: z.strictObject({
      success: z.literal(true),
      path: z.string(),
      entries: z.array(z.strictObject({ path: z.string(), kind: z.enum(["file", "dir", "symlink", "other"]), size: z.number() })),
      truncated: z.boolean(),
    }),
  },
  read_file: {
    input: z.strictObject({ path }),
    output: z.strictObject({ success: z.literal(true), path: z.string(), contents: z.string(), bytes: z.number(), sha256: z.string() }),
  },
  run_tests: {
    input: z.strictObject({ timeout_seconds: timeout, max_output_bytes: maxOutput }),
    output: commandResult,
  },
  build_workspace: {
    input: z.strictObject({ timeout_seconds: timeout, max_output_bytes: maxOutput }),
    output: commandResult,
  },
} satisfies Record<WorkspaceToolName, { input: z.ZodMiniType; output: z.ZodMiniType }>;

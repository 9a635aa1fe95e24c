/**
 * The workspace tools' request and response shapes as zod schemas: the single source
 * for validating requests (both bindings) and for the JSON Schemas the MCP server
 * advertises. Requests are closed objects (an unknown key is an error). The tools named
 * after the MCP filesystem server's take its argument names (camelCase: `dryRun`,
 * `excludePatterns`, `sortBy`); `read_file` and `edit_file` take both theirs and NOA's.
 * Each tool's `input` and `output` is built when first read (lazy-fields.ts): a request builds its
 * own tool's schema only.
 */
import * as z from "zod/mini";
import { lazyFields } from "./lazy-fields.js";

import type { WorkspaceToolName } from "./workspace-tool-names.js";
import { DEFAULT_COMMAND_TIMEOUT_SECONDS, MAX_COMMAND_TIMEOUT_SECONDS } from "./command-timeout.js";
export { WORKSPACE_TOOL_NAMES, isWorkspaceTool, type WorkspaceToolName } from "./workspace-tool-names.js";

/** Largest file read_file returns and edit_file writes (bytes). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_OUTPUT_BYTES = 1024 * 1024;
export const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
export const DEFAULT_LIST_ENTRIES = 10_000;
export const MAX_LIST_ENTRIES = 100_000;
/** Most paths one read_multiple_files request names. */
export const MAX_MULTI_PATHS = 1000;
/** Most matches search_text returns. */
export const MAX_TEXT_MATCHES = 10_000;

const path = z
  .string()
  .check(
    z.describe(
      "File path relative to the repository root, forward slashes (e.g. docs/example.md); an absolute path must be inside the repository. No .., no " +
        "backslashes, nothing under .git/",
    ),
  );
const timeout = z.optional(
  z
    .number()
    .check(
      z.positive(),
      z.lte(MAX_COMMAND_TIMEOUT_SECONDS),
      z.describe(
        `Kill the command (and everything it started) after this many seconds. Default ${DEFAULT_COMMAND_TIMEOUT_SECONDS}, or the allowlist ` +
          `record's timeout_seconds, which is also the maximum`,
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
        `Keep at most this many bytes of stdout and of stderr (the first and last halves; truncated: true says some were left out). ` +
          `Default ${DEFAULT_OUTPUT_BYTES}`,
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

const dirPath = path.check(z.describe('Directory relative to the repository root ("." for the root), or absolute inside it'));
const lineCount = (which: string) =>
  z.optional(
    z
      .int()
      .check(
        z.gte(0),
        z.describe(`Only the ${which} N lines (each with its line break; a last line without one counts). Not with ${which === "first" ? "tail" : "head"}`),
      ),
  );
const excludePatterns = z.optional(
  z
    .array(z.string())
    .check(
      z.describe(
        "Globs of entries to leave out, with everything below them: a pattern with a / matches the path from the starting directory, one without a " +
          "name at any depth (like .gitignore)",
      ),
    ),
);
const contentText = (what: string) => z.string().check(z.describe(what));
const entryKind = z.enum(["file", "dir", "symlink", "other"]);
const treeNode: z.ZodMiniType = z.lazy(() =>
  z.strictObject({
    name: z.string(),
    type: z.enum(["file", "directory"]),
    children: z.optional(z.array(treeNode)),
    truncated: z.optional(z.literal(true)),
  }),
);
const mediaBlock = z.union([
  z.strictObject({ type: z.enum(["image", "audio"]), data: z.string(), mimeType: z.string() }),
  z.strictObject({ type: z.literal("resource"), resource: z.strictObject({ uri: z.string(), mimeType: z.string(), blob: z.string() }) }),
]);
const textEdit = z.strictObject({
  oldText: z
    .string()
    .check(z.describe("Text to find: exactly (its first occurrence), else line by line ignoring each line's leading and trailing white space")),
  newText: z.string().check(z.describe("Its replacement (re-indented to the file's indentation when found line by line)")),
});

const archived = z.strictObject({
  archive: z.string().check(z.describe("The archive file (archive/YYYY/MM/<path>.tar.zst)")),
  member: z.string().check(z.describe("The member holding the previous version (<path>.~N~)")),
  version: z.number(),
});

export const WORKSPACE_SCHEMAS = lazyFields({
  run_command: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          command: z.string().check(z.minLength(1), z.describe("A bare executable name (no slashes), looked up on the server's PATH")),
          args: z.optional(z.array(z.string()).check(z.describe("Arguments; command + args must match a record of the allowlist"))),
          environment: z.optional(
            z.record(z.string(), z.string()).check(z.describe("Extra variables; only keys the matching allowlist record lists are accepted")),
          ),
          timeout_seconds: timeout,
          max_output_bytes: maxOutput,
        }),
      output: () => commandResult,
    }),
  edit_file: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          path,
          contents: z.optional(z.string().check(z.describe("The whole new contents (UTF-8). Give this or edits"))),
          create_if_missing: z.optional(
            z.boolean().check(z.describe("With contents: create the file (and its directories) when it does not exist. Default false")),
          ),
          edits: z.optional(
            z
              .array(textEdit)
              .check(
                z.describe(
                  "The MCP filesystem server's shape: text replacements applied in order (all or none); the answer is a git-style diff. Give this or contents",
                ),
              ),
          ),
          dryRun: z.optional(z.boolean().check(z.describe("With edits: only compute the diff, write nothing. Default false"))),
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          bytes_written: z.number(),
          path: z.string(),
          created: z.boolean(),
          unchanged: z.boolean().check(z.describe("The file already had these contents: nothing was archived or written")),
          archived: z.optional(archived),
          content: z.optional(contentText("With edits: the git-style diff, fenced (what the filesystem server answers)")),
          diff: z.optional(contentText("With edits: the diff's hunks")),
          edits: z.optional(z.array(z.strictObject({ match: z.enum(["exact", "lines"]), line: z.number() }))),
          dry_run: z.optional(z.boolean()),
        }),
    }),
  apply_patch: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          path,
          hunks: z.array(hunk).check(z.minLength(1), z.describe("Ordered, non-overlapping line ranges; all apply or none does")),
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          hunks_applied: z.number(),
          bytes_written: z.number(),
          path: z.string(),
          archived: z.optional(archived),
        }),
    }),
  list_files: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          path: z.optional(path.check(z.describe("Directory relative to the repository root. Default: the root"))),
          recursive: z.optional(z.boolean().check(z.describe("Also list everything below (symbolic links are listed, not followed). Default false"))),
          max_entries: z.optional(
            z.int().check(z.gte(1), z.lte(MAX_LIST_ENTRIES), z.describe(`Stop after this many entries (truncated: true). Default ${DEFAULT_LIST_ENTRIES}`)),
          ),
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          path: z.string(),
          entries: z.array(z.strictObject({ path: z.string(), kind: z.enum(["file", "dir", "symlink", "other"]), size: z.number() })),
          truncated: z.boolean(),
        }),
    }),
  read_file: () =>
    lazyFields({
      input: () => z.strictObject({ path, head: lineCount("first"), tail: lineCount("last") }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          path: z.string(),
          contents: z.string(),
          bytes: z.number(),
          sha256: z.string(),
          total_lines: z.optional(z.number().check(z.describe("With head or tail: the file's number of lines"))),
        }),
    }),
  run_tests: () =>
    lazyFields({
      input: () => z.strictObject({ timeout_seconds: timeout, max_output_bytes: maxOutput }),
      output: () => commandResult,
    }),
  build_workspace: () =>
    lazyFields({
      input: () => z.strictObject({ timeout_seconds: timeout, max_output_bytes: maxOutput }),
      output: () => commandResult,
    }),
  read_text_file: () =>
    lazyFields({
      input: () => z.strictObject({ path, head: lineCount("first"), tail: lineCount("last") }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: contentText("The text, or the lines asked for"),
          path: z.string(),
          bytes: z.number(),
          sha256: z.string(),
          total_lines: z.number(),
        }),
    }),
  read_media_file: () =>
    lazyFields({
      input: () => z.strictObject({ path }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: z.array(mediaBlock).check(z.describe("The file as one MCP content block: image, audio, or an embedded resource (base64)")),
          path: z.string(),
          mime_type: z.string(),
          bytes: z.number(),
          sha256: z.string(),
        }),
    }),
  read_multiple_files: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          paths: z
            .array(z.string())
            .check(
              z.minLength(1),
              z.maxLength(MAX_MULTI_PATHS),
              z.describe("Files to read; one that cannot be read is reported in its place, the others are read"),
            ),
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: contentText("Each file as `path:` and its text, or `path: Error - …`, separated by ---"),
          files: z.array(
            z.union([
              z.strictObject({ path: z.string(), success: z.literal(true), rel: z.string(), content: z.string(), bytes: z.number(), sha256: z.string() }),
              z.strictObject({ path: z.string(), success: z.literal(false), code: z.string(), message: z.string() }),
            ]),
          ),
          failed: z.number(),
        }),
    }),
  list_directory: () =>
    lazyFields({
      input: () => z.strictObject({ path: dirPath }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: contentText("[FILE] name / [DIR] name, one entry a line"),
          path: z.string(),
          entries: z.array(z.strictObject({ name: z.string(), kind: entryKind, size: z.number() })),
        }),
    }),
  list_directory_with_sizes: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          path: dirPath,
          sortBy: z.optional(z.enum(["name", "size"]).check(z.describe("Sort by name (default) or by size, largest first"))),
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: contentText("[FILE] name and size / [DIR] name, one entry a line, then the totals"),
          path: z.string(),
          entries: z.array(z.strictObject({ name: z.string(), kind: entryKind, size: z.number() })),
          files: z.number(),
          directories: z.number(),
          total_size: z.number(),
        }),
    }),
  directory_tree: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          path: dirPath,
          excludePatterns,
          maxDepth: z.optional(
            z
              .int()
              .check(
                z.gte(1),
                z.describe("Stop this many levels down (1: the directory's own entries); deeper directories are shown with children: [] and truncated: true"),
              ),
          ),
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: contentText("The tree as JSON, indented by two spaces"),
          path: z.string(),
          tree: z.array(treeNode),
          entries: z.number(),
          truncated: z.boolean(),
        }),
    }),
  search_files: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          path: dirPath,
          pattern: z.string().check(z.minLength(1), z.describe("Glob matched against each path from `path`: *.ts at its top, **/*.ts at any depth")),
          excludePatterns,
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: contentText("The absolute paths matched, one a line, or No matches found"),
          path: z.string(),
          matches: z.array(z.string()),
          truncated: z.boolean(),
        }),
    }),
  search_text: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          pattern: z
            .string()
            .check(z.minLength(1), z.describe("A regular expression (JavaScript syntax), matched line by line; with literal: true, text as written")),
          path: z.optional(path.check(z.describe("Directory (or file) to search, relative to the repository root. Default: the root"))),
          literal: z.optional(z.boolean().check(z.describe("pattern is plain text, not a regular expression. Default false"))),
          case_sensitive: z.optional(z.boolean().check(z.describe("Default true"))),
          include: z.optional(
            z.array(z.string()).check(z.describe("Only files matching one of these globs (a pattern without / matches the name at any depth)")),
          ),
          exclude: z.optional(z.array(z.string()).check(z.describe("Leave out files matching these globs"))),
          context_lines: z.optional(z.int().check(z.gte(0), z.lte(20), z.describe("Lines of context before and after each match. Default 0"))),
          max_matches: z.optional(z.int().check(z.gte(1), z.lte(MAX_TEXT_MATCHES), z.describe("Stop after this many matches (truncated: true). Default 200"))),
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: contentText("grep's text: path:line:text, path-line-text for context, -- between groups"),
          path: z.string(),
          matches: z.array(
            z.strictObject({
              path: z.string(),
              line: z.number(),
              column: z.number(),
              text: z.string(),
              before: z.optional(z.array(z.string())),
              after: z.optional(z.array(z.string())),
            }),
          ),
          files_searched: z.number(),
          files_matched: z.number(),
          files_skipped: z.number().check(z.describe("Binary files and files over 16 MiB, not searched")),
          truncated: z.boolean(),
          source: z
            .enum(["git", "walk"])
            .check(z.describe("git: the files git shows (tracked, and untracked ones .gitignore does not ignore); walk: every file (not a git work tree)")),
        }),
    }),
  get_file_info: () =>
    lazyFields({
      input: () => z.strictObject({ path: dirPath }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: contentText("key: value lines"),
          path: z.string(),
          kind: z.enum(["file", "dir", "other"]),
          size: z.number(),
          created: z.string(),
          modified: z.string(),
          accessed: z.string(),
          isDirectory: z.boolean(),
          isFile: z.boolean(),
          permissions: z.string().check(z.describe("Permission bits, octal")),
        }),
    }),
  list_allowed_directories: () =>
    lazyFields({
      input: () => z.strictObject({}),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: contentText("Allowed directories: and one absolute path a line"),
          directories: z.array(z.string()),
          roots: z.optional(
            z.array(z.string()).check(z.describe("The MCP client's roots, when it gave some: the directories are their intersection with the repository")),
          ),
          read_only: z.boolean(),
        }),
    }),
  write_file: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          path,
          content: z.string().check(z.describe("The whole contents (UTF-8); the file is created or replaced, its directory must exist")),
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: z.string(),
          path: z.string(),
          bytes_written: z.number(),
          created: z.boolean(),
          unchanged: z.boolean(),
          archived: z.optional(archived),
        }),
    }),
  append_file: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          path,
          content: z.string().check(z.describe("Text added at the end (UTF-8); the file is created when missing, its directory must exist")),
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: z.string(),
          path: z.string(),
          bytes_appended: z.number(),
          size: z.number(),
          created: z.boolean(),
        }),
    }),
  create_directory: () =>
    lazyFields({
      input: () => z.strictObject({ path }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: z.string(),
          path: z.string(),
          created: z.array(z.string()).check(z.describe("The directories made, outermost first; empty when it existed")),
        }),
    }),
  move_file: () =>
    lazyFields({
      input: () =>
        z.strictObject({
          source: path.check(z.describe("The file or directory to move (relative to the repository root)")),
          destination: path.check(z.describe("Where: must not exist; its directory must")),
        }),
      output: () =>
        z.strictObject({
          success: z.literal(true),
          content: z.string(),
          source: z.string(),
          destination: z.string(),
          kind: entryKind,
          archived: z
            .array(z.strictObject({ path: z.string(), archive: z.string(), member: z.string() }))
            .check(z.describe("Every regular file moved, archived under its old path first")),
        }),
    }),
}) satisfies Record<WorkspaceToolName, { input: z.ZodMiniType; output: z.ZodMiniType }>;

/**
 * The less frequent one-shot commands, bundled together as dist/bodies/commands.cjs, which the bin
 * loads through its compile cache (../startup/load-cached-body.ts) — one file, not one body per
 * command: each body would carry its own copy of the code they share (the parser, the validator,
 * the git and cache layers), and the package would grow by megabytes. Each command is a lazy
 * loader (esbuild turns these imports into functions that initialise the command's modules on
 * first call), so a command runs only its own modules' top-level code, and V8 compiles only the
 * functions it calls; each command keeps its own cache file of what it compiled.
 *
 * Not here: the hot commands with bodies of their own (check, patch, render, changed, diff,
 * affected), and the run loop, its records, the servers and the workspace commands (run, runs,
 * reconcile, mcp, serve, lsp, ledger, archive, demo), which share another body (services-body.ts):
 * the ACP SDK, the language server's libraries and the workspace code would make this one,
 * which every command here reads at each start, twice as large.
 */
export const commands = {
  transcript: () => import("../commands/transcript-command.js"),
  init: () => import("../commands/init-command.js"),
  "mark-reconciled": () => import("../commands/mark-reconciled-command.js"),
  schema: () => import("../commands/schema-command.js"),
  state: () => import("../commands/state-command.js"),
  ci: () => import("../commands/ci-command.js"),
  governs: () => import("../commands/governs-command.js"),
  specs: () => import("../commands/specs-command.js"),
  coverage: () => import("../commands/coverage-command.js"),
  verify: () => import("../commands/verify-command.js"),
  fmt: () => import("../commands/fmt-command.js"),
  ids: () => import("../commands/ids-command.js"),
  parse: () => import("../commands/parse-command.js"),
  cache: () => import("../commands/cache-command.js"),
};

/** The commands this body runs. */
export type SharedCommand = keyof typeof commands;

/**
 * The run loop, its records, the servers and the workspace commands, bundled together as
 * dist/bodies/services.cjs, which the bin loads through its compile cache
 * (../startup/load-cached-body.ts), one cache file per command: `run`, `runs` and `reconcile`
 * share most of their modules (the run loop, norma.db, the worktrees), `mcp`, `serve`,
 * `ledger`, `archive` and `demo` the workspace and governance code, so one shared body is far
 * smaller than one each. Each command is a lazy loader (esbuild turns these imports into
 * functions that initialise the command's modules on first call), and so is every lazily
 * imported part inside them: the ACP SDK initialises only for an `acp` agent, the HTML report
 * only for `runs show --html` and `runs report`, the workspace code only on a workspace tool's
 * first call (test/runs/start-up.test.ts and test/workspace/start-up.test.ts watch it);
 * sql.js, BLAKE3 and zstd stay files of their own (dist/vendor/), required on first use.
 *
 * The servers (`mcp`, `serve`, `lsp`) get only the compile cache: no short-run V8 flag.
 */
export const services = {
  mcp: () => import("../commands/mcp-command.js"),
  serve: () => import("../commands/serve-command.js"),
  lsp: () => import("../commands/lsp-command.js"),
  ledger: () => import("../commands/ledger-command.js"),
  archive: () => import("../commands/archive-command.js"),
  demo: () => import("../commands/demo-command.js"),
  run: () => import("../commands/run-command.js"),
  reconcile: () => import("../commands/reconcile-drift-command.js"),
  runs: () => import("../commands/runs-command.js"),
};

/** The commands this body runs. */
export type ServiceCommand = keyof typeof services;

/**
 * The command timeout of run_command, run_tests and build_workspace: its default and its
 * maximum, in one place for the allowlist reader (parse-allowlist.ts), the tools
 * (tools/run-command.ts) and the request schema that states them (workspace-schemas.ts).
 * Dependency-free, so the allowlist reader loads no schema library for it.
 */

/** Seconds a command may run when neither the request nor its allowlist record says. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 600;
/** The most an allowlist record or a request may give (a day). */
export const MAX_COMMAND_TIMEOUT_SECONDS = 86_400;

/**
 * What `--help` teaches beyond a command's options and examples: the group each command is
 * listed under in the top-level help, and each command's own exit codes. A small static table
 * (no imports), so printing help loads none of the command bodies.
 */

/** The groups of the top-level help, in order, and the commands listed under each. */
export const COMMAND_GROUPS: readonly { title: string; commands: readonly string[] }[] = [
  { title: "Documents", commands: ["check", "fmt", "patch", "transcript", "ids", "parse", "render", "schema", "verify"] },
  {
    title: "Reconciliation",
    commands: ["specs", "governs", "coverage", "affected", "diff", "changed", "mark-reconciled", "state", "cache"],
  },
  { title: "Hooks and CI", commands: ["init", "ci", "demo", "agent-hook"] },
  { title: "Runs", commands: ["run", "runs", "reconcile"] },
  { title: "Workspace", commands: ["serve", "ledger", "archive"] },
  { title: "MCP", commands: ["mcp"] },
  { title: "Editors", commands: ["lsp"] },
];

/** The last line of every exit-code block: what a closed pipe does. */
const CLOSED_PIPE = "141  the reader of the output closed it early (`… | head`), as for git";

/** The exit codes every command shares, for the top-level help. */
export const GENERAL_EXIT_CODES = `  0  clean (warnings allowed)
  1  findings (each command's --help says which)
  2  usage, configuration or runtime error
${CLOSED_PIPE}`;

/** Each command's exit codes (keyed by the command's name), without the closed-pipe line. */
const EXIT_CODES: Record<string, string> = {
  check: `  0  no errors (warnings and information allowed); with --fix, none left after fixing;
     --watch: stopped by Ctrl-C or SIGTERM (whatever the findings)
  1  findings: a document, transcript, sidecar, spec or configuration file has errors, is not
     UTF-8 text, or cannot be read (no permission, not a regular file: each an error of its own)
  2  usage error, paths named that hold nothing to check, a configuration that cannot be read, not
     a git repository (--staged), a lock held too long (--fix)`,
  fmt: `  0  formatted (or nothing to format); --check: every document is formatted; --check --watch:
     stopped by Ctrl-C or SIGTERM
  1  --check: some document would change (listed on stdout); nothing was written. Either way: a
     document is not UTF-8 text or cannot be read (its error on stdout, as \`check\` gives it)
  2  usage error (a path outside the repository, a file that is not a .noma document, paths
     named that hold no document), not a git repository, an invalid configuration, a lock held
     too long`,
  patch: `  0  every op applied and recorded (--dry-run: every op would apply; nothing written)
  1  rejected: an op failed (unknown op or target, malformed op, a sha mismatch, --strict with
     errors); nothing was written to the document, the rejection is recorded in its transcript
  2  usage error (no --op/--ops, ops that are not JSON, a value that is not an op object, a bad
     flag value), no such document, a document outside the repository, a lock held too long`,
  transcript: `  0  verify: no errors (warnings and information allowed); accept: acknowledgements appended
  1  verify: findings (a broken record or chain; with --strict, an unacknowledged outside edit)
  2  usage error, no transcript; accept refused (nothing to accept, no transcript, a transcript
     with errors an acknowledgement cannot mend): nothing was written`,
  ids: `  0  listed (whatever the document's diagnostics: \`check\` judges them)
  2  usage error, no such document`,
  parse: `  0  printed (parse problems are part of the tree)
  2  usage error, no such document`,
  render: `  0  rendered (a document that needed recovery is rendered best effort, with a note on stderr)
  1  a book (.noma.yml) whose manifest or chapters have errors
  2  usage error (--to), no such document`,
  schema: `  0  printed
  2  unknown schema name`,
  verify: `  0  every fixture passed
  1  some fixture failed (each FAIL line says why)
  2  no corpus directory given, or no such directory`,
  specs: `  0  validate: every spec is valid; schema: printed
  1  validate: some spec has errors
  2  usage error (an unknown action, --schema-version), not a git repository`,
  governs: `  0  every path is governed by some spec
  1  some path is governed by none (listed)
  2  usage error (a path outside the repository), an invalid spec, not a git repository`,
  coverage: `  0  listed (uncovered files fail nothing unless the policy is strict)
  1  the system spec's coverage.policy is strict and some tracked file is ungoverned
  2  usage error, an invalid spec, not a git repository`,
  affected: `  0  listed, even when something is unreconciled (\`ci\` is the check that fails on it)
  2  usage error (no --base), an unknown ref, an invalid spec, not a git repository`,
  diff: `  0  printed, even an empty diff
  2  usage error (no --spec or --base), an unknown spec or ref, not a git repository, a lock held too long`,
  changed: `  0  listed, even nothing
  2  usage error (no --spec), an unknown spec, not a git repository, a lock held too long`,
  "mark-reconciled": `  0  every path given was marked (a deleted file git knows has nothing to record); --all: baselined
  1  some path was not marked (no spec governs it, git ignores it, an audit record the tools
     write); the others were
  2  nothing was marked: a path that does not exist and git never knew (a typo), a path outside
     the repository, an unknown spec, an invalid spec (--all), paths together with --all`,
  state: `  0  snapshot written, shown or reset
  2  usage error (an unknown action, extra arguments); show: an unreadable snapshot; not a git
     repository, a lock held too long`,
  cache: `  0  status shown, or the cache cleared
  2  usage error (an unknown action, extra arguments), not a git repository, a lock held too long`,
  init: `  0  set up (or nothing to do); --dry-run: the plan, nothing written
  2  a hook refused (another tool's, or a newer version's: --force replaces it), usage error, not
     a git repository, an unreadable .mcp.json, an agent's settings file it cannot edit safely
     (--agent: the entry to add is printed)`,
  ci: `  0  no finding at or above --fail-on (errors by default; drift counts as its configured severity)
  1  findings at or above --fail-on: invalid documents, transcripts or specs, drift under \`drift: error\`
  2  usage error, no base to compare with (the merge-base cannot be found), not a git repository,
     an invalid configuration`,
  "agent-hook": `  0  answered: a refusal or context as JSON on stdout, or nothing (the tool runs as the agent asked)
  1  the tool call could not be read (not JSON, no tool name, no input within 10 s, stdin a
     terminal), one line on stderr; never 2, which an agent reads as "block this tool"`,
  demo: `  0  the demo ran and printed its report (the drift in it is deliberate)
  2  runtime error (git missing, the temporary directory cannot be written)`,
  run: `  0  the run passed: every acceptance criterion holds; its result is committed on its branch
     (and, with --apply, brought into the current branch)
  1  the run failed (an agent or protocol error, a patch that does not apply, FAIL with no act agent)
     or stopped (a budget, a stuck agent, an interruption): continue it with --resume RUN_ID;
     or --apply was refused (the message says why)
  2  usage, configuration (.norma/config.json) or runtime error; another run holds the lock`,
  reconcile: `  0  no spec has open drift; or the run passed and its commit is pushed with its pull request opened
     or updated (without GITHUB_TOKEN: kept on its branch, and what would have been published is printed)
  1  the run failed or stopped: nothing is published (its branch and worktree are kept)
  2  usage or configuration error, a git push or GitHub API failure, --target pr-branch outside a
     pull_request event`,
  runs: `  0  listed / shown / the HTML page written / applied (or nothing to apply, or already applied) / pruned
  1  apply refused: the run did not pass, the checkout has uncommitted changes, HEAD is detached,
     an untracked file is in the way, or the commit does not apply cleanly (the message says which)
  2  usage error (an --html or report FILE outside the repository), no such run, a run in progress
     (prune), or an unreadable .norma/norma.db`,
  serve: `  0  stopped by SIGINT or SIGTERM (requests in flight finished and recorded)
  2  usage error (no --http, a host that is not loopback, a bad port or token), not a git
     repository, an invalid configuration, or the port cannot be bound`,
  ledger: `  0  the ledger is intact (requests interrupted after their intent line are listed as notes, not findings)
  1  findings: an edited, removed, inserted or reordered line, a torn tail, committed lines changed, an outcome without its intent
  2  usage error, no ledger, not a git repository`,
  archive: `  0  listed (even nothing) or restored
  2  usage error, nothing archived for the path or month or version, an unreadable archive`,
  mcp: `  0  the client closed stdin (the session ended); tool failures are results, never exit codes
  2  usage error (a bad --step)`,
  lsp: `  0  the editor sent shutdown, then exit; findings are diagnostics, never exit codes
  1  the editor went away (exit or a closed stdin) without shutdown, as LSP 3.17 prescribes
  2  usage error`,
};

/** The exit-code block of a command's --help (the general one for a command not in the table). */
export function exitCodesOf(command: string | undefined): string {
  const own = command !== undefined ? EXIT_CODES[command] : undefined;
  return own !== undefined ? `${own}\n${CLOSED_PIPE}` : GENERAL_EXIT_CODES;
}

/** Whether a command has its own exit codes (the help test requires every command to). */
export function hasOwnExitCodes(command: string): boolean {
  return EXIT_CODES[command] !== undefined;
}

#!/usr/bin/env node
/**
 * The `noma-reconcile` bin: declares every command in one place and loads each
 * command's body lazily, so a command pays only for what it imports. This file
 * only translates: it parses argv, runs the command, and turns the returned
 * code (or a thrown error) into the process exit code:
 *   0 clean · 1 findings · 2 usage, configuration or runtime error.
 */
import * as nodeModule from "node:module";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { cac, type Command } from "cac";
import { prefetchFiles } from "../fsx/prefetch-files.js";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";
import { DEFAULT_STALE_DAYS } from "../validate/default-stale-days.js";
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_HTTP_PORT,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from "../http/http-defaults.js";
import type { CliIO } from "./cli-io.js";
import { classifyError } from "../errors/classify-error.js";
import { EXIT_CODE } from "./exit-code.js";
import { LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP } from "./lock-timeout-help.js";
import { type CachedBody, loadCachedBody } from "./startup/load-cached-body.js";
import { fdWriter, isTerminalFd } from "./startup/fd-stdio.js";
import { COMMAND_GROUPS, exitCodesOf, GENERAL_EXIT_CODES } from "./command-help.js";
import { checkOptions, unknownCommandMessage } from "./check-options.js";
import type { runAgentHook as RunAgentHook } from "./agent-hook-run.js";
import type { commands as SharedCommands, SharedCommand } from "./bodies/commands-body.js";
import type { ServiceCommand, services as Services } from "./bodies/services-body.js";

// Node ≥ 22.1 can keep the compiled code of the modules a command loads (in its own cache
// directory under the OS temp dir; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so the next
// run skips compiling them (docs/perf/check.md). Node 20 has no such function: nothing
// happens there.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// `check <doc.noma>…`, `patch <doc.noma>` and `render <doc.noma>`: large documents start being read now, on the
// thread pool, while the command's modules load and compile on this thread
// (src/fsx/prefetch-files.ts; patch uses the bytes only if the file is unchanged under its lock).
const prefetched =
  (process.argv[2] === "check" && !process.argv.includes("--staged")) || process.argv[2] === "patch" || process.argv[2] === "render"
    ? prefetchFiles(
        process.argv
          .slice(3)
          .filter((arg) => arg.endsWith(".noma") && !arg.startsWith("-"))
          .map((arg) => resolve(arg)),
      )
    : undefined;

/**
 * A reader that stops early (`noma-reconcile ids doc.noma | head`) closes the pipe, and the
 * next write fails with EPIPE: stop quietly with status 141 (128 + SIGPIPE, what a shell
 * reports for git or coreutils there), not with an unhandled-error trace. Set on the first
 * write (creating process.stdout loads stream modules a silent run never needs).
 */
let stdoutGuarded = false;
function guardStdout(): NodeJS.WriteStream {
  if (!stdoutGuarded) {
    stdoutGuarded = true;
    process.stdout.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code !== "EPIPE") throw e;
      process.exit(141);
    });
  }
  return process.stdout;
}
// Help and version are printed by the argument parser itself.
if (process.argv[2] === "help" || process.argv.some((a) => a === "-h" || a === "--help" || a === "-v" || a === "--version")) guardStdout();

// The one-shot commands with bodies write to the descriptors directly where the streams would
// write the same bytes (the servers keep the streams: their writes must never wait for a
// client), and whether each is a terminal is asked when a command needs to know: a one-shot
// command that prints a line or two never creates process.stdout or process.stderr
// (startup/fd-stdio.ts).
const DIRECT_OUTPUT = ["check", "patch", "render", "changed", "diff", "affected"];
const direct = DIRECT_OUTPUT.includes(process.argv[2] ?? "");
let stdoutIsTTY: boolean | undefined;
let stderrIsTTY: boolean | undefined;
const io: CliIO = {
  cwd: process.cwd(),
  env: process.env,
  stdout: direct ? fdWriter(1, guardStdout, () => process.exit(141)) : (s) => guardStdout().write(s),
  stderr: direct ? fdWriter(2, () => process.stderr) : (s) => process.stderr.write(s),
  get stdoutIsTTY() {
    stdoutIsTTY ??= isTerminalFd(1) ?? process.stdout.isTTY === true;
    return stdoutIsTTY;
  },
  get stderrIsTTY() {
    stderrIsTTY ??= isTerminalFd(2) ?? process.stderr.isTTY === true;
    return stderrIsTTY;
  },
  ...(prefetched !== undefined ? { prefetched } : {}),
};

const cli = cac(TOOL_NAME);

function formatOption(cmd: Command, values: string): Command {
  return cmd.option("--format <format>", `Output format: ${values}`, { default: "text" });
}

let pending: Promise<number> | undefined;
const run = (load: () => Promise<number>): void => {
  pending = load();
};

/**
 * Run a hot command from its body bundle through the compile cache (startup/load-cached-body.ts),
 * or from its ES module when there is no usable cache. `inputs` are the documents it is about
 * to parse: when they are large, the short-run V8 flag is set before the body compiles.
 */
async function runBody<T>(
  name: string,
  inputs: readonly string[],
  load: () => Promise<T>,
  call: (m: T) => Promise<number>,
  builtins: readonly string[] = [],
): Promise<number> {
  const body = loadCachedBody<T>(name, io.env, { inputs, builtins });
  if (body === undefined) return call(await load());
  try {
    return await call(body.exports);
  } finally {
    await body.settle();
    await checkFixesBody?.settle();
  }
}

/** The cached body of check's fixes, once loaded: settled (its cache written when due) when the command is done. */
let checkFixesBody: CachedBody<typeof import("./commands/check-fixes.js")> | undefined;

/**
 * check's fixes (--format json's fix fields, --fix, --fix-dry-run), loaded when check asks for them: from their own body
 * (bodies/check-fixes.cjs) through the compile cache, else their ES module.
 */
async function loadCheckFixes(): Promise<typeof import("./commands/check-fixes.js")> {
  checkFixesBody ??= loadCachedBody<typeof import("./commands/check-fixes.js")>("check-fixes", io.env);
  return checkFixesBody?.exports ?? import("./commands/check-fixes.js");
}

/**
 * Run one of the less frequent commands from the shared body (bodies/commands.cjs) through the
 * compile cache, with a cache file of its own; or from its ES module (`load`, the same module
 * the body's loader initialises) when there is no usable cache. Its cache is taken before a
 * change of V8's flags (SQLite's WebAssembly tiering), so commands that always load SQLite keep one.
 */
async function runShared<K extends SharedCommand>(
  command: K,
  load: (typeof SharedCommands)[K],
  call: (m: Awaited<ReturnType<(typeof SharedCommands)[K]>>) => Promise<number>,
): Promise<number> {
  const body = loadCachedBody<{ commands: typeof SharedCommands }>("commands", io.env, { cacheName: `commands-${command}`, cacheBeforeFlagChange: true });
  if (body === undefined) return call((await load()) as Awaited<ReturnType<(typeof SharedCommands)[K]>>);
  try {
    return await call((await body.exports.commands[command]()) as Awaited<ReturnType<(typeof SharedCommands)[K]>>);
  } finally {
    await body.settle();
  }
}

/**
 * Run the run loop, its records, a server or a workspace command from their shared body
 * (bodies/services.cjs) through the compile cache, with a cache file per command; or from its ES
 * module (`load`) when there is no usable cache. As for the shared body above, the cache is the one
 * taken before a change of V8's flags (run, runs and reconcile compile SQLite baseline-only).
 */
async function runService<K extends ServiceCommand>(
  command: K,
  load: (typeof Services)[K],
  call: (m: Awaited<ReturnType<(typeof Services)[K]>>) => Promise<number>,
  options: { saveAtExit?: boolean } = {},
): Promise<number> {
  const body = loadCachedBody<{ services: typeof Services }>("services", io.env, { cacheName: `services-${command}`, cacheBeforeFlagChange: true });
  if (body === undefined) return call((await load()) as Awaited<ReturnType<(typeof Services)[K]>>);
  if (options.saveAtExit === true) body.saveAtExit((await import("../fsx/write-file-atomic.js")).writeFileAtomic);
  try {
    return await call((await body.exports.services[command]()) as Awaited<ReturnType<(typeof Services)[K]>>);
  } finally {
    await body.settle();
  }
}

formatOption(
  cli
    .command("check [...paths]", "Validate .noma documents, transcripts, sidecars and specs (default: every such file git tracks)")
    .option("--staged", "Judge the index (what will be committed) instead of the work tree: the pre-commit hook")
    .option("--config <path>", "Configuration file (default: .notarai/config.yaml at the top level)")
    .option("--profile <name>", "Validate against this profile, overriding the documents' frontmatter")
    .option("--ignore-rule <code>", "Silence a diagnostic code (repeatable)")
    .option("--stale-days <days>", `Default stale window for ::citation accessed= dates (default ${DEFAULT_STALE_DAYS})`)
    .option("--max-warnings <n>", "Exit 1 when there are more than n warnings (0: fail on any warning)")
    .option("--fix", "Apply the safe mechanical fixes (through the patch engine; recorded where a transcript exists), then report what remains")
    .option("--fix-dry-run", "Print what --fix would change as a unified diff; write nothing")
    .option("--watch", "Re-run on every change to a judged file; print only the new and fixed findings (text or one JSON line per run)")
    .option("--color", "Colour the text output (--no-color to disable; default: on a TTY, honouring NO_COLOR/FORCE_COLOR)"),
  "text | json | github | sarif",
)
  .example("  noma-reconcile check")
  .example("  noma-reconcile check docs/ README.noma --format json")
  .example("  noma-reconcile check ~/Downloads/draft.noma    # a file outside the repository is read where it is")
  .example("  noma-reconcile check thesis.noma --profile research --ignore-rule claim-without-evidence")
  .example("  noma-reconcile check --staged            # in .git/hooks/pre-commit; NOMA_RECONCILE_SKIP=1 skips it")
  .example("  noma-reconcile check docs/ --fix-dry-run  # what --fix would change, as a diff (git apply takes it)")
  .example('  noma-reconcile check --fix --format json  # fix, then report; each fix\'s patch ops under "fixed"')
  .example("  noma-reconcile check --watch           # re-run on change, print what changed; Ctrl-C stops (exit 0)")
  .action((paths: string[], options: Record<string, unknown>) =>
    run(() =>
      runBody(
        "check",
        options["staged"] === true ? [] : paths.filter((p) => p.endsWith(".noma")),
        () => import("./commands/check-command.js"),
        (m) => m.checkCommand(paths, options, io, loadCheckFixes),
        // A transcript beside a large document is judged with SHA-256, which the body loads on first use:
        // load it with the body's other built-ins, before the short-run V8 flag (see preloadBodyBuiltins).
        paths.some((p) => p.endsWith(".noma") && existsSync(`${p}.patches`)) ? ["node:crypto"] : [],
      ),
    ),
  );

cli
  .command("ids <file>", "List a document's canonical ids and its alias map")
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile ids thesis.noma")
  .example("  noma-reconcile ids thesis.noma --format json")
  .action((file: string, options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "ids",
        () => import("./commands/ids-command.js"),
        (m) => m.idsCommand(file, options, io),
      ),
    ),
  );

cli
  .command("parse <file>", "Print the parsed document tree (with spans) as JSON")
  .example("  noma-reconcile parse thesis.noma")
  .example("  noma-reconcile parse ../other-repo/docs/plan.noma")
  .action((file: string) =>
    run(() =>
      runShared(
        "parse",
        () => import("./commands/parse-command.js"),
        (m) => m.parseCommand(file, io),
      ),
    ),
  );

cli
  .command("render <file>", "Render a document: normalised Noma source, or its structure as JSON")
  .option("--to <target>", "noma | json", { default: "noma" })
  .example("  noma-reconcile render thesis.noma --to noma > thesis.normalised.noma")
  .example("  noma-reconcile render thesis.noma --to json    # the structure: sections, blocks, ids")
  .example("  noma-reconcile render book.noma.yml              # a book: its chapters in order")
  .action((file: string, options: Record<string, unknown>) =>
    run(() =>
      runBody(
        "render",
        file.endsWith(".noma") ? [file] : [],
        () => import("./commands/render-command.js"),
        (m) => m.renderCommand(file, options, io),
      ),
    ),
  );

cli
  .command("fmt [...paths]", "Give .noma documents their canonical layout (default: every tracked document); --check only says which would change")
  .option("--check", "Write nothing; exit 1 listing the documents that would change (CI, hooks)")
  .option("--watch", "With --check: look again on every change to a document; print only those that became (un)formatted")
  .option("--diff", "Also print what changes (or would change) as a unified diff")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile fmt                          # every tracked .noma document")
  .example("  noma-reconcile fmt docs/ README.noma --diff")
  .example("  noma-reconcile fmt --check                  # in CI: exit 1 when a document is not formatted")
  .example("  noma-reconcile fmt --check --watch          # while editing: say when a document stops (or starts) being formatted")
  .example("  git diff --cached --name-only -z --diff-filter=d -- '*.noma' | xargs -0r noma-reconcile fmt --check --   # in a hook")
  .action((paths: string[], options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "fmt",
        () => import("./commands/fmt-command.js"),
        (m) => m.fmtCommand(paths, options, io),
      ),
    ),
  );

cli
  .command("verify [dir]", "Run a Noma conformance corpus (Annex C layout) and report PASS/FAIL per fixture")
  .example("  noma-reconcile verify ../shared/conformance")
  .example("  noma-reconcile verify fixtures/conformance")
  .action((dir: string | undefined) =>
    run(() =>
      runShared(
        "verify",
        () => import("./commands/verify-command.js"),
        (m) => m.verifyCommand(dir, io),
      ),
    ),
  );

cli
  .command("specs <action> [...paths]", "Spec files: `specs validate [paths…]` checks .notarai/**/*.spec.yaml; `specs schema` prints their JSON Schema")
  .option("--format <format>", "Output format: text | json (validate)", { default: "text" })
  .option("--schema-version <version>", "schema: only this schema_version (0.5 | 0.6 | 0.7)")
  .example("  noma-reconcile specs validate")
  .example("  noma-reconcile specs validate .notarai/cli.spec.yaml --format json")
  .example("  noma-reconcile specs schema > .notarai/notarai.spec.json")
  .action((action: string, paths: string[], options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "specs",
        () => import("./commands/specs-command.js"),
        (m) => m.specsCommand(action, paths, options, io),
      ),
    ),
  );

cli
  .command("governs <...paths>", "Which specs govern each path, and through which glob (exit 1 if some path has none)")
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile governs src/auth.ts docs/api.md")
  .example("  noma-reconcile governs src/auth.ts --format json")
  .action((paths: string[], options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "governs",
        () => import("./commands/governs-command.js"),
        (m) => m.governsCommand(paths, options, io),
      ),
    ),
  );

cli
  .command("coverage", "Tracked files no spec governs (exit 1 when the system spec's coverage.policy is strict)")
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile coverage")
  .example("  noma-reconcile coverage --format json")
  .action((options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "coverage",
        () => import("./commands/coverage-command.js"),
        (m) => m.coverageCommand(options, io),
      ),
    ),
  );

cli
  .command("affected", "Files changed since the merge-base with --base, and the specs that govern them")
  .option("--base <ref>", "Branch or commit to compare with, e.g. origin/main (default: found as ci finds it: the GitHub event, else the default branch)")
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile affected --base main")
  .example("  noma-reconcile affected --base origin/main --format json")
  .action((options: Record<string, unknown>) =>
    run(() =>
      runBody(
        "affected",
        [],
        () => import("./commands/affected-command.js"),
        (m) => m.affectedCommand(options, io),
      ),
    ),
  );

cli
  .command("diff", "The unreconciled diff of one spec's governed files against the merge-base with --base")
  .option("--spec <path>", "The spec file (required), e.g. .notarai/cli.spec.yaml")
  .option("--base <ref>", "Branch or commit to compare with (default: found as ci finds it: the GitHub event, else the default branch)")
  .option("--exclude <glob>", "Leave out matching files (repeatable; without '/' it matches file names at any depth)")
  .option("--bypass-cache", "Diff every governed changed file, reconciled or not (the cache is kept)")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile diff --spec .notarai/cli.spec.yaml --base main")
  .example("  noma-reconcile diff --spec .notarai/cli.spec.yaml --base main --exclude '*.lock' --format json")
  .action((options: Record<string, unknown>) =>
    run(() =>
      runBody(
        "diff",
        [],
        () => import("./commands/diff-command.js"),
        (m) => m.diffCommand(options, io),
      ),
    ),
  );

cli
  .command("changed", "Artifact files of a spec whose content is not reconciled (versus the cache)")
  .option("--spec <path>", "The spec file (required)")
  .option("--type <category>", "Only this artifact category (code, docs, …)")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile changed --spec .notarai/cli.spec.yaml")
  .example("  noma-reconcile changed --spec .notarai/cli.spec.yaml --type docs --format json")
  .action((options: Record<string, unknown>) =>
    run(() =>
      runBody(
        "changed",
        [],
        () => import("./commands/changed-command.js"),
        (m) => m.changedCommand(options, io),
      ),
    ),
  );

cli
  .command(
    "mark-reconciled [...paths]",
    "Record files (a directory: the governed files under it) as reconciled at their current content; --all baselines the repository",
  )
  .option("--all", "Baseline: mark every governed file and the spec files themselves, then write the snapshot .notarai/reconciliation_state.json")
  .option("--spec <path>", "For this spec only (repeatable; default: every spec that governs each file)")
  .option("--dry-run", "Print what would be marked; write nothing")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile mark-reconciled --all --dry-run     # adopting a repository: what the baseline would mark")
  .example("  noma-reconcile mark-reconciled --all && git add .notarai && git commit -m 'Baseline the reconciliation'")
  .example("  noma-reconcile mark-reconciled --all --spec .notarai/cli.spec.yaml --spec .notarai/docs.spec.yaml")
  .example("  noma-reconcile mark-reconciled src/auth.ts docs/auth.md")
  .example("  noma-reconcile mark-reconciled docs/ --spec .notarai/docs.spec.yaml --format json")
  .action((files: string[], options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "mark-reconciled",
        () => import("./commands/mark-reconciled-command.js"),
        (m) => m.markReconciledCommand(files ?? [], options, io),
      ),
    ),
  );

cli
  .command("cache <action> [...rest]", "The hash cache .notarai/.cache/notarai.db: `cache status` or `cache clear`")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile cache status")
  .example("  noma-reconcile cache clear --format json")
  .action((action: string, rest: string[], options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "cache",
        () => import("./commands/cache-command.js"),
        (m) => m.cacheCommand(action, rest, options, io),
      ),
    ),
  );

cli
  .command("state <action> [...rest]", "The committed snapshot .notarai/reconciliation_state.json: `state snapshot`, `state show` or `state reset`")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile state snapshot")
  .example("  noma-reconcile state show --format json")
  .example("  noma-reconcile state reset")
  .action((action: string, rest: string[], options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "state",
        () => import("./commands/state-command.js"),
        (m) => m.stateCommand(action, rest, options, io),
      ),
    ),
  );

cli
  .command("patch <doc>", "Apply patch ops to a document atomically and record them in <doc>.patches (a book manifest: each op to its chapter, all or nothing)")
  .option("--op <json>", "One op, or a JSON array of ops")
  .option("--ops <file>", "A file holding an op or an array of ops (- for stdin)")
  .option("--strict", "Reject the list when the document already has validator errors")
  .option("--expected-sha <sha>", "Reject unless the document's sha256 starts with this (8+ hex)")
  .option("--base-sha256 <sha>", "The sha256 you prepared the patch against (drift is a warning)")
  .option("--actor-kind <kind>", "human | agent | tool (default human)")
  .option("--actor-name <name>", "Who is patching (default: git user.name)")
  .option("--actor-model <model>", "The agent's model, for kind=agent")
  .option("--reason <text>", "Why: stored in the transcript")
  .option("--parent-op-id <id>", "op_id of a causally prior record")
  .option("--dry-run", "Show what would happen; write nothing")
  .option("--verbose", "Also print notes that change nothing (e.g. that the document has no capability sidecar)")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example(`  noma-reconcile patch docs/plan.noma --op '{"op":"update_attribute","id":"c1","key":"confidence","value":0.9}'`)
  .example("  noma-reconcile patch docs/plan.noma --ops edits.json --actor-kind agent --actor-name planner --reason 'weekly refresh'")
  .example("  noma-reconcile patch docs/plan.noma --ops edits.json --lock-timeout 60   # wait up to a minute for another writer")
  .example(`  noma-reconcile patch book/book.noma.yml --op '[{"op":"update_heading","id":"risks/mitigation","title":"Mitigation"}]'   # across chapters`)
  .action((doc: string, options: Record<string, unknown>) =>
    run(() =>
      // Without --actor-name, patch asks git for user.name.
      runBody(
        "patch",
        [doc],
        () => import("./commands/patch-command.js"),
        (m) => m.patchCommand(doc, options, io),
        options["actorName"] === undefined ? ["node:child_process"] : [],
      ),
    ),
  );

cli
  .command(
    "transcript <action> [doc]",
    "verify: check <doc>.patches (records, hash chain, states, the document); accept: acknowledge edits made to <doc> outside the protocol",
  )
  .option("--base <file>", "verify: replay every applied op from this base document and require a byte-exact result")
  .option("--strict", "verify: treat edits made outside the protocol as errors")
  .option("--reason <text>", "accept: why the outside edit is accepted (required; stored in the record)")
  .option("--actor-kind <kind>", "accept: human | agent | tool (default human)")
  .option("--actor-name <name>", "accept: who accepts (default: git user.name)")
  .option("--actor-model <model>", "accept: the agent's model, for kind=agent")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile transcript verify docs/plan.noma")
  .example("  noma-reconcile transcript verify docs/plan.noma --base plan.at-creation.noma")
  .example("  noma-reconcile transcript accept docs/plan.noma --reason 'typo fixed in the editor'")
  .action((action: string, doc: string | undefined, options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "transcript",
        () => import("./commands/transcript-command.js"),
        (m) => m.transcriptCommand(action, doc, options, io),
      ),
    ),
  );

cli
  .command(
    "schema <name>",
    "Print a JSON Schema: patch-op | transcript | capability | config (.notarai/config.yaml) | norma-config (.norma/config.json) | output/<command> " +
      "(a --format json output, e.g. output/ci)",
  )
  .example("  noma-reconcile schema patch-op > patch-op.schema.json")
  .example("  noma-reconcile schema output/ci      # the JSON Schema of ci --format json")
  .example("  noma-reconcile schema config > .notarai/config.schema.json")
  .action((name: string) =>
    run(() =>
      runShared(
        "schema",
        () => import("./commands/schema-command.js"),
        (m) => m.schemaCommand(name, io),
      ),
    ),
  );

cli
  .command("mcp", "Run the MCP server on stdio (newline-delimited JSON-RPC 2.0) for coding agents")
  .option(
    "--step <run_id/NNN-role>",
    "Serve the agent of this run step (what `run` gives its agents): only the tools its role may use; its workspace requests are attributed to the " +
      "step in the ledger",
  )
  .option("--max-message-bytes <bytes>", "Largest message taken (default 32 MiB); a longer one is answered with a JSON-RPC error, its bytes dropped unread")
  .option("--read-only", "List and serve only the tools that read (every tool that writes or runs a command is left out, and refused if called)")
  .option("--root <dir>", "The repository the tools work in (default: the one of the working directory); `run` gives its agents the run's worktree")
  .option("--runs-root <dir>", "The repository whose .norma/ run_list and run_status read (default: --root); `run` gives its agents the main checkout")
  .example("  noma-reconcile mcp            # what .mcp.json runs (see `noma-reconcile init`)")
  .example("  noma-reconcile mcp --read-only   # an agent that may only look")
  .example("  noma-reconcile mcp --step 20260105-100000-ab12cd/004-act   # an act agent: read-only tools + the workspace tools")
  .action((options: Record<string, unknown>) =>
    run(() =>
      runService(
        "mcp",
        () => import("./commands/mcp-command.js"),
        (m) => m.mcpCommand(io, options),
      ),
    ),
  );

cli
  .command("lsp", "Run the language server on stdio (LSP 3.17) for editors: diagnostics, navigation, completion, hover, governance, fixes")
  .option("--stdio", "Talk over stdin/stdout (the default and only transport; editors pass it)")
  .option("--clientProcessId <pid>", "Exit when this process does (editors pass it)")
  .example("  noma-reconcile lsp --stdio           # what an editor runs (docs/lsp.md)")
  .example("  npx noma-reconcile lsp --stdio       # through npx, as the editor set-ups in docs/lsp.md run it")
  .action(() =>
    run(async () =>
      // Ended here, not by returning: nothing of the server may keep the process alive once it is done (lsp-command.ts).
      process.exit(
        await runService(
          "lsp",
          () => import("./commands/lsp-command.js"),
          (m) => m.lspCommand(io),
          // Its protocol library ends the process itself on `exit` (and when stdin closes): the cache is saved then.
          { saveAtExit: true },
        ),
      ),
    ),
  );

cli
  .command("serve", "Serve the workspace tools (read_file, edit_file, search_text, run_command, …) over HTTP on loopback, behind a bearer token")
  .option("--http", "Serve over HTTP (required; `mcp` serves the same tools over stdio)")
  .option("--port <port>", "Port (0 picks a free one)", { default: DEFAULT_HTTP_PORT })
  .option("--host <host>", "127.0.0.1 (default), ::1 or localhost; anything else is refused")
  .option("--max-body-bytes <bytes>", `Largest request body accepted (default ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024} MiB)`)
  .option(
    "--headers-timeout <ms>",
    `A request's headers must arrive within this time, else 408 and the connection is closed (default ${DEFAULT_HEADERS_TIMEOUT_MS})`,
  )
  .option("--request-timeout <ms>", `A whole request (headers and body) must arrive within this time (default ${DEFAULT_REQUEST_TIMEOUT_MS})`)
  .option("--max-connections <n>", `Connections open at once; more are closed as they arrive (default ${DEFAULT_MAX_CONNECTIONS})`)
  .option("--read-only", "Serve only the tools that read (the others answer 403 read_only)")
  .option("--format <format>", "text (everything on stderr) | json (also one line on stdout once listening: url, port, and the token when generated)", {
    default: "text",
  })
  .example("  noma-reconcile serve --http                      # token generated and printed on stderr")
  .example("  NOMA_RECONCILE_TOKEN=$(openssl rand -hex 32) noma-reconcile serve --http --port 8080")
  .example(`  curl -s -H "Authorization: Bearer $TOKEN" -d '{"path":"README.md"}' http://127.0.0.1:7878/read_file`)
  .example('  noma-reconcile serve --http --port 0 --format json   # a free port; stdout: {"url":…,"port":…,"token":…}')
  .action((options: Record<string, unknown>) =>
    run(() =>
      runService(
        "serve",
        () => import("./commands/serve-command.js"),
        (m) => m.serveCommand(options, io),
      ),
    ),
  );

cli
  .command(
    "ledger <action> [file]",
    "verify: check the evidence ledger (docs/evidence_ledger.tools.log): entries, seq, hash chain, torn tail, committed lines, intents and outcomes",
  )
  .option("--against <ref>", "Require the lines committed at this commit to be unchanged (default HEAD; none to skip)")
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile ledger verify")
  .example("  noma-reconcile ledger verify --against origin/main --format json")
  .action((action: string, file: string | undefined, options: Record<string, unknown>) =>
    run(() =>
      runService(
        "ledger",
        () => import("./commands/ledger-command.js"),
        (m) => m.ledgerCommand(action, file, options, io),
      ),
    ),
  );

cli
  .command("archive <action> [path]", "The versions the workspace tools archived before overwriting: `archive list [path]`, `archive restore <path>`")
  .option("--number <n>", "restore: this version, the N of <path>.~N~ (default the latest)")
  .option("--month <yyyy-mm>", "restore: from this month's archive (default the latest holding the path)")
  .option("--stdout", "restore: print the version instead of writing the file")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile archive list docs/plan.md")
  .example("  noma-reconcile archive restore docs/plan.md --number 2     # the current version is archived first")
  .example("  noma-reconcile archive restore docs/plan.md --month 2026-05 --stdout > old-plan.md")
  .action((action: string, path: string | undefined, options: Record<string, unknown>) =>
    run(() =>
      runService(
        "archive",
        () => import("./commands/archive-command.js"),
        (m) => m.archiveCommand(action, path, options, io),
      ),
    ),
  );

cli
  .command("ci", "The PR check: validate what the branch changes since the merge-base with its base, and report spec drift")
  .option("--base <ref>", "Base to compare with (default: the GitHub event's base, else origin/HEAD, origin/main, main, …)")
  .option("--format <format>", "Output format: text | json | github | sarif", { default: "text" })
  .option("--fail-on <level>", "Exit 1 on: error | warning | never", { default: "error" })
  .option("--sarif-file <path>", "Also write the SARIF log to this file")
  .option("--config <path>", "Configuration file (default: .notarai/config.yaml as committed at HEAD)")
  .option("--ignore-rule <code>", "Silence a validator diagnostic code (repeatable)")
  .option("--color", "Colour the text output (--no-color to disable)")
  .example("  noma-reconcile ci --base origin/main")
  .example("  noma-reconcile ci --format github --sarif-file noma.sarif   # in GitHub Actions (base from the event)")
  .action((options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "ci",
        () => import("./commands/ci-command.js"),
        (m) => m.ciCommand(options, io),
      ),
    ),
  );

cli
  .command("init", "Set up this repository: .notarai/ (README, spec schema, example spec, launcher), .gitignore, the MCP server in .mcp.json")
  .option(
    "--hooks",
    "Also install the git pre-commit hook; where a hook manager is set up (.pre-commit-config.yaml, lefthook.yml, .husky/) add our entry to its " +
      "file instead (without --hooks init prints that entry)",
  )
  .option(
    "--agent <name>",
    "Register the coding agent's gate (agent-hook) in that agent's settings: claude (.claude/settings.json), " +
      "gemini (.gemini/settings.json), codex (.codex/hooks.json), opencode (a plugin in .opencode/plugins/); repeatable",
  )
  .option("--force", "Replace files (and hooks) written by another tool or a newer version, and a different noma-reconcile entry in .mcp.json")
  .option("--dry-run", "Print the plan; write nothing")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile init")
  .example("  noma-reconcile init --hooks --dry-run")
  .example("  noma-reconcile init --hooks   # with .pre-commit-config.yaml: adds a repo: local hook to it, the rest of the file kept")
  .example("  noma-reconcile init --agent claude   # Claude Code's hooks: the patch engine before any write of a .noma document")
  .action((options: Record<string, unknown>) =>
    run(() =>
      runShared(
        "init",
        () => import("./commands/init-command.js"),
        (m) => m.initCommand(options, io),
      ),
    ),
  );

cli
  .command(
    "agent-hook",
    "The coding agent's gate: reads a tool call as JSON on stdin (the hooks of Claude Code, Codex, Gemini CLI; OpenCode's plugin) and answers",
  )
  .example("  noma-reconcile init --agent claude   # registers it in .claude/settings.json (PreToolUse and PostToolUse)")
  .example(
    `  echo '{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"docs/plan.noma","content":"…"}}' | noma-reconcile agent-hook`,
  )
  .action(() => run(() => runAgentHook([])));

cli
  .command("demo", "Build an example repository (specs, a document, a transcript, one deliberate drift), run the PR check on it, print the report")
  .option("--keep", "Keep the example repository instead of removing it")
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .option("--color", "Colour the text output (--no-color to disable)")
  .example("  noma-reconcile demo")
  .example("  noma-reconcile demo --keep")
  .action((options: Record<string, unknown>) =>
    run(() =>
      runService(
        "demo",
        () => import("./commands/demo-command.js"),
        (m) => m.demoCommand(options, io),
      ),
    ),
  );

cli
  .command("run", "Run the plan → do → check → act loop until the check passes or a budget is spent (.norma/, norma's layout)")
  .option("--spec <path>", "Generate the goal and criteria from this spec: no unreconciled drift, valid documents and transcripts, the tests pass (repeatable)")
  .option("--goal <text>", "The run's goal (default: generated from --spec)")
  .option("--ac <id=text>", "An acceptance criterion, e.g. --ac 'AC1=All unit tests pass' (repeatable; needs a check agent)")
  .option("--max-iterations <n>", "Stop after N iterations (default: budgets.max_iterations in .norma/config.json, else 5)")
  .option("--resume <run-id>", "Continue a stopped or failed run after its last committed step")
  .option("--no-mark", "On PASS, do not mark the governed files reconciled nor write the snapshot")
  .option("--base <ref>", "Start the run's worktree from this commit (default: HEAD)")
  .option("--apply", "On PASS, bring the run's commit into the current branch (as `runs apply` does)")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format of the result: text | json", { default: "text" })
  .example("  noma-reconcile run --spec .notarai/billing.spec.yaml          # works in .norma/worktrees/<id>, commits on noma-reconcile/run/<id>")
  .example("  noma-reconcile run --spec .notarai/billing.spec.yaml --apply  # and brings the commit into your branch when it applies cleanly")
  .example("  noma-reconcile run --spec .notarai/billing.spec.yaml --max-iterations 3 --format json")
  .example("  noma-reconcile run --goal 'Fix the flaky test' --ac 'AC1=npm test passes twice in a row'")
  .example("  noma-reconcile run --resume 20260105-100000-ab12cd")
  .action((options: Record<string, unknown>) =>
    run(() =>
      runService(
        "run",
        () => import("./commands/run-command.js"),
        (m) => m.runCommand(options, io),
      ),
    ),
  );

cli
  .command("reconcile", "Drift fixed in CI: run the loop on every spec with open drift, push its commit and open or update a pull request")
  .option("--spec <path>", "Reconcile this spec (repeatable; default: every spec with open drift)")
  .option("--target <target>", "pull-request (push to noma-reconcile/reconcile/<base>, open or update a PR) | pr-branch (commit onto the PR's branch)", {
    default: "pull-request",
  })
  .option("--remote <name>", "The remote to push to", { default: "origin" })
  .option("--pr-base <branch>", "The branch the pull request goes into (default: the event's PR branch, else GITHUB_REF_NAME, else the current branch)")
  .option("--pr-branch <branch>", "The branch pushed for the pull request (default: noma-reconcile/reconcile/<base>)")
  .option("--max-iterations <n>", "Stop the run after N iterations (default: budgets.max_iterations in .norma/config.json, else 5)")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile reconcile                       # in GitHub Actions: GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL from the runner")
  .example("  noma-reconcile reconcile --target pr-branch    # on a pull_request event: commit the fix onto the PR's branch")
  .example("  noma-reconcile reconcile --spec .notarai/billing.spec.yaml --format json   # without a token: the branch stays local, the plan is printed")
  .action((options: Record<string, unknown>) =>
    run(() =>
      runService(
        "reconcile",
        () => import("./commands/reconcile-drift-command.js"),
        (m) => m.reconcileDriftCommand(options, io),
      ),
    ),
  );

cli
  .command(
    "runs <action> [...rest]",
    "The runs recorded in .norma/norma.db: `runs list`, `runs show [RUN_ID]` (default: the newest), `runs report FILE`, `runs apply RUN_ID`, `runs prune`",
  )
  .option("--limit <n>", "list, report: at most N runs (newest first)")
  .option("--html <file>", "show: write the run's report as one self-contained HTML page (timeline, criteria and evidence, diffs, tool calls, drift)")
  .option("--keep-last <n>", "prune: keep the newest N runs (default: retention.keep_last of .norma/config.json, else 20)")
  .option("--keep-days <d>", "prune: keep the runs of the last D days (default: retention.keep_days, else 30)")
  .option("--dry-run", "prune: print what would be removed; remove nothing")
  .option(LOCK_TIMEOUT_FLAG, LOCK_TIMEOUT_HELP)
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile runs list")
  .example("  noma-reconcile runs show 20260105-100000-ab12cd --format json")
  .example("  noma-reconcile runs show --html .norma/report.html   # open it in a browser")
  .example("  noma-reconcile runs report .norma/runs.html")
  .example("  noma-reconcile runs apply 20260105-100000-ab12cd   # the run's commit into your branch, only if it applies cleanly")
  .example("  noma-reconcile runs prune --keep-last 10 --dry-run")
  .action((action: string, rest: string[], options: Record<string, unknown>) =>
    run(() =>
      runService(
        "runs",
        () => import("./commands/runs-command.js"),
        (m) => m.runsCommand(action, rest, options, io),
      ),
    ),
  );

/** The gate's document and governance steps, an ES module loaded only for the calls that need them. */
const agentHookLibrary = () => import("./commands/agent-hook-command.js");

/**
 * The coding agent's gate: its own CommonJS file beside the bin (dist/agent-hook.cjs, see scripts/build.mjs),
 * required only for `agent-hook`.
 */
function runAgentHook(args: readonly string[]): Promise<number> {
  const gate = nodeModule.createRequire(import.meta.url)("./agent-hook.cjs") as { runAgentHook: typeof RunAgentHook };
  return gate.runAgentHook(args, io, agentHookLibrary);
}

const RUN_HELP_NOTES = `  The loop (norma's layout, in .norma/): plan → do → check → act, repeated until the check says PASS
  or a budget is spent. Each step is committed atomically to .norma/runs/<run_id>/steps/NNN-role/
  and recorded in .norma/norma.db; a run killed at any point is recovered by the next command.
  Agents per role and budgets: .norma/config.json (without it: the built-in check, no other agent).
  With --spec, the criteria are generated: no unreconciled drift for the spec, every changed .noma
  document and transcript valid, and the test command of .notarai/config.yaml (workspace.test).`;

const TRANSCRIPT_HELP_NOTES = `  An edit made to a document outside the patch protocol (an editor, a merge) leaves its transcript
  ending in another state: a warning on every check, an error under \`transcripts: strict\`.
  \`accept\` records that you accept it: one sealed \`accept_outside_edit\` record per edit not yet
  acknowledged, naming the recorded state, the accepted one and your reason, under the document's
  lock; the document is not touched. Edited again afterwards, it is a gap again. See docs/transcripts.md.`;

const MARK_HELP_NOTES = `  Adopting a repository: \`mark-reconciled --all\` marks every governed file git knows, and every
  spec file, reconciled at its current content, writes .notarai/reconciliation_state.json, and
  says what to commit. Commit it: the PR check measures drift from the committed snapshot.
  A path is a file or a directory (the governed files under it); a deleted file git knows is
  skipped. The records the tools keep for audit (the evidence ledger, the archive, .norma/,
  *.noma.patches transcripts) are never governed, whatever a spec's globs cover.`;

const AGENT_HOOK_HELP_NOTES = `  Before a tool runs (PreToolUse; Gemini CLI: BeforeTool) it refuses, with the reason the agent reads:
  a Write or Edit of an existing .noma document (giving the same change as patch ops, with the document's
  base_sha256, to send with mcp__noma-reconcile__patch_block or noma-reconcile patch), a new document
  with validation errors, any write of a transcript (*.noma.patches) or of the evidence ledger, and a
  shell command that writes one of them (sed -i, >, tee, mv/cp onto one, …). After an edit (PostToolUse,
  AfterTool) it tells the agent which spec governs the file and how to reconcile it. Anything else runs
  as the agent asked, and the gate says nothing. NOMA_RECONCILE_SKIP=1 turns it off. See docs/agents.md.`;

const HELP_NOTES: Record<string, { title: string; body: string }> = {
  "agent-hook": { title: "What it decides", body: AGENT_HOOK_HELP_NOTES },
  run: { title: "How it works", body: RUN_HELP_NOTES },
  "mark-reconciled": { title: "How it works", body: MARK_HELP_NOTES },
  transcript: { title: "Accepting an outside edit", body: TRANSCRIPT_HELP_NOTES },
};

// cac gives a --no-X flag the default true and prints "(default: true)" after it; the body reads only `false`.
for (const c of cli.commands) for (const o of c.options) if (o.negated) o.config.default = undefined;

cli.help((sections) => {
  const name = cli.matchedCommand?.name.split(" ")[0];
  if (name === undefined) return topLevelHelp(sections);
  const notes = HELP_NOTES[name];
  if (notes !== undefined) sections.splice(Math.max(1, sections.length - 1), 0, notes);
  sections.push({ title: "Exit codes", body: exitCodesOf(name) });
  return sections;
});

/** The top-level help: the commands in groups, one line on where each command's details are, the exit codes. */
function topLevelHelp(sections: { title?: string; body: string }[]): { title?: string; body: string }[] {
  const byName = new Map(cli.commands.map((c) => [c.name.split(" ")[0]!, c]));
  const width = Math.max(...cli.commands.map((c) => c.rawName.length));
  const line = (c: Command): string => `  ${c.rawName.padEnd(width)}  ${c.description}`;
  const grouped = new Set(COMMAND_GROUPS.flatMap((g) => g.commands));
  const groups = COMMAND_GROUPS.map((g) => ({
    title: g.title,
    body: g.commands.flatMap((n) => (byName.has(n) ? [line(byName.get(n)!)] : [])).join("\n"),
  }));
  const others = cli.commands.filter((c) => !grouped.has(c.name.split(" ")[0]!));
  if (others.length > 0) groups.push({ title: "Other commands", body: others.map(line).join("\n") });
  const head = sections.filter((s) => s.title === undefined || s.title === "Usage");
  const options = sections.filter((s) => s.title === "Options");
  return [
    ...head,
    ...groups,
    { body: `Run \`${TOOL_NAME} <command> --help\` for a command's options, exit codes and examples.` },
    ...options,
    { title: "Exit codes", body: GENERAL_EXIT_CODES },
  ];
}
cli.version(TOOL_VERSION);

async function main(): Promise<number> {
  try {
    // mri does not take a lone "-" (stdin) as an option value; "--ops -" → "--ops=-".
    const argv = process.argv.flatMap((a, i, all) =>
      a === "-" && i > 0 && /^--[a-z]/.test(all[i - 1]!) && !all[i - 1]!.includes("=")
        ? []
        : a.startsWith("--") && a !== "--" && all[i + 1] === "-" && !a.includes("=")
          ? [`${a}=-`]
          : [a],
    );
    // The coding agent's gate runs on every tool call: straight to it, without the argument parser's work.
    if (argv[2] === "agent-hook" && !argv.slice(3).some((a) => a === "--help" || a === "-h")) return await runAgentHook(argv.slice(3));
    // `help [command]` is `[command] --help`.
    if (argv[2] === "help" && argv.length <= 4) argv.splice(2, argv.length - 2, ...argv.slice(3), "--help");
    // An unknown command is a usage error, even with --help (cac would print the top-level help).
    const first = argv[2];
    if (first !== undefined && !first.startsWith("-") && !cli.commands.some((c) => c.isMatched(first))) {
      io.stderr(
        `${TOOL_NAME}: ${unknownCommandMessage(
          first,
          cli.commands.map((c) => c.name.split(" ")[0]!),
        )}\n`,
      );
      return EXIT_CODE.usage;
    }
    cli.parse(argv, { run: false });
    if (cli.options["help"] === true || cli.options["version"] === true) return 0;
    if (cli.matchedCommand === undefined) {
      const flag = Object.keys(cli.options).find((k) => k !== "--");
      if (flag !== undefined) {
        io.stderr(
          `${TOOL_NAME}: unknown option '${flag.length === 1 ? "-" : "--"}${flag}' before any command.\nRun \`${TOOL_NAME} --help\` for the list of ` +
            `commands.\n`,
        );
        return EXIT_CODE.usage;
      }
      // No command: the help, on stderr.
      const log = console.log;
      console.log = (...parts: unknown[]) => io.stderr(`${parts.join(" ")}\n`);
      try {
        cli.outputHelp();
      } finally {
        console.log = log;
      }
      return EXIT_CODE.usage;
    }
    // As with git, everything after `--` is an argument, never a flag (`check -- -rf.noma`):
    // cac keeps those apart under options["--"]; the command takes them as its arguments.
    const afterDashes = cli.options["--"];
    delete cli.options["--"];
    if (Array.isArray(afterDashes)) (cli.args as string[]).push(...afterDashes.map(String));
    checkOptions(cli.matchedCommand, cli.globalCommand, cli.options, argv.slice(2), cli.args);
    await cli.runMatchedCommand();
    return pending !== undefined ? await pending : 0;
  } catch (e) {
    const err = e as Error;
    // instanceof holds across the separately bundled command bodies (src/errors/noma-error.ts).
    const c = classifyError(err);
    if (c.kind === "usage") {
      io.stderr(`${TOOL_NAME}: ${c.message}\nRun \`${TOOL_NAME} ${cli.matchedCommand?.name ?? ""} --help\` for usage.\n`.replace("  --help", " --help"));
      return EXIT_CODE.usage;
    }
    // An expected condition (bad input, the repository, the environment, a lock another process holds): one line, no stack.
    if (c.kind === "expected") {
      io.stderr(`${TOOL_NAME}: ${c.message}\n`);
      return EXIT_CODE.expected;
    }
    io.stderr(
      `${TOOL_NAME}: internal error: ${err.stack ?? err.message}\nThis is a bug in ${TOOL_NAME} ${TOOL_VERSION}; please report it with the command you ran.\n`,
    );
    return EXIT_CODE.internal;
  }
}

// No top-level await: the bin is bundled as CommonJS (dist/cli.cjs; see scripts/build.mjs).
main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${TOOL_NAME}: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 2;
  },
);

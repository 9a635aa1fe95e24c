/**
 * The pre-commit hook we install (and ship as `hooks/pre-commit`), and the
 * block we put into a husky `.husky/pre-commit`. Plain POSIX sh that never
 * reaches for the network: it honours the skip switch itself (so skipping
 * works even where the program is missing), runs the program from a
 * configured path or the repository's own install, and where there is none
 * prints one line (what is missing, the install command, how to skip) and
 * blocks the commit. Git runs pre-commit hooks from the top of the work tree,
 * so relative paths are the repository's.
 *
 * Right after the skip switch it asks git, in the shell, whether anything the check
 * judges is staged: one `git diff --cached --quiet` over the judged names as pathspecs
 * (CHECKED_PATHSPECS, the same entries `check --staged` lists: deletions and both sides of a
 * rename included). Git matches the names, so no staged name ever passes through the shell.
 * When none is staged it prints what `check --staged` prints then and lets the commit
 * through, before looking for the program (one git process fewer; a commit with nothing to
 * judge needs no program, installed or not); any other answer of git (a relevant name, an error) starts the program, which
 * judges (and reports the error). docs/hooks-and-ci.md#the-pre-commit-hook-check---staged.
 */
import { CHECKED_PATHSPECS } from "../layout/checked-path.js";
import { STAGED_DIFF_ARGS } from "../git/list-staged-files.js";

/** A line every hook we write carries: how we recognise our own hook (any version). */
export const HOOK_MARKER = "# noma-reconcile pre-commit hook";

/** The environment switch that makes the hook (and `check --staged`) a no-op. */
export const SKIP_ENV = "NOMA_RECONCILE_SKIP";

/** The environment variable naming the program the hook runs (overrides everything else). */
export const BIN_ENV = "NOMA_RECONCILE_BIN";

/** The git setting naming the program the hook runs (when BIN_ENV is not set). */
export const BIN_GIT_CONFIG = "noma-reconcile.bin";

/** Where the hook finds the repository's own install, from the top of the work tree. */
export const LOCAL_BIN = "node_modules/.bin/noma-reconcile";

/** What we tell people to run when the program is not installed. */
export const INSTALL_COMMAND = "npm i -D noma-reconcile";

/** The command a hook runs (what we tell users of other hook set-ups to call). */
export const HOOK_COMMAND = `${LOCAL_BIN} check --staged`;

/** The one line earlier versions put into `.husky/pre-commit` (upgraded to the block). */
export const LEGACY_HUSKY_LINE = "npx --no noma-reconcile check --staged";

/** The last line of the block in a husky (or other shared) hook file. */
export const HOOK_BLOCK_END = ") # end of the noma-reconcile pre-commit hook";

/** What the hook (and `check --staged`) says when nothing it judges is staged (stderr, exit 0). */
export const NOTHING_STAGED = "nothing staged to check (no .noma documents, transcripts, sidecars, specs or configuration).";

/**
 * The hook's question to git: exit 0 when nothing `check --staged` judges is staged. The
 * pathspec switches a caller's environment may hold are turned off for it (GIT_LITERAL_PATHSPECS
 * would read the pathspecs' magic as file names and match nothing); the external diff is never run.
 */
export const STAGED_FILTER = [
  "GIT_LITERAL_PATHSPECS=0 GIT_GLOB_PATHSPECS=0 GIT_NOGLOB_PATHSPECS=0 GIT_ICASE_PATHSPECS=0",
  `git ${STAGED_DIFF_ARGS.join(" ")} --quiet --no-ext-diff --`,
  ...CHECKED_PATHSPECS.map((p) => `'${p}'`),
].join(" ");

const SKIP_HINT = `Skip this check once: ${SKIP_ENV}=1 git commit ...`;

const HEADER = `${HOOK_MARKER}: blocks commits that stage invalid .noma documents, transcripts or specs.
# Skip once: git commit --no-verify, or ${SKIP_ENV}=1 git commit ...
# Only when git says a document, transcript, sidecar, book manifest, spec or the configuration is staged (deleted or renamed included),
# runs $${BIN_ENV}, else \`git config ${BIN_GIT_CONFIG}\`, else ${LOCAL_BIN} (paths from the top of the work tree; *.js, *.cjs, *.mjs run with node).
`;

/** The hook's program: skip switch, asking git whether anything judged is staged, finding the program, running the check (no shebang, comments or chaining). */
export const HOOK_PROGRAM = [
  `case \${${SKIP_ENV}:-0} in 0|[Ff][Aa][Ll][Ss][Ee]) ;; *) echo "noma-reconcile: ${SKIP_ENV} is set; staged files not checked." >&2; exit 0 ;; esac`,
  `${STAGED_FILTER} 2>/dev/null && { echo "noma-reconcile: ${NOTHING_STAGED}" >&2; exit 0; }`,
  `b=\${${BIN_ENV}:-} from=${BIN_ENV}`,
  `[ -n "$b" ] || b=$(git config --path --get ${BIN_GIT_CONFIG} || :) from="git config ${BIN_GIT_CONFIG}"`,
  `if [ -z "$b" ]; then`,
  `  b=${LOCAL_BIN}`,
  `  [ -x "$b" ] || { echo "noma-reconcile: commit blocked: noma-reconcile is not installed in this repository (no $b). Install it: ` +
    `${INSTALL_COMMAND} (or point git config ${BIN_GIT_CONFIG} at it). ${SKIP_HINT}" >&2; exit 1; }`,
  `elif [ ! -f "$b" ]; then`,
  `  echo "noma-reconcile: commit blocked: $b (set by $from) does not exist. Fix that setting, or unset it and install: ${INSTALL_COMMAND}. ` +
    `${SKIP_HINT}" >&2; exit 1`,
  `fi`,
  `case $b in *.js|*.cjs|*.mjs|${LOCAL_BIN}) command -v node >/dev/null 2>&1 || { echo "noma-reconcile: commit blocked: node is not on the PATH ` +
    `this hook runs with, and $b needs it. ${SKIP_HINT}" >&2; exit 1; } ;; esac`,
  `case $b in *.js|*.cjs|*.mjs) exec node "$b" check --staged ;; *) exec "$b" check --staged ;; esac`,
  ``,
].join("\n");

/**
 * The program of the shipped `.pre-commit-hooks.yaml` (the pre-commit framework's remote hook, `language: node`):
 * the skip switch and git's question as in the hook, then the bin the framework installed on its PATH. The
 * framework's own `files` filter is not used: it selects from the files a commit adds or changes, so a commit
 * that only deletes a transcript or renames a chapter away would skip the check.
 */
export const PRE_COMMIT_FRAMEWORK_PROGRAM = [...HOOK_PROGRAM.split("\n").slice(0, 2), "exec noma-reconcile check --staged", ""].join("\n");

/** What `init --hooks --force` renames a foreign standalone hook to (beside ours, same directory); ours runs it first. */
export const CHAINED_SUFFIX = ".before-noma-reconcile";

/** The standalone hook runs the hook it replaced first (skipping our check skips only ours). */
const CHAIN = `# The hook that was here before (init --hooks --force kept it as <hook>${CHAINED_SUFFIX}) runs first; its failure blocks the commit.
if [ -x "$0${CHAINED_SUFFIX}" ]; then "$0${CHAINED_SUFFIX}" "$@" || exit $?; fi
`;

/** The standalone hook: `.git/hooks/pre-commit` (or core.hooksPath) and the shipped `hooks/pre-commit`. */
export const PRE_COMMIT_SCRIPT = `#!/bin/sh
${HEADER}${CHAIN}${HOOK_PROGRAM}`;

/**
 * The same hook as a block for a hook file that runs other steps too (husky's
 * `.husky/pre-commit`, run with `sh -e`): a subshell, so skipping or running
 * the check never ends the file's other steps, and a failure fails the file.
 */
export const PRE_COMMIT_BLOCK = `${HEADER}(
${HOOK_PROGRAM.replace(/^(?=.)/gm, "  ")}${HOOK_BLOCK_END}
`;

/** Which hook manager installed a hook file, by its content (`pre-commit install`, `lefthook install`, husky), or null. */
export function hookManagerOf(text: string): "pre-commit" | "lefthook" | "husky" | null {
  if (/generated by pre-commit/i.test(text)) return "pre-commit";
  if (/lefthook/i.test(text)) return "lefthook";
  if (/husky/i.test(text)) return "husky";
  return null;
}

/** Whether a hook file is one of our standalone hooks (this version or an older one): a shebang, then our marker. */
export function isOwnHook(text: string): boolean {
  const lines = text.split(/\r?\n/, 2);
  return lines.length === 2 && lines[0]!.startsWith("#!") && lines[1]!.startsWith(HOOK_MARKER);
}

/** Where our block sits in a hook file (0-based first and last line), or null when it has none, or "open" when it starts but never ends. */
export function findHookBlock(text: string): { first: number; last: number } | "open" | null {
  const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  const first = lines.findIndex((l) => l.startsWith(HOOK_MARKER));
  if (first === -1) return null;
  const last = lines.findIndex((l, i) => i > first && l === HOOK_BLOCK_END);
  return last === -1 ? "open" : { first, last };
}

/**
 * The entries `init` gives hook managers (the pre-commit framework, lefthook):
 * they run the same shell program as our raw git hook — the skip switch first,
 * then `$NOMA_RECONCILE_BIN`, `git config noma-reconcile.bin` or the
 * repository's own install, never npx — so a manager-run check behaves like
 * the hook. Rendered as YAML text at a given indentation (a literal block for
 * the program, so nothing needs escaping).
 *
 * The program asks git whether anything judged is staged before it starts node (hook-script.ts),
 * so the entries carry no file filter of the manager's: the pre-commit entry stays `always_run`
 * and the lefthook command has no `glob`. Those filters select from the files a commit adds or
 * changes — a commit that only deletes a transcript or renames a chapter away would skip the
 * check — and lefthook's default `**` needs at least one directory. docs/hooks-and-ci.md.
 *
 * The pre-commit entry names no `stages`: the stage name `pre-commit` exists
 * only from pre-commit 3.2 (older versions reject the whole file), and without
 * `stages` a hook runs in the hook types the user installed — by default only
 * pre-commit.
 */
import { HOOK_PROGRAM } from "../hooks/hook-script.js";

/** The hook's program without its shebang, comment lines and chaining (what `sh -c` runs). */
export const MANAGER_HOOK_PROGRAM = HOOK_PROGRAM;

/** The id (pre-commit) and command name (lefthook) of our entry. */
export const MANAGER_ENTRY_NAME = "noma-reconcile";

function literal(indent: string): string[] {
  return MANAGER_HOOK_PROGRAM.replace(/\n$/, "")
    .split("\n")
    .map((l) => (l.length > 0 ? `${indent}${l}` : ""));
}

/** A `repos:` item of `.pre-commit-config.yaml`, its dash at `indent`. */
export function preCommitEntryLines(indent: string): string[] {
  const i = indent;
  return [
    `${i}- repo: local`,
    `${i}  hooks:`,
    `${i}    - id: ${MANAGER_ENTRY_NAME}`,
    `${i}      name: noma-reconcile check --staged`,
    `${i}      language: system`,
    `${i}      entry: sh`,
    `${i}      args:`,
    `${i}        - -c`,
    `${i}        - |`,
    ...literal(`${i}          `),
    `${i}      pass_filenames: false`,
    `${i}      always_run: true`,
    `${i}      require_serial: true`,
  ];
}

/** The parsed form of that item (what the edited file must hold). */
export function preCommitEntryValue(): Record<string, unknown> {
  return {
    repo: "local",
    hooks: [
      {
        id: MANAGER_ENTRY_NAME,
        name: "noma-reconcile check --staged",
        language: "system",
        entry: "sh",
        args: ["-c", MANAGER_HOOK_PROGRAM],
        pass_filenames: false,
        always_run: true,
        require_serial: true,
      },
    ],
  };
}

/** The `noma-reconcile:` command of lefthook's `pre-commit: commands:`, its key at `indent`, nested by `unit`. */
export function lefthookCommandLines(indent: string, unit: string): string[] {
  return [`${indent}${MANAGER_ENTRY_NAME}:`, `${indent}${unit}run: |`, ...literal(`${indent}${unit}${unit}`)];
}

export function lefthookCommandValue(): Record<string, unknown> {
  return { run: MANAGER_HOOK_PROGRAM };
}

/** What to paste where, for a file init cannot (or was not asked to) edit. */
export function preCommitSnippet(): string {
  return ["repos:", ...preCommitEntryLines("  ")].join("\n");
}

export function lefthookSnippet(): string {
  return ["pre-commit:", "  commands:", ...lefthookCommandLines("    ", "  ")].join("\n");
}

/**
 * The pre-commit hook script we install (and ship as `hooks/pre-commit`): one
 * line that calls the project's local binary — straight from
 * `node_modules/.bin` when it is there (no npx start-up), else through
 * `npx --no`, which never downloads. Git runs pre-commit hooks from the top of
 * the work tree, so the relative path is the project's own install.
 */

/** A line every hook we write carries: how we recognise our own hook (any version). */
export const HOOK_MARKER = "# noma-reconcile pre-commit hook";

/** The command a hook runs (also what we tell husky/lefthook/pre-commit users to add). */
export const HOOK_COMMAND = "npx --no noma-reconcile check --staged";

/** The environment switch that makes `check --staged` a no-op. */
export const SKIP_ENV = "NOMA_RECONCILE_SKIP";

export const PRE_COMMIT_SCRIPT = `#!/bin/sh
${HOOK_MARKER}: blocks commits that stage invalid .noma documents, transcripts or specs.
# Skip once: git commit --no-verify, or ${SKIP_ENV}=1 git commit ...
b=node_modules/.bin/noma-reconcile; if [ -x "$b" ]; then exec "$b" check --staged; else exec ${HOOK_COMMAND}; fi
`;

/** Whether a hook file's text is one of ours (this version or an older one). */
export function isOwnHook(text: string): boolean {
  return text.includes(HOOK_MARKER);
}

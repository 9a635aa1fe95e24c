/**
 * `check`'s fixes (`--format json`'s `fix` fields, `--fix`, `--fix-dry-run`: the patch engine and the fixes), bundled on
 * their own as dist/bodies/check-fixes.cjs, which the bin loads through its compile cache (../startup/load-cached-body.ts)
 * when `check` asks for them — not part of check's body, which the pre-commit hook and every text `check` read at each start.
 */
export * from "../commands/check-fixes.js";

/**
 * `check` bundled on its own as dist/bodies/check.cjs, which the bin loads through its compile cache (../startup/load-cached-body.ts),
 * with its fixes (`--format json`'s `fix` fields, `--fix`, `--fix-dry-run`) as a lazy loader: initialised only for those, and compiled
 * through the same cache rather than imported as ES modules beside the body.
 */
export { checkCommand } from "../commands/check-command.js";
export const loadFixes = () => import("../commands/check-fixes.js");

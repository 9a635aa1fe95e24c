/** `diff` bundled on its own as dist/bodies/diff.cjs, which the bin loads through its compile cache (../startup/load-cached-body.ts). */
export { diffCommand } from "../commands/diff-command.js";

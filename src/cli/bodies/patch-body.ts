/** `patch` bundled on its own as dist/bodies/patch.cjs, which the bin loads through its compile cache (../startup/load-cached-body.ts). */
export { patchCommand } from "../commands/patch-command.js";

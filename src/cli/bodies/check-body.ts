/** `check` bundled on its own as dist/bodies/check.cjs, which the bin loads through its compile cache (../startup/load-cached-body.ts). */
export { checkCommand } from "../commands/check-command.js";

/** `affected` bundled on its own as dist/bodies/affected.cjs, which the bin loads through its compile cache (../startup/load-cached-body.ts). */
export { affectedCommand } from "../commands/affected-command.js";

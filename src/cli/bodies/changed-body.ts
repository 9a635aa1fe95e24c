/** `changed` bundled on its own as dist/bodies/changed.cjs, which the bin loads through its compile cache (../startup/load-cached-body.ts). */
export { changedCommand } from "../commands/changed-command.js";

/** `render` bundled on its own as dist/bodies/render.cjs, which the bin loads through its compile cache (../load-cached-body.ts). */
export { renderCommand } from "../commands/render-command.js";

/**
 * Whether what `init` sets up can run here: the pre-commit hook needs the
 * program (a configured path or the repository's own install, see
 * src/hooks/locate-program.ts) and the `.mcp.json` entry needs the package
 * where node finds it from the repository root. Each gap is a warning naming
 * the install command; nothing here is an error.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { INSTALL_COMMAND, LOCAL_BIN } from "../hooks/hook-script.js";
import { locateProgram, type ProgramLocation } from "../hooks/locate-program.js";
import { TOOL_NAME } from "../version.js";

/** The package.json node resolves `noma-reconcile` to from `root` (what the MCP launcher runs), or null. */
export function resolveLocalPackage(root: string): string | null {
  try {
    return createRequire(join(root, "package.json")).resolve(`${TOOL_NAME}/package.json`, { paths: [root] });
  } catch {
    return null;
  }
}

export interface InstallCheck {
  program: ProgramLocation;
  /** The package the `.mcp.json` entry starts, or null. */
  mcpPackage: string | null;
  warnings: string[];
}

/** `mcpEntryOurs`: whether `.mcp.json` carries our entry (a different one the user kept is theirs to run). */
export function checkInstall(root: string, env: NodeJS.ProcessEnv, mcpEntryOurs: boolean): InstallCheck {
  const program = locateProgram(root, env);
  const mcpPackage = resolveLocalPackage(root);
  const mcpMissing = mcpEntryOurs && mcpPackage === null;
  const warnings: string[] = [];
  if (program.problem !== null && program.source === "local-install" && mcpMissing) {
    warnings.push(
      `${TOOL_NAME} is not installed in this repository (no ${LOCAL_BIN}), so the pre-commit hook and the MCP server in .mcp.json cannot run it; ` +
        `install it: ${INSTALL_COMMAND}`,
    );
  } else {
    if (program.problem !== null) warnings.push(`the pre-commit hook cannot run: ${program.problem}`);
    if (mcpMissing)
      warnings.push(
        `the MCP server in .mcp.json cannot start: node finds no ${TOOL_NAME} package from the repository root (node_modules/${TOOL_NAME}); install ` +
          `it: ${INSTALL_COMMAND}, or edit the ${TOOL_NAME} entry in .mcp.json`,
      );
  }
  return { program, mcpPackage, warnings };
}

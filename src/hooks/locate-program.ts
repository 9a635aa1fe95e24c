/**
 * Find the program the pre-commit hook will run, the way the hook script does
 * (src/hooks/hook-script.ts): `$NOMA_RECONCILE_BIN`, else
 * `git config noma-reconcile.bin`, else `node_modules/.bin/noma-reconcile` at
 * the top of the work tree. `init` uses it to warn when nothing is there
 * (the hook would then block every commit).
 */
import { readGitConfig } from "../git/read-ref.js";
import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { BIN_ENV, BIN_GIT_CONFIG, INSTALL_COMMAND, LOCAL_BIN } from "./hook-script.js";

export type ProgramSource = "env" | "git-config" | "local-install";

export interface ProgramLocation {
  /** Absolute path of the program, when it exists. */
  path: string | null;
  /** Where the path came from. */
  source: ProgramSource;
  /** The path as configured (or the local install's relative path). */
  configured: string;
  /** Why the hook could not run it, and what to do (null when it can). */
  problem: string | null;
}

function configuredBin(root: string): string {
  return readGitConfig(root, BIN_GIT_CONFIG, { path: true }) ?? "";
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  if (!isFile(path)) return false;
  if (process.platform === "win32") return true;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function locateProgram(root: string, env: NodeJS.ProcessEnv = process.env): ProgramLocation {
  const fromEnv = env[BIN_ENV] ?? "";
  const configured = fromEnv !== "" ? fromEnv : configuredBin(root);
  if (configured !== "") {
    const source: ProgramSource = fromEnv !== "" ? "env" : "git-config";
    const path = isAbsolute(configured) ? configured : resolve(root, configured);
    const setBy = source === "env" ? BIN_ENV : `git config ${BIN_GIT_CONFIG}`;
    if (isFile(path)) return { path, source, configured, problem: null };
    return {
      path: null,
      source,
      configured,
      problem: `${configured} (set by ${setBy}) does not exist; fix that setting, or unset it and install: ${INSTALL_COMMAND}`,
    };
  }
  const local = join(root, LOCAL_BIN);
  if (isExecutable(local)) return { path: local, source: "local-install", configured: LOCAL_BIN, problem: null };
  return {
    path: null,
    source: "local-install",
    configured: LOCAL_BIN,
    problem:
      `noma-reconcile is not installed in this repository (no ${LOCAL_BIN}); install it: ${INSTALL_COMMAND} (or point git config ${BIN_GIT_CONFIG} at ` +
      `the program)`,
  };
}

/**
 * What a command may touch of the process: injected so commands stay testable.
 */
import type { Prefetched } from "../fsx/prefetch-files.js";

export interface CliIO {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Files the bin started reading before the command loaded (`check`'s large documents). */
  prefetched?: Prefetched;
}

/**
 * Colour decision: `--color`/`--no-color` wins; else NO_COLOR (non-empty) disables,
 * FORCE_COLOR (non-empty, not "0") forces; else only on a TTY.
 */
export function useColor(flag: unknown, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag === true) return true;
  if (flag === false) return false;
  if (env["NO_COLOR"] !== undefined && env["NO_COLOR"] !== "") return false;
  const force = env["FORCE_COLOR"];
  if (force !== undefined && force !== "" && force !== "0" && force !== "false") return true;
  return isTTY;
}

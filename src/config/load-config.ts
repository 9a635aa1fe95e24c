/**
 * The effective configuration: `--config <path>` when given, else the root
 * `.notarai/config.yaml` as the judged source holds it (the index for the
 * hook, HEAD for the PR check, the work tree for `check`), else defaults.
 * Invalid settings are a configuration error (exit 2) naming file and line;
 * unknown keys are warnings.
 */
import { NomaError } from "../errors/noma-error.js";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CONFIG_PATH } from "../layout/checked-path.js";
import { defaultConfig, type NomaConfig } from "./config-defaults.js";
import { formatConfigProblem, parseConfig } from "./parse-config.js";

export class ConfigError extends NomaError {
  static override readonly errorName: string = "ConfigError";
  constructor(message: string) {
    super("config-invalid", message);
  }
}

export interface LoadConfigOptions {
  /** `--config <path>` (relative to `cwd`). */
  override?: string;
  cwd: string;
  /** Reads a repository path from the judged source (null when absent). */
  read: (path: string) => string | null;
  onWarning?: (message: string) => void;
}

/** `read` for the work tree of the repository at `root`: a file's text, null when it does not exist. */
export function worktreeReader(root: string): (path: string) => string | null {
  return (p) => {
    try {
      return readFileSync(join(root, p), "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
  };
}

export function loadConfig(options: LoadConfigOptions): NomaConfig {
  let text: string | null;
  let file: string;
  if (options.override !== undefined) {
    file = options.override;
    try {
      text = readFileSync(resolve(options.cwd, options.override), "utf8");
    } catch (e) {
      throw new ConfigError(`cannot read the configuration file ${options.override} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  } else {
    file = CONFIG_PATH;
    text = options.read(CONFIG_PATH);
    if (text === null) return defaultConfig();
  }
  const { config, problems } = parseConfig(text, file);
  const errors = problems.filter((p) => p.severity === "error");
  for (const p of problems) if (p.severity === "warning") options.onWarning?.(formatConfigProblem(p));
  if (errors.length > 0) throw new ConfigError(`invalid configuration:\n${errors.map(formatConfigProblem).join("\n")}`);
  return config;
}

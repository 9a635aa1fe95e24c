/**
 * The effective configuration: `--config <path>` when given, else the root
 * `.notarai/config.yaml` as the judged source holds it (the index for the
 * hook, HEAD for the PR check, the work tree for `check`), else defaults.
 * Invalid settings are a configuration error (exit 2) naming file and line;
 * unknown keys are warnings.
 */
import { NomaError } from "../errors/noma-error.js";
import { FileTooLargeError, FileUnreadableError, readRegularFile, readRegularFileIfPresent } from "../fsx/read-regular-file.js";
import { MAX_CONFIG_BYTES_ENV, maxConfigBytes, raiseHint, utf8SizeOver } from "../fsx/size-limits.js";
import { decodeText } from "../fsx/utf8-text.js";
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
    const bytes = readRegularFileIfPresent(join(root, p), p, CONFIG_CAP());
    return bytes === null ? null : decodeText(bytes, p);
  };
}

/** Reads of a configuration file: at most its cap (size-limits.ts). */
const CONFIG_CAP = (): { maxBytes: number; maxBytesHint: string } => ({ maxBytes: maxConfigBytes(), maxBytesHint: raiseHint(MAX_CONFIG_BYTES_ENV) });

export function loadConfig(options: LoadConfigOptions): NomaConfig {
  let text: string | null;
  let file: string;
  if (options.override !== undefined) {
    file = options.override;
    try {
      text = decodeText(readRegularFile(resolve(options.cwd, options.override), options.override, CONFIG_CAP()), options.override);
    } catch (e) {
      if (e instanceof FileUnreadableError)
        throw new ConfigError(`cannot read the configuration file ${options.override} (${e.reason.replace(/^cannot be read: /, "")})`);
      throw e;
    }
  } else {
    file = CONFIG_PATH;
    text = options.read(CONFIG_PATH);
    if (text === null) return defaultConfig();
  }
  // Whatever the source (the work tree, a blob of the index or a commit): over the cap, never parsed.
  const cap = maxConfigBytes();
  const size = utf8SizeOver(text, cap);
  if (size !== null) throw new FileTooLargeError(file, size, cap, raiseHint(MAX_CONFIG_BYTES_ENV));
  const { config, problems } = parseConfig(text, file);
  const errors = problems.filter((p) => p.severity === "error");
  for (const p of problems) if (p.severity === "warning") options.onWarning?.(formatConfigProblem(p));
  if (errors.length > 0) throw new ConfigError(`invalid configuration:\n${errors.map(formatConfigProblem).join("\n")}`);
  return config;
}

/**
 * NOA `run_command` (an allowlisted command line) and `run_tests` / `build_workspace`
 * (the argv `.notarai/config.yaml` names under `workspace.test` / `workspace.build`),
 * all run by runProcess: from the repository root, never through a shell, with the
 * minimal environment of command-env.ts, a timeout and capped output.
 *
 * A command that runs and exits non-zero (or times out) is a result, `success: false`
 * with its exit code and output; a command that is refused (not allowlisted, an
 * environment key the record does not accept, not found) is an error.
 */
import { isAbsolute, resolve } from "node:path";
import { findExecutable, commandEnv } from "../command-env.js";
import { matchAllowlist, refusedEnvironmentKeys } from "../match-allowlist.js";
import { formatAllowlistProblem, isBareExecutable, isForbiddenVariable, parseAllowlist, type Allowlist, type AllowRecord } from "../parse-allowlist.js";
import { runProcess, type RunProcessResult } from "../../process/run-process.js";
import { WorkspaceError } from "../workspace-error.js";
import { DEFAULT_OUTPUT_BYTES } from "../workspace-schemas.js";
import { DEFAULT_COMMAND_TIMEOUT_SECONDS } from "../command-timeout.js";
import type { Workspace } from "../workspace.js";
import { readCheckedFile } from "./read-file.js";
import type { EffectJournal } from "../effect-journal.js";
import type { ToolOutput } from "./tool-output.js";

/** What the process did (RunProcessResult without the internal abort/spawn flags), its argv and whether it succeeded. */
export interface CommandResult extends Omit<RunProcessResult, "aborted" | "spawn_error"> {
  success: boolean;
  argv: string[];
  message?: string;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Told the command's process id once it started (the run loop records it for crash recovery). */
  onSpawn?: (pid: number) => void | Promise<void>;
  /** Where the intent line goes before the command starts (a command may change the work tree). */
  journal?: EffectJournal;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_ARG_CHARS = 128 * 1024;

/** The allowlist file, parsed; an absent file is an empty allowlist that refuses everything. */
export function loadAllowlist(ws: Workspace): Allowlist | null {
  const rel = ws.protectedPaths.allowlist;
  let text: string;
  try {
    text = readCheckedFile(ws, ws.check(rel, "read"), 1024 * 1024).bytes.toString("utf8");
  } catch (e) {
    if (e instanceof WorkspaceError && e.code === "not_found") return null;
    if (e instanceof WorkspaceError) throw new WorkspaceError("config_error", `the allowlist ${rel}: ${e.message}`);
    throw e;
  }
  const { allowlist, problems } = parseAllowlist(text, rel);
  if (problems.length > 0)
    throw new WorkspaceError("config_error", `the allowlist is invalid, so every command is refused:\n${problems.map(formatAllowlistProblem).join("\n")}`);
  return allowlist;
}

function describeArgv(command: string, args: readonly string[]): string {
  return [command, ...args].map((a) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
}

function commandResult(r: RunProcessResult, argv: string[], timeoutSeconds: number): CommandResult {
  const success = r.exit_code === 0 && !r.timed_out && !r.aborted && r.spawn_error === undefined;
  let message: string | undefined;
  if (r.spawn_error !== undefined) message = `could not start ${argv[0]}: ${r.spawn_error}`;
  else if (r.timed_out) message = `timed out after ${timeoutSeconds} s: the command and everything it started were killed`;
  else if (r.aborted) message = "stopped: the server is shutting down";
  else if (r.exit_code !== 0) message = r.signal !== null ? `killed by ${r.signal}` : `exited with status ${r.exit_code}`;
  return {
    success,
    exit_code: r.exit_code,
    signal: r.signal,
    stdout: r.stdout,
    stderr: r.stderr,
    truncated: r.truncated,
    timed_out: r.timed_out,
    duration_ms: r.duration_ms,
    argv,
    ...(message !== undefined ? { message } : {}),
  };
}

function runDetails(result: CommandResult, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    ...extra,
    status: result.exit_code,
    signal: result.signal,
    timed_out: result.timed_out,
    truncated: result.truncated,
    duration_ms: result.duration_ms,
  };
}

export async function runCommandTool(
  ws: Workspace,
  args: { command: string; args?: string[]; environment?: Record<string, string>; timeout_seconds?: number; max_output_bytes?: number },
  options: RunOptions = {},
): Promise<ToolOutput<CommandResult>> {
  const command = args.command;
  const argList = args.args ?? [];
  if (!isBareExecutable(command)) {
    throw new WorkspaceError(
      "invalid_arguments",
      `command ${JSON.stringify(command)}: expected a bare executable name (letters, digits, . _ + -; no slashes, spaces or shell syntax: pass ` +
        `arguments in args)`,
    );
  }
  const badArg = argList.findIndex((a) => a.includes("\0") || a.length > MAX_ARG_CHARS);
  if (badArg !== -1) throw new WorkspaceError("invalid_arguments", `args[${badArg}]: contains a NUL byte or is longer than ${MAX_ARG_CHARS} characters`);
  const envKeys = Object.keys(args.environment ?? {});
  for (const k of envKeys) {
    if (!ENV_NAME.test(k)) throw new WorkspaceError("environment_refused", `environment: ${JSON.stringify(k)} is not a variable name`);
    if (isForbiddenVariable(k))
      throw new WorkspaceError(
        "environment_refused",
        `environment: ${k} can never be set by a request (PATH is the server's; LD_*/DYLD_* would load code the allowlist never named)`,
      );
    if (args.environment![k]!.includes("\0")) throw new WorkspaceError("environment_refused", `environment.${k}: contains a NUL byte`);
  }
  const shown = describeArgv(command, argList);
  const allowlist = loadAllowlist(ws);
  if (allowlist === null) {
    throw new WorkspaceError(
      "not_allowlisted",
      `${shown}: refused — there is no allowlist (${ws.protectedPaths.allowlist}), so no command may run; its records name the argv lines that may`,
    );
  }
  const record = matchAllowlist(allowlist, command, argList);
  if (record === null) {
    const known = allowlist.records.slice(0, 20).map((r) => r.argv.join(" "));
    throw new WorkspaceError(
      "not_allowlisted",
      `${shown}: not on the allowlist ` +
        `(${allowlist.file})${known.length > 0 ? `; allowed: ${known.join(" | ")}${allowlist.records.length > 20 ? " | …" : ""}` : "; it has no records"}`,
    );
  }
  const refused = refusedEnvironmentKeys(record, envKeys);
  if (refused.length > 0) {
    throw new WorkspaceError(
      "environment_refused",
      `environment: ${refused.join(", ")} not accepted for ${shown} (${allowlist.file}:${record.line} ` +
        `accepts ${record.environment.length > 0 ? record.environment.map((e) => e.text).join(", ") : "none"})`,
    );
  }
  const timeoutSeconds = args.timeout_seconds ?? record.timeoutSeconds;
  if (timeoutSeconds > record.timeoutSeconds)
    throw new WorkspaceError(
      "invalid_arguments",
      `timeout_seconds ${timeoutSeconds}: more than the ${record.timeoutSeconds} s ${allowlist.file}:${record.line} allows`,
    );
  const rule = `${allowlist.file}:${record.line}`;
  return runArgv(
    ws,
    command,
    argList,
    record,
    {
      timeoutSeconds,
      maxOutputBytes: args.max_output_bytes ?? DEFAULT_OUTPUT_BYTES,
      request: args.environment ?? {},
      signal: options.signal,
      ...(options.journal !== undefined ? { journal: options.journal } : {}),
      ...(options.onSpawn !== undefined ? { onSpawn: options.onSpawn } : {}),
    },
    { command, args: argList, rule, environment_keys: envKeys },
  );
}

async function runArgv(
  ws: Workspace,
  command: string,
  argList: string[],
  record: Pick<AllowRecord, "inherit" | "env">,
  o: {
    timeoutSeconds: number;
    maxOutputBytes: number;
    request: Record<string, string>;
    signal: AbortSignal | undefined;
    onSpawn?: RunOptions["onSpawn"];
    journal?: EffectJournal;
  },
  ledger: Record<string, unknown>,
): Promise<ToolOutput<CommandResult>> {
  const { env, pathDirs } = commandEnv({ serverEnv: ws.env, root: ws.root, inherit: record.inherit, fixed: record.env, request: o.request });
  let exe: string | null;
  if (isBareExecutable(command)) exe = findExecutable(command, pathDirs);
  else exe = isAbsolute(command) ? command : resolve(ws.root, command); // configured test/build commands may name a script
  if (exe === null)
    throw new WorkspaceError(
      "command_not_found",
      `${command}: not found on PATH (${pathDirs.join(":") || "empty"}; directories inside the repository are never searched)`,
    );
  // The command may change the work tree: its intent is on the ledger before it starts.
  await o.journal?.intent("", { ...ledger, executable: exe, timeout_seconds: o.timeoutSeconds });
  const r = await runProcess({
    argv: [exe, ...argList],
    cwd: ws.root,
    env,
    timeoutMs: o.timeoutSeconds * 1000,
    maxOutputBytes: o.maxOutputBytes,
    ...(o.signal !== undefined ? { signal: o.signal } : {}),
    ...(o.onSpawn !== undefined ? { onSpawn: o.onSpawn } : {}),
  });
  const result = commandResult(r, [exe, ...argList], o.timeoutSeconds);
  return { body: result, ledgerPath: "", details: runDetails(result, { ...ledger, executable: exe }) };
}

/** Variables the configured test and build commands get besides PATH. */
const CONFIGURED_INHERIT = ["HOME", "TMPDIR", "LANG", "LC_ALL", "CI"];

export async function runConfiguredTool(
  ws: Workspace,
  which: "test" | "build",
  args: { timeout_seconds?: number; max_output_bytes?: number },
  options: RunOptions = {},
): Promise<ToolOutput<CommandResult>> {
  const argv = ws.config[which];
  const tool = which === "test" ? "run_tests" : "build_workspace";
  if (argv === null || argv.length === 0) {
    throw new WorkspaceError(
      "not_configured",
      `${tool}: no ${which} command is configured; set workspace.${which} in .notarai/config.yaml, e.g. ${which}: ` +
        `[npm, ${which === "test" ? "test" : "run, build"}]`,
    );
  }
  const [command, ...rest] = argv as [string, ...string[]];
  return runArgv(
    ws,
    command,
    rest,
    { inherit: CONFIGURED_INHERIT, env: {} },
    {
      timeoutSeconds: args.timeout_seconds ?? DEFAULT_COMMAND_TIMEOUT_SECONDS,
      maxOutputBytes: args.max_output_bytes ?? DEFAULT_OUTPUT_BYTES,
      request: {},
      signal: options.signal,
      ...(options.onSpawn !== undefined ? { onSpawn: options.onSpawn } : {}),
      ...(options.journal !== undefined ? { journal: options.journal } : {}),
    },
    { argv: [...argv], config: `workspace.${which}` },
  );
}

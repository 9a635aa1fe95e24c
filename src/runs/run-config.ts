/**
 * `.norma/config.json`: the agent of each role and the run's budgets
 * (norma-run-loop.md §6.2), plus `risky` globs for `max_risky_files`.
 *
 *   {
 *     "agents": {
 *       "plan":  { "type": "exec", "cmd": ["./bin/plan"], "timeout_ms": 600000, "env": ["MY_TOKEN"] },
 *       "check": { "type": "builtin" },
 *       "act":   { "type": "claude", "model": "sonnet", "path": "." },
 *       "do":    { "type": "acp", "cmd": ["npx", "claude-code-acp"], "permissions": { "execute": "deny" } }
 *     },
 *     "budgets": { "max_iterations": 5, "max_patch_kb": 200, "max_changed_files": 20, "max_risky_files": 0, "max_stalled_iterations": 3 },
 *     "risky": [".github/**", "**\/*.lock"],
 *     "worktrees": { "dir": ".norma/worktrees" },
 *     "retention": { "keep_last": 20, "keep_days": 30 }
 *   }
 *
 * Agent types: `exec` (an argv, never a shell), the one-shot coding CLIs
 * `codex`, `opencode`, `gemini`, `claude` (the binary is fixed: `cmd` is an
 * error; `path`, inside the repository, is their working directory), `acp`
 * (any Agent Client Protocol agent, spoken to over its stdio: an argv, and the
 * policy answering its permission requests), and `builtin` (check only: our own
 * drift, document and test checks).
 *
 * `worktrees.dir` is where each run's git worktree goes (relative to the
 * repository root, or absolute; inside the repository it must be ignored by
 * git, as `.norma/` is). `retention` is what `runs prune` keeps by default.
 *
 * Absent file → defaults: the built-in check, no plan/do/act agent (those
 * roles are recorded as `skipped`; a failed check with no act agent ends the
 * run as failed), `max_iterations` 5, worktrees under `.norma/worktrees`,
 * `runs prune` keeping the last 20 runs and those of the last 30 days. Every problem names the file, the key
 * path, what was expected and what was found; unknown keys are errors (a
 * misspelt budget must not silently lift a limit).
 */
import { FileTooLargeError, FileUnreadableError, readRegularFileIfPresent } from "../fsx/read-regular-file.js";
import { MAX_CONFIG_BYTES_ENV, maxConfigBytes, raiseHint } from "../fsx/size-limits.js";
import { decodeText, NotUtf8TextError } from "../fsx/utf8-text.js";
import { NomaError } from "../errors/noma-error.js";
import { didYouMean } from "../errors/did-you-mean.js";
import { schemaKeysAt } from "../errors/schema-keys-at.js";
import * as z from "zod/mini";
import { findJsonSyntaxError } from "../config/json-syntax-error.js";
import { containPath, PathOutsideRepoError } from "../fsx/contain-path.js";
import type { Budgets } from "./agent-protocol.js";
import { describeIssues, keyPath, showValue } from "./describe-issues.js";
import { abs, NORMA_CONFIG, ROLES, type Role } from "../layout/norma-layout.js";

export const AGENT_TYPES = ["exec", "codex", "opencode", "gemini", "claude", "acp", "builtin"] as const;
export type AgentType = (typeof AGENT_TYPES)[number];
export const CLI_AGENT_TYPES = ["codex", "opencode", "gemini", "claude"] as const;
export type CliAgentType = (typeof CLI_AGENT_TYPES)[number];

/** Default time an agent may take (ms): 20 minutes. */
export const DEFAULT_TIMEOUT_MS = 20 * 60 * 1000;
export const DEFAULT_MAX_ITERATIONS = 5;
/** How many iterations the drift may go without falling before the run stops (budgets.max_stalled_iterations). */
export const DEFAULT_MAX_STALLED_ITERATIONS = 3;
export const DEFAULT_WORKTREES_DIR = ".norma/worktrees";
export const DEFAULT_RETENTION: Readonly<Retention> = Object.freeze({ keep_last: 20, keep_days: 30 });

const timeout = z.optional(z.number().check(z.int(), z.positive()));
const envNames = z.optional(z.array(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name"))));
const argv = z.array(z.string().check(z.minLength(1))).check(z.minLength(1));

/** What an ACP agent's permission request (`session/request_permission`) is answered, per kind of tool call. */
export const PERMISSION_KINDS = ["read", "write", "execute", "fetch", "other"] as const;
export type PermissionKind = (typeof PERMISSION_KINDS)[number];
/** `worktree`: allowed when every location the call names is inside the work tree (plan, check: inside the step directory). */
export type PermissionDecision = "allow" | "deny" | "worktree";
export type PermissionPolicy = Record<PermissionKind, PermissionDecision>;
export const DEFAULT_PERMISSIONS: PermissionPolicy = { read: "allow", write: "worktree", execute: "allow", fetch: "allow", other: "allow" };

const located = (what: string, dflt: PermissionDecision) =>
  z.optional(
    z
      .enum(["allow", "deny", "worktree"])
      .check(z.describe(`${what}: allow, deny, or worktree (allowed when every location it names is inside the work tree). Default ${dflt}`)),
  );
const plain = (what: string) => z.optional(z.enum(["allow", "deny"]).check(z.describe(`${what}: allow or deny. Default allow`)));
const PermissionsSchema = z
  .strictObject({
    read: located("Tool calls that read or search", "allow"),
    write: located("Tool calls that edit, delete or move files (plan and check: only inside the step directory)", "worktree"),
    execute: plain("Tool calls that run commands (the client's terminal runs allowlisted commands only, whatever this says)"),
    fetch: plain("Tool calls that fetch from the network"),
    other: plain("Any other tool call (think, switch_mode, other, none given)"),
  })
  .check(z.describe("How the agent's permission requests (session/request_permission) are answered, per kind of tool call"));

export const AGENT_SCHEMAS: Record<AgentType, z.ZodMiniType> = {
  exec: z.strictObject({ type: z.literal("exec"), cmd: argv, timeout_ms: timeout, env: envNames }),
  codex: cliSchema("codex"),
  opencode: cliSchema("opencode"),
  gemini: cliSchema("gemini"),
  claude: cliSchema("claude"),
  acp: z.strictObject({
    type: z.literal("acp"),
    cmd: argv.check(z.describe("The agent's argv (never a shell); it speaks the Agent Client Protocol over its stdin and stdout")),
    timeout_ms: timeout,
    permissions: z.optional(PermissionsSchema),
  }),
  builtin: z.strictObject({ type: z.literal("builtin"), timeout_ms: timeout }),
};

function cliSchema<T extends CliAgentType>(type: T) {
  return z.strictObject({
    type: z.literal(type),
    model: z.optional(z.string().check(z.minLength(1))),
    path: z.optional(z.string().check(z.minLength(1))),
    timeout_ms: timeout,
    args: z.optional(z.array(z.string())),
  });
}

export const BudgetsSchema = z.strictObject({
  max_iterations: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(1000))),
  max_patch_kb: z.optional(z.number().check(z.positive())),
  max_changed_files: z.optional(z.number().check(z.int(), z.minimum(0))),
  max_risky_files: z.optional(z.number().check(z.int(), z.minimum(0))),
  max_stalled_iterations: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(1000))),
});

export const WorktreesSchema = z.strictObject({ dir: z.optional(z.string().check(z.minLength(1))) });

export const RetentionSchema = z.strictObject({
  keep_last: z.optional(z.number().check(z.int(), z.minimum(0))),
  keep_days: z.optional(z.number().check(z.minimum(0))),
});

/** What `runs prune` keeps: the newest `keep_last` runs, and every run younger than `keep_days` days. */
export interface Retention {
  keep_last: number;
  keep_days: number;
}

export interface ExecAgentConfig {
  type: "exec";
  cmd: string[];
  timeout_ms?: number;
  env?: string[];
}

export interface CliAgentConfig {
  type: CliAgentType;
  model?: string;
  /** Repo-relative working directory of the tool ("" = the root). */
  path?: string;
  timeout_ms?: number;
  /** Extra arguments, placed before the prompt. */
  args?: string[];
}

export interface AcpAgentConfig {
  type: "acp";
  /** The agent's argv (never a shell); it speaks ACP over its stdin and stdout. */
  cmd: string[];
  timeout_ms?: number;
  /** Answers to its permission requests, per kind of tool call (unset kinds: DEFAULT_PERMISSIONS). */
  permissions?: Partial<PermissionPolicy>;
}

export interface BuiltinAgentConfig {
  type: "builtin";
  /** Time the configured test command may take (ms). */
  timeout_ms?: number;
}

export type AgentConfig = ExecAgentConfig | CliAgentConfig | AcpAgentConfig | BuiltinAgentConfig;

export interface RunConfig {
  agents: Partial<Record<Role, AgentConfig>>;
  budgets: Budgets;
  risky: string[];
  /** Where runs' worktrees go (as written: repo-relative POSIX, or absolute). */
  worktrees: { dir: string };
  retention: Retention;
  /** Where it came from: the file, or defaults (no file). */
  source: "file" | "defaults";
}

export class RunConfigError extends NomaError {
  static override readonly errorName: string = "RunConfigError";
  constructor(readonly problems: string[]) {
    super("run-config-invalid", `invalid ${NORMA_CONFIG}:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
}

export function defaultRunConfig(): RunConfig {
  return {
    agents: { check: { type: "builtin" } },
    budgets: { max_iterations: DEFAULT_MAX_ITERATIONS },
    risky: [],
    worktrees: { dir: DEFAULT_WORKTREES_DIR },
    retention: { ...DEFAULT_RETENTION },
    source: "defaults",
  };
}

export const TOP_KEYS = ["agents", "budgets", "risky", "worktrees", "retention"];

/** A problem of `.norma/config.json` with where it is: the key path it is about (null: the file as a whole), or the position of a syntax error. */
export interface RunConfigProblem {
  path: PropertyKey[] | null;
  /** Without the file name: `key.path: expected X, found Y`. */
  message: string;
  line?: number;
  column?: number;
}

/**
 * Pure: the text of `.norma/config.json` → the configuration, or the problems (file, key path,
 * expected, found), each also with the key path it is about (`located`, for an editor).
 */
export function parseRunConfig(
  textValue: string,
  root: string,
  file = NORMA_CONFIG,
): { config: RunConfig | null; problems: string[]; located: RunConfigProblem[] } {
  const problems: string[] = [];
  const located: RunConfigProblem[] = [];
  const record = (path: PropertyKey[] | null, message: string): void => {
    problems.push(`${file}: ${message}`);
    located.push({ path, message });
  };
  const at = (path: PropertyKey[], msg: string) => record(path, `${keyPath(path)}: ${msg}`);
  /** One problem per zod issue, at the issue's key path under `base` (an unknown key: at that key). */
  const issues = (
    list: readonly { path: readonly PropertyKey[]; keys?: readonly string[]; code?: string }[],
    value: unknown,
    base: PropertyKey[],
    schema: z.ZodMiniType,
  ) => {
    for (const issue of list) {
      const [line] = describeIssues([issue as never], value, base, (p) => schemaKeysAt(schema, p));
      const key = issue.code === "unrecognized_keys" && issue.keys !== undefined && issue.keys.length > 0 ? [issue.keys[0]!] : [];
      record([...base, ...issue.path, ...key], line!);
    }
  };
  let data: unknown;
  try {
    data = JSON.parse(textValue);
  } catch {
    const e = findJsonSyntaxError(textValue);
    const message = `not valid JSON (${e?.message ?? "unparseable"})`;
    return {
      config: null,
      problems: [`${file}:${e?.line ?? 1}:${e?.column ?? 1}: ${message}`],
      located: [{ path: null, message, line: e?.line ?? 1, column: e?.column ?? 1 }],
    };
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    record(null, `expected an object with ${TOP_KEYS.join(", ")}, found ${showValue(data)}`);
    return { config: null, problems, located };
  }
  const obj = data as Record<string, unknown>;
  // `$schema`: for editors (run-config-json-schema.ts); the configuration ignores it.
  for (const k of Object.keys(obj))
    if (!TOP_KEYS.includes(k) && k !== "$schema") at([k], `unknown key${didYouMean(k, TOP_KEYS)} (known keys: ${TOP_KEYS.join(", ")})`);
  if (obj["$schema"] !== undefined && typeof obj["$schema"] !== "string")
    at(["$schema"], `expected the path or URL of a JSON Schema (a string), found ${showValue(obj["$schema"])}`);
  const config = defaultRunConfig();
  config.source = "file";

  if (obj["agents"] !== undefined) {
    const agents = obj["agents"];
    if (agents === null || typeof agents !== "object" || Array.isArray(agents))
      at(["agents"], `expected an object mapping roles (${ROLES.join(", ")}) to agents, found ${showValue(agents)}`);
    else {
      for (const [role, value] of Object.entries(agents)) {
        if (!(ROLES as readonly string[]).includes(role)) {
          at(["agents", role], `unknown role${didYouMean(role, ROLES)} (roles: ${ROLES.join(", ")})`);
          continue;
        }
        const agent = parseAgent(
          value,
          role as Role,
          root,
          (p, m) => at(["agents", role, ...p], m),
          (list, schema) => issues(list, value, ["agents", role], schema),
        );
        if (agent !== null) config.agents[role as Role] = agent;
      }
      if ((agents as Record<string, unknown>)["check"] === undefined) config.agents.check = { type: "builtin" };
    }
  }
  if (obj["budgets"] !== undefined) {
    const r = BudgetsSchema.safeParse(obj["budgets"]);
    if (!r.success) issues(r.error.issues, obj["budgets"], ["budgets"], BudgetsSchema);
    else {
      const b = r.data;
      config.budgets = { max_iterations: b.max_iterations ?? DEFAULT_MAX_ITERATIONS };
      if (b.max_patch_kb !== undefined) config.budgets.max_patch_kb = b.max_patch_kb;
      if (b.max_changed_files !== undefined) config.budgets.max_changed_files = b.max_changed_files;
      if (b.max_risky_files !== undefined) config.budgets.max_risky_files = b.max_risky_files;
      if (b.max_stalled_iterations !== undefined) config.budgets.max_stalled_iterations = b.max_stalled_iterations;
    }
  }
  if (obj["worktrees"] !== undefined) {
    const r = WorktreesSchema.safeParse(obj["worktrees"]);
    if (!r.success)
      for (const p of describeIssues(r.error.issues as never, obj["worktrees"], ["worktrees"], (p) => schemaKeysAt(WorktreesSchema, p)))
        problems.push(`${file}: ${p}`);
    else if (r.data.dir !== undefined) {
      const dir = r.data.dir.replace(/\\/g, "/").replace(/\/+$/, "");
      if (dir === "" || dir === "." || /^\.git(\/|$)/.test(dir) || dir.split("/").includes(".."))
        at(
          ["worktrees", "dir"],
          `expected a directory for the runs' worktrees (repository-relative without "..", or absolute), found ${JSON.stringify(r.data.dir)}`,
        );
      else config.worktrees = { dir };
    }
  }
  if (obj["retention"] !== undefined) {
    const r = RetentionSchema.safeParse(obj["retention"]);
    if (!r.success)
      for (const p of describeIssues(r.error.issues as never, obj["retention"], ["retention"], (p) => schemaKeysAt(RetentionSchema, p)))
        problems.push(`${file}: ${p}`);
    else config.retention = { keep_last: r.data.keep_last ?? DEFAULT_RETENTION.keep_last, keep_days: r.data.keep_days ?? DEFAULT_RETENTION.keep_days };
  }
  if (obj["risky"] !== undefined) {
    const r = obj["risky"];
    if (!Array.isArray(r) || r.some((g) => typeof g !== "string" || g.length === 0))
      at(["risky"], `expected a list of globs (non-empty strings), found ${showValue(r)}`);
    else config.risky = r as string[];
  }
  return problems.length > 0 ? { config: null, problems, located } : { config, problems, located };
}

function parseAgent(
  value: unknown,
  role: Role,
  root: string,
  at: (path: PropertyKey[], msg: string) => void,
  problem: (issues: readonly { path: readonly PropertyKey[]; keys?: readonly string[]; code?: string }[], schema: z.ZodMiniType) => void,
): AgentConfig | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    at([], `expected an agent object such as {"type": "exec", "cmd": ["./bin/agent"]}, found ${showValue(value)}`);
    return null;
  }
  const type = (value as Record<string, unknown>)["type"];
  if (typeof type !== "string" || !(AGENT_TYPES as readonly string[]).includes(type)) {
    at(["type"], `expected one of ${AGENT_TYPES.map((t) => JSON.stringify(t)).join(", ")}, found ${showValue(type)}`);
    return null;
  }
  if (type === "builtin" && role !== "check") {
    at(["type"], `"builtin" is only an agent for the check role (the built-in check); ${role} needs exec, codex, opencode, gemini, claude or acp`);
    return null;
  }
  const obj = value as Record<string, unknown>;
  if (type !== "exec" && type !== "acp" && obj["cmd"] !== undefined) {
    at(["cmd"], `not supported for ${type}: the tool's binary is fixed (use "path" for its working directory, "args" for extra arguments)`);
    return null;
  }
  const r = AGENT_SCHEMAS[type as AgentType].safeParse(value);
  if (!r.success) {
    problem(r.error.issues, AGENT_SCHEMAS[type as AgentType]);
    return null;
  }
  const agent = r.data as AgentConfig;
  if (agent.type !== "exec" && agent.type !== "acp" && agent.type !== "builtin" && agent.path !== undefined) {
    try {
      agent.path = containPath(agent.path, root, root);
    } catch (e) {
      if (e instanceof PathOutsideRepoError) at(["path"], `expected a directory inside the repository, found ${JSON.stringify(agent.path)} (outside ${root})`);
      else throw e;
      return null;
    }
  }
  return agent;
}

/** Read `.norma/config.json` (defaults when absent); RunConfigError on any problem. */
export function loadRunConfig(root: string): RunConfig {
  let textValue: string;
  try {
    // Only a regular file (never a blocking open), at most the configuration cap, UTF-8 text.
    const bytes = readRegularFileIfPresent(abs(root, NORMA_CONFIG), NORMA_CONFIG, {
      maxBytes: maxConfigBytes(),
      maxBytesHint: raiseHint(MAX_CONFIG_BYTES_ENV),
    });
    if (bytes === null) return defaultRunConfig();
    textValue = decodeText(bytes, NORMA_CONFIG);
  } catch (e) {
    if (e instanceof FileUnreadableError || e instanceof FileTooLargeError || e instanceof NotUtf8TextError) throw new RunConfigError([e.message]);
    throw e;
  }
  const { config, problems } = parseRunConfig(textValue, root);
  if (config === null) throw new RunConfigError(problems);
  return config;
}

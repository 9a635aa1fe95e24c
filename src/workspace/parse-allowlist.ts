/**
 * Pure: the text of the command allowlist (TOML, `tools/allowed_commands.toml` by
 * default) → its records, or problems naming file, line and column.
 *
 *   [[command]]
 *   argv = ["git", "diff", "--stat", "**"]   # the full argv; "**" last: any further arguments
 *   environment = ["GIT_PAGER"]              # request `environment` keys it accepts (`*` allowed)
 *   inherit = ["HOME"]                       # variables passed on from the server's environment
 *   env = { CI = "1" }                       # fixed variables
 *   timeout_seconds = 900                    # the longest timeout a request may ask (default: command-timeout.ts)
 *   description = "…"                        # for people
 *
 * `argv[0]` is a bare executable name (no `/`, `\` or `*`); every other element is an
 * argument pattern (arg-pattern.ts) matching exactly one argument. PATH, LD_* and
 * DYLD_* can be named nowhere: PATH is always the server's, without directories inside
 * the repository, and the loader variables would run code the allowlist never named.
 */
import { parse, TomlError } from "smol-toml";
import { parseArgPattern, PatternSyntaxError, type PatternPart } from "./arg-pattern.js";
import { DEFAULT_COMMAND_TIMEOUT_SECONDS, MAX_COMMAND_TIMEOUT_SECONDS } from "./command-timeout.js";

export interface AllowRecord {
  /** 0-based position among the records. */
  index: number;
  /** 1-based line of its `[[command]]` header (where to look). */
  line: number;
  /** argv as written. */
  argv: string[];
  /** One parsed pattern per argument (argv[1…], without a final "**"). */
  argPatterns: PatternPart[][];
  /** The last element was "**": any number of further arguments. */
  rest: boolean;
  /** Patterns of the request environment keys accepted. */
  environment: Array<{ text: string; parts: PatternPart[] }>;
  inherit: string[];
  env: Record<string, string>;
  timeoutSeconds: number;
  description?: string;
}

export interface Allowlist {
  file: string;
  records: AllowRecord[];
}

export interface AllowlistProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

const RECORD_KEYS = ["argv", "environment", "inherit", "env", "timeout_seconds", "description"];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_PATTERN = /^[A-Za-z0-9_*]+$/;
const BARE_NAME = /^[A-Za-z0-9._+-]+$/;

/** Names that may never be set or passed through: the PATH guarantee and the dynamic loader. */
export function isForbiddenVariable(name: string): boolean {
  const n = name.toUpperCase();
  return n === "PATH" || n.startsWith("LD_") || n.startsWith("DYLD_");
}

/** Is `name` a bare executable name (no directory part)? */
export function isBareExecutable(name: string): boolean {
  return BARE_NAME.test(name) && name !== "." && name !== "..";
}

export function formatAllowlistProblem(p: AllowlistProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

/** 1-based lines of the `[[command]]` headers, in order. */
function headerLines(text: string): number[] {
  const out: number[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) if (/^\s*\[\[\s*command\s*\]\]/.test(lines[i]!)) out.push(i + 1);
  return out;
}

const isTable = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);
const show = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : isTable(v) ? "a table" : Array.isArray(v) ? "an array" : String(v));

export function parseAllowlist(text: string, file: string): { allowlist: Allowlist; problems: AllowlistProblem[] } {
  const allowlist: Allowlist = { file, records: [] };
  const problems: AllowlistProblem[] = [];
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      const first = e.message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
      problems.push({ file, line: e.line, column: e.column, message: `not valid TOML: ${first}` });
    } else problems.push({ file, line: 1, column: 1, message: `not valid TOML: ${(e as Error).message}` });
    return { allowlist, problems };
  }
  const headers = headerLines(text);
  for (const key of Object.keys(data)) {
    if (key !== "command") problems.push({ file, line: 1, column: 1, message: `unknown top-level key "${key}": the allowlist holds [[command]] records only` });
  }
  const commands = data["command"];
  if (commands === undefined) return { allowlist, problems };
  if (!Array.isArray(commands)) {
    problems.push({ file, line: 1, column: 1, message: "command: expected [[command]] records (an array of tables)" });
    return { allowlist, problems };
  }
  commands.forEach((raw, index) => {
    const line = headers[index] ?? 1;
    const at = (message: string): void => {
      problems.push({ file, line, column: 1, message: `[[command]] #${index + 1}: ${message}` });
    };
    if (!isTable(raw)) return at(`expected a table, found ${show(raw)}`);
    for (const k of Object.keys(raw)) if (!RECORD_KEYS.includes(k)) at(`unknown key "${k}" (keys: ${RECORD_KEYS.join(", ")})`);
    const argv = raw["argv"];
    if (!Array.isArray(argv) || argv.length === 0 || argv.some((a) => typeof a !== "string"))
      return at(`argv: expected a non-empty array of strings, found ${argv === undefined ? "nothing" : show(argv)}`);
    const words = argv as string[];
    if (!isBareExecutable(words[0]!))
      return at(`argv[0] ${JSON.stringify(words[0])}: expected a bare executable name (letters, digits, . _ + -; no directory, no wildcard)`);
    const rest = words.length > 1 && words[words.length - 1] === "**";
    const argPatterns: PatternPart[][] = [];
    for (const [i, w] of words.slice(1, rest ? -1 : undefined).entries()) {
      if (w === "**") return at(`argv[${i + 1}]: "**" (any further arguments) may only be the last element`);
      try {
        argPatterns.push(parseArgPattern(w));
      } catch (e) {
        if (e instanceof PatternSyntaxError) return at(`argv[${i + 1}]: ${e.message}`);
        throw e;
      }
    }
    const record: AllowRecord = {
      index,
      line,
      argv: words,
      argPatterns,
      rest,
      environment: [],
      inherit: [],
      env: {},
      timeoutSeconds: DEFAULT_COMMAND_TIMEOUT_SECONDS,
    };
    const environment = raw["environment"];
    if (environment !== undefined) {
      if (!Array.isArray(environment) || environment.some((e) => typeof e !== "string"))
        return at(`environment: expected an array of variable names, found ${show(environment)}`);
      for (const name of environment as string[]) {
        if (!ENV_PATTERN.test(name)) return at(`environment: ${JSON.stringify(name)} is not a variable name (letters, digits, _, and * as a wildcard)`);
        const literal = name.replace(/\*/g, "");
        if (literal.length === 0)
          return at(`environment: ${JSON.stringify(name)} would accept every variable: name them (a prefix with a wildcard, like NPM_CONFIG_*, is fine)`);
        if (isForbiddenVariable(literal)) return at(`environment: ${JSON.stringify(name)} would let requests set PATH or a loader variable (LD_*, DYLD_*)`);
        record.environment.push({ text: name, parts: parseArgPattern(name) });
      }
    }
    const inherit = raw["inherit"];
    if (inherit !== undefined) {
      if (!Array.isArray(inherit) || inherit.some((e) => typeof e !== "string" || !ENV_NAME.test(e)))
        return at(`inherit: expected an array of variable names, found ${show(inherit)}`);
      const bad = (inherit as string[]).find(isForbiddenVariable);
      if (bad !== undefined) return at(`inherit: ${bad} cannot be passed through (PATH is always the server's, without directories inside the repository)`);
      record.inherit = inherit as string[];
    }
    const env = raw["env"];
    if (env !== undefined) {
      if (!isTable(env)) return at(`env: expected a table of NAME = "value", found ${show(env)}`);
      for (const [k, v] of Object.entries(env)) {
        if (!ENV_NAME.test(k) || isForbiddenVariable(k)) return at(`env: ${JSON.stringify(k)} cannot be set here`);
        if (typeof v !== "string" || v.includes("\0")) return at(`env.${k}: expected a string, found ${show(v)}`);
        record.env[k] = v;
      }
    }
    const timeout = raw["timeout_seconds"];
    if (timeout !== undefined) {
      const n = typeof timeout === "bigint" ? Number(timeout) : timeout;
      if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_COMMAND_TIMEOUT_SECONDS)
        return at(`timeout_seconds: expected a whole number of seconds from 1 to ${MAX_COMMAND_TIMEOUT_SECONDS}, found ${show(timeout)}`);
      record.timeoutSeconds = n;
    }
    const description = raw["description"];
    if (description !== undefined) {
      if (typeof description !== "string") return at(`description: expected a string, found ${show(description)}`);
      record.description = description;
    }
    allowlist.records.push(record);
  });
  return { allowlist, problems };
}

/**
 * What the argument parser (cac) leaves to us: an unknown command or flag is a usage error
 * that names the closest known one, a flag that takes a value says so when given none, and a
 * flag's value stays the string that was typed (cac turns `--actor-name 007` into the
 * number 7; the bodies convert the numeric flags themselves).
 */
import type { Command } from "cac";
import { closestName } from "../errors/did-you-mean.js";
import { UsageError } from "../errors/noma-error.js";
import { TOOL_NAME } from "../version.js";

/** `unknown command 'chekc'. Did you mean 'check'?` and where the list of commands is. */
export function unknownCommandMessage(name: string, commands: readonly string[]): string {
  const guess = closestName(name, commands);
  return `unknown command '${name}'.${guess !== undefined ? ` Did you mean '${guess}'?` : ""}\nRun \`${TOOL_NAME} --help\` for the list of commands.`;
}

/** cac's key for a flag name: `actor-name` → `actorName`. */
const camel = (flag: string): string => flag.replace(/([a-z])-([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());

/** The long flag of an option as typed in help: `--max-iterations <n>` → `--max-iterations`. */
function longFlag(o: Command["options"][number]): string {
  const flags = o.rawName.split(/[ ,]+/).filter((p) => p.startsWith("-"));
  return flags.find((f) => f.startsWith("--")) ?? flags[0] ?? o.rawName;
}

/** The flags given on the command line (after `--` nothing is a flag), with the value each took, as mri reads them. */
function givenFlags(args: readonly string[], takesValue: (flag: string) => boolean): { flag: string; value: string | undefined }[] {
  const out: { flag: string; value: string | undefined }[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") break;
    if (!a.startsWith("--") || a.length === 2) continue;
    const eq = a.indexOf("=");
    const flag = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    let value: string | undefined;
    if (eq >= 0 && eq < a.length - 1) value = a.slice(eq + 1);
    else if (takesValue(flag) && i + 1 < args.length && !args[i + 1]!.startsWith("-")) value = args[++i];
    out.push({ flag, value });
  }
  return out;
}

/**
 * Check a command line, in place: a missing argument, an unknown flag or a value-taking flag
 * without a value is a UsageError; a value cac made a number is put back as typed. `args`: the
 * command line after the program name; `positional`: the command's arguments cac parsed.
 */
export function checkOptions(cmd: Command, global: Command, options: Record<string, unknown>, args: readonly string[], positional: readonly string[]): void {
  const all = [...global.options, ...cmd.options];
  const byName = new Map<string, Command["options"][number]>();
  for (const o of all) for (const n of o.names) byName.set(n, o);
  const given = givenFlags(args, (flag) => {
    const o = byName.get(camel(flag));
    return o !== undefined && !o.isBoolean;
  });
  const command = cmd.name.split(" ")[0] ?? cmd.name;
  const missing = cmd.args.filter((a) => a.required).slice(positional.length);
  if (missing.length > 0) {
    const what = missing.map((a) => `<${a.variadic ? `${a.value}…` : a.value}>`).join(" ");
    throw new UsageError(`${command} needs ${what}: ${TOOL_NAME} ${cmd.rawName}`);
  }
  for (const key of Object.keys(options)) {
    if (key === "--" || byName.has(key)) continue;
    const typed = given.find((g) => camel(g.flag.replace(/^no-/, "")) === key)?.flag;
    const shown = typed !== undefined ? `--${typed}` : key.length === 1 ? `-${key}` : `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const guess = closestName(shown, all.map(longFlag));
    throw new UsageError(`unknown option '${shown}' for ${command}.${guess !== undefined ? ` Did you mean '${guess}'?` : ""}`);
  }
  for (const o of all) {
    if (o.isBoolean) continue;
    const value = options[o.name];
    if (value === true || (Array.isArray(value) && value.includes(true))) throw new UsageError(`${longFlag(o)} needs a value: ${o.rawName}`);
    const typed = given.filter((g) => o.names.includes(camel(g.flag))).map((g) => g.value);
    if (typed.length === 0 || typed.some((t) => t === undefined)) continue;
    if (typeof value === "number" && typed.length === 1) options[o.name] = typed[0];
    else if (Array.isArray(value) && value.length === typed.length && value.some((v) => typeof v === "number")) options[o.name] = typed;
  }
}

/**
 * Which files a shell command line would write or remove, read from its words (pure): the
 * targets of output redirections and of the commands known to write their operands — `tee`,
 * `sed -i`, `perl -i`, `ruby -i`, `awk -i inplace`, `mv`/`cp`/`install`/`ln`/`rsync` onto a
 * destination, `rm`/`unlink`/`shred`, `truncate`, `dd of=`, `sponge`, the editors (`ed`, `ex`,
 * `vim`, …), `patch`, `git checkout|restore|mv|rm|apply` — through the wrappers that only run
 * another command (`sudo`, `env`, `command`, `nice`, `timeout`, `xargs`, `find -exec`,
 * `sh -c`, `eval`, …). Variables set earlier in the same line (`f=a.noma; … "$f"`, and the
 * words of a `for f in …` loop) are substituted; what only the running shell knows stays
 * DYNAMIC, as do the files `xargs` and `find -exec` pass. An inline program (`python -c`,
 * `node -e`, …) that calls a writing function is a write to an unknown file.
 *
 * Targets keep the marks of shell-words.ts (globs, braces, a leading `~`): the caller expands
 * them against the file system it sees (agent-gate.ts). Read-only commands yield nothing.
 */
import { posix } from "node:path";
import { literalOf, MARK, type ParsedShell, parseShell, type ShellWord, type SimpleCommand } from "./shell-words.js";

export interface ShellWrite {
  /** The file as the command names it: a word's value with variables substituted (MARK characters where unknown). */
  target: string;
  /** What would write it, for messages: "sed -i", "> redirection", "mv onto it", … */
  how: string;
  /** "write": its content changes (or it is created); "remove": it goes away (rm, the source of mv). */
  effect: "write" | "remove";
  /** For `mv`/`cp`/… with a destination that may be a directory: the sources, each landing as `<target>/<its name>` then. */
  sources?: string[];
  /** For `patch` and `git apply`: the diff file whose `+++` lines name the files written (the target is then the diff file). */
  diff?: true;
  /** The simple command's text. */
  command: string;
}

/** How deep `sh -c` and `eval` strings are read. */
const MAX_NESTING = 8;

/** Commands that only run the command after their own options. */
const WRAPPERS: Record<string, string> = {
  sudo: "ugCDhprTt",
  doas: "uC",
  command: "",
  builtin: "",
  exec: "a",
  nohup: "",
  nice: "n",
  ionice: "cnpt",
  stdbuf: "ioe",
  time: "fo",
  chrt: "",
  taskset: "",
  unbuffer: "",
  caffeinate: "tw",
};

/** Words that start a compound command or a pipeline stage; what follows is a command. */
const KEYWORDS = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "fi", "done", "esac", "in", "coproc"]);

const INTERPRETERS: Record<string, string[]> = {
  python: ["-c"],
  python2: ["-c"],
  python3: ["-c"],
  node: ["-e", "--eval", "-p", "--print"],
  nodejs: ["-e", "--eval", "-p", "--print"],
  bun: ["-e", "--eval", "-p", "--print"],
  deno: ["eval"],
  php: ["-r"],
  ruby: ["-e"],
  perl: ["-e", "-E"],
};

/** A call that writes or removes a file, in the usual scripting languages. */
const WRITING_CODE = new RegExp(
  [
    "\\b(write|writeFile|writeFileSync|appendFile|appendFileSync|write_text|write_bytes|rename|renameSync|unlink|unlinkSync|rmSync",
    "|truncate|copyFile|copyFileSync|replace|move|copy|copyfile|remove|rmtree|print\\s*>|open\\s*\\([^)]*,\\s*[\"'][wax+])|>>?\\s*[\"'$]",
  ].join(""),
);

interface Context {
  vars: Map<string, string[]>;
  out: ShellWrite[];
  nesting: number;
  /** Where `cd` went, relative to where the line starts ("" there), or null once it went somewhere unknown. */
  dir: string | null;
}

/** The files `command` (one shell command line) would write or remove. */
export function shellWrites(command: string): ShellWrite[] {
  const ctx: Context = { vars: new Map(), out: [], nesting: 0, dir: "" };
  readLine(parseShell(command), ctx);
  return ctx.out;
}

function readLine(parsed: ParsedShell, ctx: Context): void {
  for (const cmd of parsed.commands) simpleCommand(cmd, ctx);
}

/** A word's value with the variables known so far substituted (one alternative per value of a `for` variable). */
function substitute(value: string, ctx: Context): string[] {
  if (!value.includes(MARK.varOpen)) return [value];
  let alternatives = [""];
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c !== MARK.varOpen) {
      alternatives = alternatives.map((a) => a + c);
      continue;
    }
    const end = value.indexOf(MARK.varClose, i);
    const name = value.slice(i + 1, end === -1 ? value.length : end);
    i = end === -1 ? value.length : end;
    const known = ctx.vars.get(name);
    if (known === undefined) alternatives = alternatives.map((a) => a + MARK.dynamic);
    else alternatives = alternatives.flatMap((a) => known.map((k) => a + k)).slice(0, 256);
  }
  return alternatives;
}

function simpleCommand(cmd: SimpleCommand, ctx: Context): void {
  const words = [...cmd.words];
  // Leading assignments: shell variables when nothing follows, the command's environment otherwise.
  let k = 0;
  const assignments: Array<[string, string[]]> = [];
  while (k < words.length) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(words[k]!.value);
    if (m === null || !words[k]!.raw.startsWith(m[0])) break;
    assignments.push([m[1]!, substitute(words[k]!.value.slice(m[0].length), ctx)]);
    k++;
  }
  for (const r of cmd.redirects) {
    const write = r.op === ">" || r.op === ">>" || r.op === ">|" || r.op === "&>" || r.op === "&>>" || r.op === "<>";
    const fileDup = r.op === ">&" && !/^(\d+|-)$/.test(literalOf(r.target.value));
    if (write || fileDup) emit(ctx, r.target.value, `${r.op} redirection`, "write", cmd.text);
  }
  if (k === words.length) {
    for (const [name, value] of assignments) ctx.vars.set(name, value);
    return;
  }
  command(words.slice(k), cmd.text, ctx);
}

function emit(ctx: Context, value: string, how: string, effect: ShellWrite["effect"], command: string, extra: Partial<ShellWrite> = {}): void {
  const sources = extra.sources?.flatMap((s) => substitute(s, ctx).map((v) => inDir(v, ctx)));
  for (const target of substitute(value, ctx))
    ctx.out.push({ target: inDir(target, ctx), how, effect, command, ...extra, ...(sources !== undefined ? { sources } : {}) });
}

/** A relative path as seen from where the line started, after the `cd`s before it. */
function inDir(value: string, ctx: Context): string {
  if (value.startsWith("/") || value.startsWith(MARK.tilde) || ctx.dir === "") return value;
  return ctx.dir === null ? `${MARK.dynamic}/${value}` : posix.join(ctx.dir, value);
}

/** `cd DIR` / `pushd DIR`: where the following commands run. */
function changeDirectory(args: readonly ShellWord[], ctx: Context): void {
  const operand = args.find((a) => !literalOf(a.value).startsWith("-") || literalOf(a.value) === "-");
  if (operand === undefined) {
    ctx.dir = MARK.tilde;
    return;
  }
  const values = substitute(operand.value, ctx);
  const v = values[0]!;
  if (values.length !== 1 || literalOf(v) === "-" || /[\uE000-\uE002\uE006\uE007]/.test(v)) ctx.dir = null;
  else if (v.startsWith("/") || v.startsWith(MARK.tilde)) ctx.dir = v;
  else ctx.dir = ctx.dir === null ? null : posix.join(ctx.dir, v) === "." ? "" : posix.join(ctx.dir, v);
}

const nameOf = (w: ShellWord | undefined): string => {
  if (w === undefined) return "";
  const lit = literalOf(w.value);
  return lit.slice(lit.lastIndexOf("/") + 1);
};

interface Options {
  /** Short option letters that take a value (attached, or the next word). */
  valued: string;
  /** Long options that take a value (`--x=v` or `--x v`). */
  longValued?: readonly string[];
  /** Options end at the first operand (POSIX; `xargs`, whose command follows its options). */
  stopAtOperand?: boolean;
}

interface ParsedArgs {
  /** Each option as written, with its value when it took one. */
  options: Array<{ name: string; value?: string }>;
  operands: string[];
  /** Where each operand is among the words. */
  operandAt: number[];
}

/** GNU-style options and operands (options may follow operands; `--` ends options). */
function parseArgs(args: readonly ShellWord[], spec: Options): ParsedArgs {
  const options: ParsedArgs["options"] = [];
  const operands: string[] = [];
  const operandAt: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    const lit = literalOf(v);
    if (lit === "--") {
      for (let j = i + 1; j < args.length; j++) {
        operands.push(args[j]!.value);
        operandAt.push(j);
      }
      break;
    }
    if (lit.startsWith("--")) {
      const eq = lit.indexOf("=");
      const name = eq === -1 ? lit : lit.slice(0, eq);
      if (eq !== -1) options.push({ name, value: v.slice(v.indexOf("=") + 1) });
      else if (spec.longValued?.includes(name) && i + 1 < args.length) options.push({ name, value: args[++i]!.value });
      else options.push({ name });
      continue;
    }
    if (lit.startsWith("-") && lit.length > 1) {
      for (let j = 1; j < lit.length; j++) {
        const letter = lit[j]!;
        if (spec.valued.includes(letter)) {
          const rest = v.slice(j + 1);
          if (rest.length > 0) options.push({ name: `-${letter}`, value: rest });
          else if (i + 1 < args.length) options.push({ name: `-${letter}`, value: args[++i]!.value });
          else options.push({ name: `-${letter}` });
          break;
        }
        options.push({ name: `-${letter}` });
      }
      continue;
    }
    operands.push(v);
    operandAt.push(i);
    if (spec.stopAtOperand === true) {
      for (let j = i + 1; j < args.length; j++) {
        operands.push(args[j]!.value);
        operandAt.push(j);
      }
      break;
    }
  }
  return { options, operands, operandAt };
}

const has = (p: ParsedArgs, ...names: string[]): boolean => p.options.some((o) => names.includes(o.name));

/** Whether a short-option cluster turns in-place editing on (`-i`, `-pi`, `-i.bak`, `-Ei`), stopping at a letter that takes a value. */
function inPlaceCluster(args: readonly ShellWord[], valued: string): boolean {
  for (const a of args) {
    const lit = literalOf(a.value);
    if (lit === "--") return false;
    if (lit === "--in-place" || lit.startsWith("--in-place=")) return true;
    if (!lit.startsWith("-") || lit.startsWith("--")) continue;
    for (let j = 1; j < lit.length; j++) {
      if (lit[j] === "i") return true;
      if (valued.includes(lit[j]!)) break;
    }
  }
  return false;
}

function command(words: ShellWord[], text: string, ctx: Context): void {
  let i = 0;
  // Keywords, wrappers and their options, `env`'s assignments: the command is what follows.
  for (;;) {
    const name = nameOf(words[i]);
    if (i >= words.length) return;
    if (KEYWORDS.has(name)) {
      i++;
      continue;
    }
    if (name === "for" || name === "select") {
      const varName = literalOf(words[i + 1]?.value ?? "");
      const inAt = words.findIndex((w, j) => j > i + 1 && literalOf(w.value) === "in");
      const values = inAt === -1 ? [MARK.dynamic] : words.slice(inAt + 1).flatMap((w) => substitute(w.value, ctx));
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(varName)) ctx.vars.set(varName, values.length > 0 ? values : [MARK.dynamic]);
      return;
    }
    if (name === "env") {
      i++;
      while (i < words.length) {
        const lit = literalOf(words[i]!.value);
        if (lit === "-u" || lit === "-C" || lit === "-S") i += 2;
        else if (lit.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(lit)) i++;
        else break;
      }
      continue;
    }
    if (name === "timeout") {
      i++;
      while (i < words.length && literalOf(words[i]!.value).startsWith("-")) i += /^-[sk]$/.test(literalOf(words[i]!.value)) ? 2 : 1;
      i++; // the duration
      continue;
    }
    const valued = WRAPPERS[name];
    if (valued !== undefined) {
      i++;
      while (i < words.length && literalOf(words[i]!.value).startsWith("-")) {
        const lit = literalOf(words[i]!.value);
        i += lit.length === 2 && valued.includes(lit[1]!) ? 2 : 1;
      }
      continue;
    }
    break;
  }
  const name = nameOf(words[i]);
  const args = words.slice(i + 1);
  writesOf(name, args, text, ctx);
}

function writesOf(name: string, args: ShellWord[], text: string, ctx: Context): void {
  const operandsOf = (spec: Options): string[] => parseArgs(args, spec).operands;
  switch (name) {
    case "cd":
    case "pushd":
      changeDirectory(args, ctx);
      return;
    case "tee":
      for (const o of operandsOf({ valued: "" })) emit(ctx, o, "tee", "write", text);
      return;
    case "sed":
    case "gsed": {
      if (!inPlaceCluster(args, "efl")) return;
      const p = parseArgs(args, { valued: "efl", longValued: ["--expression", "--file", "--line-length"] });
      const files = has(p, "-e", "-f", "--expression", "--file") ? p.operands : p.operands.slice(1);
      for (const f of files) emit(ctx, f, `${name} -i`, "write", text);
      return;
    }
    case "perl":
    case "ruby": {
      const valued = name === "perl" ? "eEIMm" : "eIrCE";
      if (!inPlaceCluster(args, `${valued}0lxF`)) {
        inlineProgram(name, args, text, ctx);
        return;
      }
      const p = parseArgs(args, { valued });
      const files = has(p, "-e", "-E") ? p.operands : p.operands.slice(1);
      for (const f of files) emit(ctx, f, `${name} -i`, "write", text);
      return;
    }
    case "awk":
    case "gawk": {
      const p = parseArgs(args, { valued: "fvFiElI", longValued: ["--include", "--file", "--assign", "--field-separator", "--load"] });
      const inPlace = p.options.some((o) => (o.name === "-i" || o.name === "--include") && literalOf(o.value ?? "") === "inplace");
      if (!inPlace) return;
      const files = has(p, "-f", "--file", "-E") ? p.operands : p.operands.slice(1);
      for (const f of files) emit(ctx, f, `${name} -i inplace`, "write", text);
      return;
    }
    case "mv":
    case "cp":
    case "install":
    case "ln":
    case "rsync":
    case "scp": {
      const p = parseArgs(args, {
        valued: name === "install" ? "tSmogZ" : name === "rsync" ? "etfB" : name === "scp" ? "cFiJloPS" : "tS",
        longValued: ["--target-directory", "--suffix", "--mode", "--owner", "--group", "--rsh", "--filter", "--exclude", "--include"],
      });
      const target = p.options.find((o) => o.name === "-t" || o.name === "--target-directory");
      if (name === "install" && has(p, "-d", "--directory")) return;
      let sources = p.operands;
      let dest: string | undefined;
      if (target?.value !== undefined && name !== "rsync" && name !== "scp") dest = target.value;
      else if (sources.length >= 2) {
        dest = sources[sources.length - 1]!;
        sources = sources.slice(0, -1);
      }
      if (dest === undefined) return;
      emit(ctx, dest, `${name} onto it`, "write", text, has(p, "-T", "--no-target-directory") ? {} : { sources });
      if (name === "mv") for (const s of sources) emit(ctx, s, "mv (moves it away)", "remove", text);
      return;
    }
    case "rm":
    case "unlink":
    case "shred":
    case "srm":
    case "trash":
      for (const o of operandsOf({ valued: name === "shred" ? "nsu" : "" })) emit(ctx, o, name, "remove", text);
      return;
    case "truncate":
      for (const o of operandsOf({ valued: "sr", longValued: ["--size", "--reference"] })) emit(ctx, o, "truncate", "write", text);
      return;
    case "dd":
      for (const a of args) if (literalOf(a.value).startsWith("of=")) emit(ctx, a.value.slice(3), "dd of=", "write", text);
      return;
    case "sponge":
      for (const o of operandsOf({ valued: "" })) emit(ctx, o, "sponge", "write", text);
      return;
    case "ed":
    case "red":
    case "ex":
    case "vi":
    case "vim":
    case "nvim":
    case "view":
    case "nano":
    case "pico":
    case "emacs":
    case "micro":
    case "joe":
    case "kak":
    case "hx":
      for (const o of operandsOf({ valued: "cSuUiTwWsp" })) if (!literalOf(o).startsWith("+")) emit(ctx, o, name, "write", text);
      return;
    case "patch": {
      const p = parseArgs(args, { valued: "oipFdrDBYzVg", longValued: ["--output", "--input", "--strip", "--directory", "--reject-file"] });
      for (const o of p.options) if ((o.name === "-o" || o.name === "--output") && o.value !== undefined) emit(ctx, o.value, "patch -o", "write", text);
      if (p.operands.length > 0) {
        emit(ctx, p.operands[0]!, "patch", "write", text);
        return;
      }
      const input = p.options.find((o) => o.name === "-i" || o.name === "--input")?.value;
      if (input !== undefined) emit(ctx, input, "patch", "write", text, { diff: true });
      else emit(ctx, MARK.dynamic, "patch (the files its diff names)", "write", text);
      return;
    }
    case "git":
      git(args, text, ctx);
      return;
    case "xargs": {
      const p = parseArgs(args, {
        valued: "ILnPsdEa",
        longValued: ["--max-lines", "--max-args", "--max-procs", "--delimiter", "--eof", "--arg-file"],
        stopAtOperand: true,
      });
      // The command starts at the first operand; the rest of the words are its arguments.
      const at = p.operandAt[0];
      if (at === undefined) return;
      const option = p.options.find((o) => o.name === "-I" || o.name === "-i" || o.name.startsWith("--replace"));
      const replace = option === undefined ? undefined : option.name === "-I" ? literalOf(option.value ?? "{}") : "{}";
      const inner = args.slice(at).map((a) => (replace !== undefined ? { raw: a.raw, value: replacing(a.value, replace) } : a));
      if (replace === undefined) inner.push({ raw: "{}", value: MARK.dynamic });
      passOn(inner, `xargs ${text}`, ctx);
      return;
    }
    case "find": {
      for (let i = 0; i < args.length; i++) {
        const lit = literalOf(args[i]!.value);
        if (lit === "-delete") emit(ctx, MARK.dynamic, "find -delete", "remove", text);
        if (lit === "-fprint" || lit === "-fprintf" || lit === "-fls" || lit === "-fprint0") {
          const file = args[i + 1];
          if (file !== undefined) emit(ctx, file.value, `find ${lit}`, "write", text);
        }
        if (lit !== "-exec" && lit !== "-execdir" && lit !== "-ok" && lit !== "-okdir") continue;
        const end = args.findIndex((a, j) => j > i && (literalOf(a.value) === ";" || literalOf(a.value) === "+"));
        const inner = args.slice(i + 1, end === -1 ? args.length : end).map((a) => ({ raw: a.raw, value: replacing(a.value, "{}") }));
        passOn(inner, `find ${lit} ${text}`, ctx);
        if (end !== -1) i = end;
      }
      return;
    }
    case "sh":
    case "bash":
    case "dash":
    case "zsh":
    case "ksh":
    case "ash":
    case "busybox": {
      const c = args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(literalOf(a.value)));
      const script = c === -1 ? undefined : args[c + 1];
      if (script !== undefined) nestedLine(literalOf(script.value), ctx);
      return;
    }
    case "eval":
      nestedLine(args.map((a) => literalOf(a.value)).join(" "), ctx);
      return;
    default:
      if (Object.hasOwn(INTERPRETERS, name)) inlineProgram(name, args, text, ctx);
  }
}

/** A word's value with `placeholder` (as written, quoted or not) standing for an unknown file. */
function replacing(value: string, placeholder: string): string {
  const marked = placeholder.replaceAll("{", MARK.braceOpen).replaceAll("}", MARK.braceClose).replaceAll(",", MARK.braceComma);
  return value.split(placeholder).join(MARK.dynamic).split(marked).join(MARK.dynamic);
}

/** A command run by another (`xargs`, `find -exec`), with the files it is given as DYNAMIC words. */
function passOn(words: ShellWord[], text: string, ctx: Context): void {
  if (words.length === 0) return;
  command(words, text, ctx);
}

function nestedLine(line: string, ctx: Context): void {
  if (ctx.nesting >= MAX_NESTING) {
    ctx.out.push({ target: MARK.dynamic, how: "a nested shell too deep to read", effect: "write", command: line });
    return;
  }
  ctx.nesting++;
  readLine(parseShell(line), ctx);
  ctx.nesting--;
}

/** `python -c`, `node -e`, …: a program that calls a writing function writes a file the hook cannot name. */
function inlineProgram(name: string, args: readonly ShellWord[], text: string, ctx: Context): void {
  const flags = INTERPRETERS[name] ?? [];
  for (let i = 0; i < args.length; i++) {
    const lit = literalOf(args[i]!.value);
    const attached = flags.find((f) => f.length === 2 && lit.startsWith(f) && lit.length > 2);
    const code = flags.includes(lit) ? args[i + 1] : attached !== undefined ? { raw: lit, value: args[i]!.value.slice(2) } : undefined;
    if (code !== undefined && WRITING_CODE.test(literalOf(code.value))) {
      ctx.out.push({ target: MARK.dynamic, how: `an inline ${name} program`, effect: "write", command: text });
      return;
    }
  }
}

function git(args: readonly ShellWord[], text: string, ctx: Context): void {
  // git's own options before the subcommand (-C dir changes where paths are: those paths stay relative here, a limit docs/agents.md names).
  let i = 0;
  while (i < args.length && literalOf(args[i]!.value).startsWith("-")) i += /^-[Cc]$/.test(literalOf(args[i]!.value)) ? 2 : 1;
  const sub = literalOf(args[i]?.value ?? "");
  const rest = args.slice(i + 1);
  switch (sub) {
    case "checkout":
    case "restore": {
      // A branch name among checkout's operands is harmless: only the paths of protected files matter.
      const dashDash = rest.findIndex((a) => literalOf(a.value) === "--");
      const paths =
        dashDash !== -1 ? rest.slice(dashDash + 1).map((a) => a.value) : parseArgs(rest, { valued: "sbB", longValued: ["--source", "--conflict"] }).operands;
      for (const o of paths) emit(ctx, o, `git ${sub}`, "write", text);
      return;
    }
    case "mv": {
      const ops = parseArgs(rest, { valued: "" }).operands;
      if (ops.length < 2) return;
      emit(ctx, ops[ops.length - 1]!, "git mv onto it", "write", text, { sources: ops.slice(0, -1) });
      for (const s of ops.slice(0, -1)) emit(ctx, s, "git mv (moves it away)", "remove", text);
      return;
    }
    case "rm": {
      const p = parseArgs(rest, { valued: "" });
      if (has(p, "--cached")) return;
      for (const o of p.operands) emit(ctx, o, "git rm", "remove", text);
      return;
    }
    case "apply": {
      const p = parseArgs(rest, { valued: "pC", longValued: ["--directory", "--exclude", "--include", "--whitespace"] });
      if (has(p, "--check", "--stat", "--numstat", "--summary") && !has(p, "--apply")) return;
      if (has(p, "--cached") && !has(p, "--index")) return;
      if (p.operands.length === 0) emit(ctx, MARK.dynamic, "git apply (the files its diff names)", "write", text);
      for (const o of p.operands) emit(ctx, o, "git apply", "write", text, { diff: true });
      return;
    }
    default:
  }
}

/**
 * A shell command line, read the way sh/bash would split it (pure, no dependency): simple
 * commands with their words and redirections, the commands inside `$(…)`, backticks and
 * `<(…)`/`>(…)` flattened into the list in the order the shell would start them, here-document
 * bodies skipped. It reads; it never expands or runs anything. What the shell would only know
 * when running stays marked in each word's `value`:
 *
 * - unquoted glob characters (`*`, `?`, `[`) and brace-expansion characters (`{`, `,`, `}`),
 *   so a quoted `'*'` stays a star;
 * - a variable (`$name`, `${name}`) by name, for the caller to resolve from assignments it saw;
 * - anything else only the running shell knows (`$(…)`, `$1`, `${x:-y}`, arithmetic) as DYNAMIC;
 * - a leading unquoted `~`.
 *
 * What it does not model, on purpose (docs/agents.md says what follows from it): aliases and
 * functions, `case` patterns (their `)` ends a command), the commands inside a here-document's
 * `$(…)`, and any syntax error (an unterminated quote ends the reading: `complete` is false,
 * and bash would refuse to run such a line anyway).
 */

/** Markers in a word's `value` (private-use characters; the raw text never holds them as such). */
export const MARK = {
  star: "\uE000",
  question: "\uE001",
  bracket: "\uE002",
  braceOpen: "\uE003",
  braceComma: "\uE004",
  braceClose: "\uE005",
  dynamic: "\uE006",
  varOpen: "\uE007",
  varClose: "\uE008",
  tilde: "\uE009",
} as const;

export interface ShellWord {
  /** The word as written. */
  raw: string;
  /** Quotes removed, escapes applied, with the MARK characters where the shell would expand. */
  value: string;
}

export interface ShellRedirect {
  /** The operator as written without its file descriptor: `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `<`, `<<`, `<<<`, `>&`, `<&`. */
  op: string;
  target: ShellWord;
}

export interface SimpleCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** The command's text as written (for messages). */
  text: string;
}

export interface ParsedShell {
  commands: SimpleCommand[];
  /** False when the text ends inside a quote or substitution (the shell would not run it). */
  complete: boolean;
}

/** How deep substitutions nest before the rest is read as one unknown word. */
const MAX_DEPTH = 16;

const BLANK = new Set([" ", "\t"]);
const OPERATOR = new Set([";", "&", "|", "(", ")", "<", ">", "\n"]);

/** What each single-character mark stands for when a word is read as text (a variable is read apart). */
const MARK_TEXT: Readonly<Record<string, string>> = {
  [MARK.star]: "*",
  [MARK.question]: "?",
  [MARK.bracket]: "[",
  [MARK.braceOpen]: "{",
  [MARK.braceComma]: ",",
  [MARK.braceClose]: "}",
  [MARK.dynamic]: "$?",
  [MARK.tilde]: "~",
};

/** The value of a word for reading it as text: each mark as the character it stands for (a variable as `$name`, the unknown as `$?`). */
export function literalOf(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === MARK.varOpen) {
      const end = value.indexOf(MARK.varClose, i);
      out += `$${value.slice(i + 1, end === -1 ? value.length : end)}`;
      i = end === -1 ? value.length : end;
    } else out += MARK_TEXT[c] ?? c;
  }
  return out;
}

/** Split `src` into simple commands. Never throws; linear in the length of `src` (substitutions nest to MAX_DEPTH). */
export function parseShell(src: string): ParsedShell {
  // The markers are private-use characters: one typed in the command stands for itself, never for a marker.
  const p = new Parser(src.replace(/[\uE000-\uE009]/g, "\uFFFD"));
  p.list(null, 0);
  return { commands: p.commands, complete: p.complete };
}

class Parser {
  i = 0;
  complete = true;
  readonly commands: SimpleCommand[] = [];
  /** Here-documents whose bodies start at the next newline: [delimiter, strip leading tabs]. */
  private pending: Array<[string, boolean]> = [];

  constructor(private readonly src: string) {}

  /** Commands until the end, or (nested) until an unmatched `stop` at command level, which is consumed. */
  list(stop: ")" | null, depth: number): void {
    const src = this.src;
    let words: ShellWord[] = [];
    let redirects: ShellRedirect[] = [];
    let start = this.i;
    /** Subshells `( … )` open inside this list: their `)` is not `stop`. */
    let open = 0;
    // Commands of this list are pushed when they end, so that those inside their substitutions come first.
    const finish = (): void => {
      if (words.length > 0 || redirects.length > 0) this.commands.push({ words, redirects, text: src.slice(start, this.i).trim() });
      words = [];
      redirects = [];
    };
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (BLANK.has(c)) {
        this.i++;
        continue;
      }
      if (c === "\\" && src[this.i + 1] === "\n") {
        this.i += 2;
        continue;
      }
      if (c === "#") {
        while (this.i < src.length && src[this.i] !== "\n") this.i++;
        continue;
      }
      if (c === "\n") {
        finish();
        this.i++;
        this.hereDocuments();
        start = this.i;
        continue;
      }
      if (c === "(") open++;
      if (stop !== null && c === stop && open === 0) {
        finish();
        this.i++;
        return;
      }
      if ((c === "<" || c === ">") && src[this.i + 1] === "(") {
        // Process substitution: its commands run; the word is a /dev/fd path.
        this.i += 2;
        this.nested(depth);
        words.push({ raw: src.slice(this.i - 2, this.i), value: MARK.dynamic });
        continue;
      }
      const redirect = this.redirectOperator();
      if (redirect !== null) {
        while (BLANK.has(src[this.i] ?? "")) this.i++;
        const target = this.word(depth);
        if (target === null) {
          this.complete = false;
          break;
        }
        if (redirect === "<<" || redirect === "<<-") this.pending.push([literalOf(target.value), redirect === "<<-"]);
        redirects.push({ op: redirect === "<<-" ? "<<" : redirect, target });
        continue;
      }
      if (OPERATOR.has(c)) {
        if (c === ")" && open > 0) open--;
        finish();
        this.i++;
        start = this.i;
        continue;
      }
      const w = this.word(depth);
      if (w === null) {
        this.complete = false;
        break;
      }
      words.push(w);
    }
    finish();
    if (stop !== null) this.complete = false;
  }

  /** A redirection operator at the cursor (with an optional file descriptor number before it), consumed; null when there is none. */
  private redirectOperator(): string | null {
    const src = this.src;
    let j = this.i;
    while (j < src.length && src[j]! >= "0" && src[j]! <= "9") j++;
    const at = src.slice(j, j + 3);
    let op: string | null = null;
    if (j === this.i && at.startsWith("&>")) op = at.startsWith("&>>") ? "&>>" : "&>";
    else if (at.startsWith(">>")) op = ">>";
    else if (at.startsWith(">|")) op = ">|";
    else if (at.startsWith(">&")) op = ">&";
    else if (at.startsWith(">")) op = ">";
    else if (at.startsWith("<<<")) op = "<<<";
    else if (at.startsWith("<<-")) op = "<<-";
    else if (at.startsWith("<<")) op = "<<";
    else if (at.startsWith("<>")) op = "<>";
    else if (at.startsWith("<&")) op = "<&";
    else if (at.startsWith("<")) op = "<";
    if (op === null) return null;
    // Digits not followed by an operator are a word (`echo 12`), read by word().
    this.i = j + op.length;
    return op;
  }

  /** Skip the bodies of the here-documents opened on the line that just ended. */
  private hereDocuments(): void {
    const src = this.src;
    for (const [delimiter, stripTabs] of this.pending) {
      while (this.i < src.length) {
        let end = src.indexOf("\n", this.i);
        if (end === -1) end = src.length;
        let line = src.slice(this.i, end);
        this.i = Math.min(end + 1, src.length);
        if (stripTabs) line = line.replace(/^\t+/, "");
        if (line === delimiter) break;
      }
    }
    this.pending = [];
  }

  /** Commands inside a substitution, up to its closing `)`. */
  private nested(depth: number): void {
    if (depth >= MAX_DEPTH) {
      this.skipBalanced();
      return;
    }
    const outerPending = this.pending;
    this.pending = [];
    this.list(")", depth + 1);
    this.pending = outerPending;
  }

  /** Past the `)` closing what starts at the cursor, counting parentheses (too deep to read). */
  private skipBalanced(): void {
    let level = 1;
    while (this.i < this.src.length && level > 0) {
      const c = this.src[this.i++]!;
      if (c === "(") level++;
      else if (c === ")") level--;
    }
    if (level > 0) this.complete = false;
  }

  /** One word at the cursor (the cursor is on a non-blank, non-operator character), or null at an unterminated quote. */
  private word(depth: number): ShellWord | null {
    const src = this.src;
    const begin = this.i;
    let value = "";
    const atStart = (): boolean => this.i === begin;
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (BLANK.has(c) || OPERATOR.has(c)) break;
      if (c === "\\") {
        const next = src[this.i + 1];
        this.i += 2;
        if (next === undefined) break;
        if (next !== "\n") value += next;
        continue;
      }
      if (c === "'") {
        const end = src.indexOf("'", this.i + 1);
        if (end === -1) return null;
        value += src.slice(this.i + 1, end);
        this.i = end + 1;
        continue;
      }
      if (c === '"') {
        const inner = this.doubleQuoted(depth);
        if (inner === null) return null;
        value += inner;
        continue;
      }
      if (c === "$") {
        if (src[this.i + 1] === "'") {
          const inner = this.ansiQuoted();
          if (inner === null) return null;
          value += inner;
          continue;
        }
        if (src[this.i + 1] === '"') {
          this.i++;
          continue; // $"…" reads as "…"
        }
        const expansion = this.dollar(depth);
        if (expansion === null) return null;
        value += expansion;
        continue;
      }
      if (c === "`") {
        if (!this.backquoted(depth)) return null;
        value += MARK.dynamic;
        continue;
      }
      if (c === "~" && atStart()) value += MARK.tilde;
      else if (c === "*") value += MARK.star;
      else if (c === "?") value += MARK.question;
      else if (c === "[") value += MARK.bracket;
      else if (c === "{") value += MARK.braceOpen;
      else if (c === ",") value += MARK.braceComma;
      else if (c === "}") value += MARK.braceClose;
      else value += c;
      this.i++;
    }
    return { raw: src.slice(begin, this.i), value };
  }

  /** `"…"` at the cursor: its text, expansions marked; null when unterminated. */
  private doubleQuoted(depth: number): string | null {
    const src = this.src;
    this.i++;
    let value = "";
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (c === '"') {
        this.i++;
        return value;
      }
      if (c === "\\") {
        const next = src[this.i + 1];
        if (next === undefined) return null;
        if (next === "$" || next === "`" || next === '"' || next === "\\") value += next;
        else if (next !== "\n") value += `\\${next}`;
        this.i += 2;
        continue;
      }
      if (c === "$") {
        const expansion = this.dollar(depth);
        if (expansion === null) return null;
        value += expansion;
        continue;
      }
      if (c === "`") {
        if (!this.backquoted(depth)) return null;
        value += MARK.dynamic;
        continue;
      }
      value += c;
      this.i++;
    }
    return null;
  }

  /** `$'…'` at the cursor (ANSI-C quoting): its text; null when unterminated. */
  private ansiQuoted(): string | null {
    const src = this.src;
    this.i += 2;
    let value = "";
    const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v" };
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (c === "'") {
        this.i++;
        return value;
      }
      if (c === "\\" && this.i + 1 < src.length) {
        const next = src[this.i + 1]!;
        value += escapes[next] ?? next;
        this.i += 2;
        continue;
      }
      value += c;
      this.i++;
    }
    return null;
  }

  /** An expansion at a `$`: a variable reference, DYNAMIC for what only the running shell knows, or a lone `$`. */
  private dollar(depth: number): string | null {
    const src = this.src;
    const next = src[this.i + 1];
    if (next === "(") {
      if (src[this.i + 2] === "(") {
        // Arithmetic: its value is unknown; `$((…))` holds no command.
        this.i += 3;
        let level = 2;
        while (this.i < src.length && level > 0) {
          const c = src[this.i++]!;
          if (c === "(") level++;
          else if (c === ")") level--;
        }
        if (level > 0) return null;
        return MARK.dynamic;
      }
      this.i += 2;
      const before = this.complete;
      this.nested(depth);
      if (!this.complete && before) return null;
      return MARK.dynamic;
    }
    if (next === "{") {
      let level = 1;
      let j = this.i + 2;
      while (j < src.length && level > 0) {
        if (src[j] === "{") level++;
        else if (src[j] === "}") level--;
        j++;
      }
      if (level > 0) return null;
      const inner = src.slice(this.i + 2, j - 1);
      this.i = j;
      return /^[A-Za-z_][A-Za-z0-9_]*$/.test(inner) ? `${MARK.varOpen}${inner}${MARK.varClose}` : MARK.dynamic;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(this.i + 1, this.i + 257));
    if (name !== null) {
      this.i += 1 + name[0].length;
      return `${MARK.varOpen}${name[0]}${MARK.varClose}`;
    }
    if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      this.i += 2;
      return MARK.dynamic;
    }
    this.i++;
    return "$";
  }

  /** `` `…` `` at the cursor: its commands read (with `\`` unescaped); false when unterminated. */
  private backquoted(depth: number): boolean {
    const src = this.src;
    let j = this.i + 1;
    let inner = "";
    while (j < src.length && src[j] !== "`") {
      if (src[j] === "\\" && j + 1 < src.length) {
        const next = src[j + 1]!;
        inner += next === "`" || next === "\\" || next === "$" ? next : `\\${next}`;
        j += 2;
        continue;
      }
      inner += src[j];
      j++;
    }
    if (j >= src.length) return false;
    this.i = j + 1;
    if (depth < MAX_DEPTH) {
      const sub = new Parser(inner);
      sub.list(null, depth + 1);
      this.commands.push(...sub.commands);
    }
    return true;
  }
}

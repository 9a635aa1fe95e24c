/**
 * Pure: the lines of a text that a search matches, line by line (grep's and rg's
 * semantics: a match never spans a line break), with N lines of context around each —
 * the core of search_text. One regular-expression pass over the whole text finds
 * candidate positions; each candidate's line is then matched alone, so a pattern that
 * could cross a line break (`a\sb`) is judged within the line, as a line tool does.
 */

export interface LineMatch {
  /** 1-based line number. */
  line: number;
  /** 1-based column (UTF-16 code units) of the first match in the line. */
  column: number;
  /** The line without its line break (`\r\n` or `\n`), cut at MAX_LINE_CHARS. */
  text: string;
  /** Up to N lines before and after (context), without line breaks. */
  before?: string[];
  after?: string[];
}

export const MAX_LINE_CHARS = 1000;

export interface Matcher {
  /** Global, for the pass over the whole text. */
  all: RegExp;
  /** Not global, for one line. */
  one: RegExp;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** A matcher for a pattern: a regular expression (JavaScript syntax), or a literal string; throws SyntaxError for a bad expression. */
export function makeMatcher(pattern: string, options: { literal?: boolean; caseSensitive?: boolean } = {}): Matcher {
  const source = options.literal === true ? escapeRegExp(pattern) : pattern;
  const flags = options.caseSensitive === false ? "i" : "";
  return { all: new RegExp(source, `g${flags}m`), one: new RegExp(source, `${flags}m`) };
}

const LITERAL = /^[A-Za-z0-9_ \-:;,'"=<>/@#%&~!`]$/;
const ESCAPED_LITERAL = /^[.*+?^${}()|[\]\\/\-:;,'"=<>@#%&~!` ]$/;

/**
 * A text every match of the regular expression `pattern` contains (ASCII, at least 3
 * characters), or null when none can be told: the longest run of plain characters outside
 * any group, class or alternation, none of them made optional by a quantifier. A file
 * whose bytes lack it cannot match, so it need not be decoded (search_text's prefilter).
 * Conservative: anything it does not understand ends the run.
 */
export function requiredLiteral(pattern: string): string | null {
  const runs: string[] = [];
  let run = "";
  const end = (): void => {
    if (run.length > 0) runs.push(run);
    run = "";
  };
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (inClass) {
      if (ch === "\\") i++;
      else if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "|" && depth === 0) return null; // an alternation: no text is required
    if (ch === "(") {
      depth++;
      end();
      continue;
    }
    if (ch === ")") {
      depth = Math.max(0, depth - 1);
      end();
      continue;
    }
    if (depth > 0) continue;
    if (ch === "[") {
      inClass = true;
      end();
      continue;
    }
    const braces = ch === "{" ? /^\{\d+(,\d*)?\}/.exec(pattern.slice(i)) : null;
    if (braces !== null) {
      // A quantifier ({2}, {0,2}): its digits are not text.
      i += braces[0].length - 1;
      end();
      continue;
    }
    let lit: string | null = null;
    if (ch === "\\") {
      const next = pattern[i + 1] ?? "";
      i++;
      if (ESCAPED_LITERAL.test(next)) lit = next;
      else i = escapeEnd(pattern, i);
    } else if (LITERAL.test(ch)) lit = ch;
    const q = pattern[i + 1];
    if (lit === null) {
      end();
      continue;
    }
    if (q === "?" || q === "*" || q === "{") {
      end(); // the character may be absent (or repeated in ways not followed here)
      continue;
    }
    run += lit;
    if (q === "+") end(); // required once; what follows may not be adjacent
  }
  end();
  const best = runs.reduce((a, b) => (b.length > a.length ? b : a), "");
  return best.length >= 3 ? best : null;
}

/** Where an escape's arguments end (`i` is at the letter after the backslash): \\x41, \\u0041, \\u{41}, \\cA, \\p{L}, \\k<n>, \\12. */
function escapeEnd(pattern: string, i: number): number {
  const c = pattern[i];
  const close = (ch: string): number => {
    const at = pattern.indexOf(ch, i);
    return at === -1 ? pattern.length : at;
  };
  if (c === "x") return i + 2;
  if (c === "u") return pattern[i + 1] === "{" ? close("}") : i + 4;
  if (c === "c") return i + 1;
  if ((c === "p" || c === "P") && pattern[i + 1] === "{") return close("}");
  if (c === "k" && pattern[i + 1] === "<") return close(">");
  let j = i;
  while (/[0-9]/.test(pattern[j + 1] ?? "") && /[0-9]/.test(c ?? "")) j++;
  return j;
}

const cut = (s: string): string => (s.length > MAX_LINE_CHARS ? `${s.slice(0, MAX_LINE_CHARS)}…` : s);
const stripCr = (s: string): string => (s.endsWith("\r") ? s.slice(0, -1) : s);

/** The matching lines of `text`, at most `max`, each with `context` lines around it. */
export function matchLines(text: string, m: Matcher, max: number, context = 0): LineMatch[] {
  const out: LineMatch[] = [];
  if (max <= 0) return out;
  // Line starts, counted lazily up to each match.
  let counted = 0; // text index up to which lines were counted
  let lineNo = 1;
  const re = m.all;
  re.lastIndex = 0;
  let found: RegExpExecArray | null;
  while ((found = re.exec(text)) !== null) {
    const start = found.index === 0 ? 0 : text.lastIndexOf("\n", found.index - 1) + 1;
    let end = text.indexOf("\n", found.index);
    if (end === -1) end = text.length;
    for (let i = text.indexOf("\n", counted); i !== -1 && i < start; i = text.indexOf("\n", i + 1)) lineNo++;
    counted = start;
    const line = stripCr(text.slice(start, end));
    m.one.lastIndex = 0;
    const own = m.one.exec(line);
    if (own !== null) {
      out.push({ line: lineNo, column: own.index + 1, text: cut(line) });
      if (out.length >= max) break;
    }
    if (end >= text.length) break;
    re.lastIndex = end + 1;
  }
  if (context > 0 && out.length > 0) addContext(text, out, context);
  return out;
}

function addContext(text: string, matches: LineMatch[], n: number): void {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "" && text.endsWith("\n")) lines.pop();
  for (const mt of matches) {
    const i = mt.line - 1;
    mt.before = lines.slice(Math.max(0, i - n), i).map((l) => cut(stripCr(l)));
    mt.after = lines.slice(i + 1, i + 1 + n).map((l) => cut(stripCr(l)));
  }
}

/** grep's text: `path:line:text` for matches, `path-line-text` for context, `--` between groups that do not touch. */
export function formatMatches(path: string, matches: readonly LineMatch[]): string[] {
  const lines = new Map<number, { text: string; match: boolean }>();
  for (const mt of matches) {
    (mt.before ?? []).forEach((text, k) => {
      const no = mt.line - (mt.before?.length ?? 0) + k;
      if (!lines.has(no)) lines.set(no, { text, match: false });
    });
    lines.set(mt.line, { text: mt.text, match: true });
    (mt.after ?? []).forEach((text, k) => {
      const no = mt.line + 1 + k;
      if (!lines.has(no)) lines.set(no, { text, match: false });
    });
  }
  const out: string[] = [];
  let last = 0;
  for (const no of [...lines.keys()].sort((a, b) => a - b)) {
    const l = lines.get(no)!;
    if (last > 0 && no > last + 1) out.push("--");
    out.push(`${path}${l.match ? ":" : "-"}${no}${l.match ? ":" : "-"}${l.text}`);
    last = no;
  }
  return out;
}

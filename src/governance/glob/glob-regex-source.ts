/**
 * The regular expression a glob means: the source text picomatch 4.0.7's `makeRe(glob,
 * { dot: true, windows: false })` builds (picomatch is MIT-licensed, © Jon Schlinkert;
 * this is its parser for our one set of options), so every glob keeps the answers it had
 * when we called picomatch. test/governance/glob/glob-regex-source.test.ts compares the text with
 * picomatch's on generated globs.
 *
 * Why not call picomatch: its parser takes time quadratic or cubic in the glob on some
 * inputs (nested extglobs, unclosed brackets, runs of `**`, long alternations), so one
 * committed glob of a few kilobytes stalls every command. Here every step is linear in the
 * glob: no re-scan of the rest of the input per character, no repeated search from the end
 * of the output, the extglob analysis in one pass. The text is then matched by the linear
 * matcher (linear-matcher.ts), never by a backtracking engine.
 */

const DOT_LITERAL = "\\.";
const PLUS_LITERAL = "\\+";
const SLASH_LITERAL = "\\/";
const ONE_CHAR = "(?=.)";
const QMARK = "[^/]";
const END_ANCHOR = `(?:${SLASH_LITERAL}|$)`;
const START_ANCHOR = `(?:^|${SLASH_LITERAL})`;
const DOTS_SLASH = `${DOT_LITERAL}{1,2}${END_ANCHOR}`;
const NO_DOTS = `(?!${START_ANCHOR}${DOTS_SLASH})`;
const NO_DOT_SLASH = `(?!${DOT_LITERAL}{0,1}${END_ANCHOR})`;
const NO_DOTS_SLASH = `(?!${DOTS_SLASH})`;
const STAR = `${QMARK}*?`;
const GLOBSTAR = `(?:(?:(?!${START_ANCHOR}${DOTS_SLASH}).)*?)`;

const MAX_LENGTH = 1024 * 64;

const POSIX_REGEX_SOURCE: Record<string, string> = {
  __proto__: null as unknown as string,
  alnum: "a-zA-Z0-9",
  alpha: "a-zA-Z",
  ascii: "\\x00-\\x7F",
  blank: " \\t",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "\\x21-\\x7E",
  lower: "a-z",
  print: "\\x20-\\x7E ",
  punct: "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
  space: " \\t\\r\\n\\v\\f",
  upper: "A-Z",
  word: "A-Za-z0-9_",
  xdigit: "A-Fa-f0-9",
};

const REPLACEMENTS: Record<string, string> = { __proto__: null as unknown as string, "***": "*", "**/**": "**", "**/**/**": "**" };

const SPECIAL = new Set(["-", "*", "+", "?", ".", "^", "$", "{", "}", "(", "|", ")", "[", "]"]);
const escapeRegex = (s: string): string => {
  let out = "";
  for (const ch of s) out += SPECIAL.has(ch) ? `\\${ch}` : ch;
  return out;
};
const hasRegexChars = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) if (SPECIAL.has(s[i]!)) return true;
  return false;
};
/** JavaScript's `\w` on one UTF-16 unit. */
const isWordUnit = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** `.` in a non-unicode JavaScript regular expression: anything but a line terminator. */
const isLineTerminator = (ch: string): boolean => ch === "\n" || ch === "\r" || ch === "\u2028" || ch === "\u2029";
/** String.prototype.trim's whitespace. */
const trim = (s: string): string => s.trim();

interface Token {
  type: string;
  value: string;
  output?: string;
  prev?: Token;
  star?: boolean;
  posix?: boolean;
  extglob?: boolean;
  comma?: boolean;
  dots?: boolean;
  outputIndex?: number;
  tokensIndex?: number;
  /** Bracket tokens: indexes (≥ 1) of `[` and of `:` in `value`, kept as `value` grows (the POSIX-class test in O(1)). */
  opens?: number[];
  colons?: number[];
}

interface Extglob {
  type: string;
  open: string;
  close: string;
  inner: string;
  prev: Token;
  parens: number;
  /** The output's length at the open (picomatch keeps the text; only its length is ever read). */
  outputLength: number;
  startIndex: number;
  tokensIndex: number;
}

const EXTGLOB_CHARS: Record<string, { type: string; open: string; close: string }> = {
  "!": { type: "negate", open: "(?:(?!(?:", close: `))${STAR})` },
  "?": { type: "qmark", open: "(?:", close: ")?" },
  "+": { type: "plus", open: "(?:", close: ")+" },
  "*": { type: "star", open: "(?:", close: ")*" },
  "@": { type: "at", open: "(?:", close: ")" },
};

export interface GlobRegexSource {
  /** The regular expression's source (flags: none). */
  source: string;
}

/** The source of the regular expression picomatch builds for `glob` (dot: true, POSIX). `glob` must not be empty. */
export function globRegexSource(glob: string): string {
  let parsed: { output: string | undefined; negated: boolean };
  parsed = { output: undefined, negated: false };
  if (glob[0] === "." || glob[0] === "*") parsed.output = fastpaths(glob);
  if (!parsed.output) parsed = parse(glob, true);
  let source = `^(?:${parsed.output})$`;
  if (parsed.negated) source = `^(?!${source}).*$`;
  return source;
}

// ---------------------------------------------------------------------------------------------
// The extglob analysis (a `*(…)` or `+(…)` whose body could backtrack is rewritten as picomatch
// does), each helper linear in its input.

/** The top-level `|` branches of an extglob body (brackets, quotes, escapes and nested parens respected). */
function splitTopLevel(input: string): string[] {
  const parts: string[] = [];
  let bracket = 0;
  let paren = 0;
  let quote = 0;
  let start = 0;
  let escaped = false;
  let i = 0;
  for (const ch of input) {
    const at = i;
    i += ch.length;
    if (escaped) {
      escaped = false;
      continue;
    }
    if (ch === "\\") {
      escaped = true;
      continue;
    }
    if (ch === '"') {
      quote = quote === 1 ? 0 : 1;
      continue;
    }
    if (quote === 0) {
      if (ch === "[") bracket++;
      else if (ch === "]" && bracket > 0) bracket--;
      else if (bracket === 0) {
        if (ch === "(") paren++;
        else if (ch === ")" && paren > 0) paren--;
        else if (ch === "|" && paren === 0) {
          parts.push(input.slice(start, at));
          start = i;
        }
      }
    }
  }
  parts.push(input.slice(start));
  return parts;
}

const PLAIN_BRANCH_SPECIAL = new Set(["?", "*", "+", "@", "!", "(", ")", "[", "]", "{", "}"]);

function isPlainBranch(branch: string): boolean {
  let escaped = false;
  for (const ch of branch) {
    if (escaped) {
      escaped = false;
      continue;
    }
    if (ch === "\\") {
      escaped = true;
      continue;
    }
    if (PLAIN_BRANCH_SPECIAL.has(ch)) return false;
  }
  return true;
}

const AT_SIMPLE_FORBIDDEN = new Set(["\\", "(", ")", "[", "]", "{", "}", "|"]);

/** `/^@\([^\\()[\]{}|]+\)$/`: the line terminators included, since a negated class takes them. */
function isSimpleAt(value: string): boolean {
  if (value.length < 4 || value[0] !== "@" || value[1] !== "(" || value[value.length - 1] !== ")") return false;
  for (let i = 2; i < value.length - 1; i++) if (AT_SIMPLE_FORBIDDEN.has(value[i]!)) return false;
  return true;
}

function normalizeSimpleBranch(branch: string): string | undefined {
  let value = trim(branch);
  // picomatch loops while the test holds; after one strip the value holds no parenthesis.
  if (isSimpleAt(value)) value = value.slice(2, -1);
  if (!isPlainBranch(value)) return undefined;
  // value.replace(/\\(.)/g, "$1"): `.` takes no line terminator.
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === "\\" && i + 1 < value.length && !isLineTerminator(value[i + 1]!)) {
      out += value[i + 1];
      i++;
    } else out += ch;
  }
  return out;
}

/** Two branches that are runs of one same character (each a prefix of the other). */
function hasRepeatedCharPrefixOverlap(branches: readonly string[]): boolean {
  const seen = new Set<string>();
  for (const b of branches) {
    const v = normalizeSimpleBranch(b);
    if (!v) continue;
    const ch = v[0]!;
    let same = true;
    for (let i = 1; i < v.length && same; i++) same = v[i] === ch;
    if (!same) continue;
    if (seen.has(ch)) return true;
    seen.add(ch);
  }
  return false;
}

/** picomatch's parseRepeatedExtglob: a `*(` or `+(` at `from` in `pattern`, its body and the index of its `)`. */
function parseRepeatedExtglob(pattern: string, from: number, requireEnd: boolean): { type: string; body: string; end: number } | undefined {
  const first = pattern[from];
  if ((first !== "+" && first !== "*") || pattern[from + 1] !== "(") return undefined;
  let bracket = 0;
  let paren = 0;
  let quote = 0;
  let escaped = false;
  for (let i = from + 1; i < pattern.length; i++) {
    const ch = pattern[i];
    if (escaped) {
      escaped = false;
      continue;
    }
    if (ch === "\\") {
      escaped = true;
      continue;
    }
    if (ch === '"') {
      quote = quote === 1 ? 0 : 1;
      continue;
    }
    if (quote === 1) continue;
    if (ch === "[") {
      bracket++;
      continue;
    }
    if (ch === "]" && bracket > 0) {
      bracket--;
      continue;
    }
    if (bracket > 0) continue;
    if (ch === "(") {
      paren++;
      continue;
    }
    if (ch === ")") {
      paren--;
      if (paren === 0) {
        if (requireEnd && i !== pattern.length - 1) return undefined;
        return { type: first, body: pattern.slice(from + 2, i), end: i - from };
      }
    }
  }
  return undefined;
}

function getStarExtglobSequenceChars(pattern: string): string[] | undefined {
  let index = 0;
  const chars: string[] = [];
  while (index < pattern.length) {
    const match = parseRepeatedExtglob(pattern, index, false);
    if (match?.type !== "*") return undefined;
    const branches = splitTopLevel(match.body).map(trim);
    if (branches.length !== 1) return undefined;
    const branch = normalizeSimpleBranch(branches[0]!);
    if (branch?.length !== 1) return undefined;
    chars.push(branch);
    index += match.end + 1;
  }
  if (chars.length < 1) return undefined;
  return chars;
}

function buildCharClassStar(chars: readonly string[]): string {
  const source = chars.length === 1 ? escapeRegex(chars[0]!) : `[${chars.map(escapeRegex).join("")}]`;
  return `${source}*`;
}

/** picomatch's analyzeRepeatedExtglob with its default (no repeated extglob nested in a repeated one). */
function analyzeRepeatedExtglob(body: string): { risky: boolean; safeOutput?: string } {
  const branches = splitTopLevel(body).map(trim);
  if (branches.length > 1) {
    if (branches.some((b) => b === "") || branches.some((b) => /^[*?]+$/.test(b)) || hasRepeatedCharPrefixOverlap(branches)) return { risky: true };
  }
  const safeChars: string[] = [];
  let sawStarSequence = false;
  let combinable = true;
  for (const branch of branches) {
    const chars = getStarExtglobSequenceChars(branch);
    if (chars) {
      sawStarSequence = true;
      safeChars.push(...chars);
      continue;
    }
    const literal = normalizeSimpleBranch(branch);
    if (literal && literal.length === 1) {
      safeChars.push(literal);
      continue;
    }
    combinable = false;
    // repeatedExtglobRecursion(branch) > 0: the trimmed branch is itself one `*(…)` / `+(…)`.
    if (parseRepeatedExtglob(trim(branch), 0, true)) return { risky: true };
  }
  if (sawStarSequence) return combinable ? { risky: true, safeOutput: buildCharClassStar([...new Set(safeChars)]) } : { risky: true };
  return { risky: false };
}

// ---------------------------------------------------------------------------------------------

function expandRange(args: string[]): string {
  args.sort();
  const value = `[${args.join("-")}]`;
  try {
    new RegExp(value);
  } catch {
    return args.map(escapeRegex).join("..");
  }
  return value;
}

/** picomatch's parse.fastpaths for our options: a few common shapes, or undefined. */
function fastpaths(input0: string): string | undefined {
  if (input0.length > MAX_LENGTH) throw new SyntaxError(`Input length: ${input0.length}, exceeds maximum allowed length: ${MAX_LENGTH}`);
  let input = REPLACEMENTS[input0] || input0;
  if (input.startsWith("./")) input = input.slice(2);
  const create = (str0: string): string | undefined => {
    // picomatch recurses through /^(.*?)\.(\w+)$/ one suffix at a time; the same, from the end.
    let str = str0;
    let suffix = "";
    for (;;) {
      const base = createBase(str);
      if (base !== undefined) return base + suffix;
      const dot = str.lastIndexOf(".");
      if (dot < 0 || dot === str.length - 1) return undefined;
      for (let i = dot + 1; i < str.length; i++) if (!isWordUnit(str.charCodeAt(i))) return undefined;
      for (let i = 0; i < dot; i++) if (isLineTerminator(str[i]!)) return undefined;
      suffix = DOT_LITERAL + str.slice(dot + 1) + suffix;
      str = str.slice(0, dot);
    }
  };
  let source = create(input);
  if (source) source += `${SLASH_LITERAL}?`;
  return source;
}

function createBase(str: string): string | undefined {
  switch (str) {
    case "*":
      return `${NO_DOTS}${ONE_CHAR}${STAR}`;
    case ".*":
      return `${DOT_LITERAL}${ONE_CHAR}${STAR}`;
    case "*.*":
      return `${NO_DOTS}${STAR}${DOT_LITERAL}${ONE_CHAR}${STAR}`;
    case "*/*":
      return `${NO_DOTS}${STAR}${SLASH_LITERAL}${ONE_CHAR}${NO_DOTS_SLASH}${STAR}`;
    case "**":
      return NO_DOTS + GLOBSTAR;
    case "**/*":
      return `(?:${NO_DOTS}${GLOBSTAR}${SLASH_LITERAL})?${NO_DOTS_SLASH}${ONE_CHAR}${STAR}`;
    case "**/*.*":
      return `(?:${NO_DOTS}${GLOBSTAR}${SLASH_LITERAL})?${NO_DOTS_SLASH}${STAR}${DOT_LITERAL}${ONE_CHAR}${STAR}`;
    case "**/.*":
      return `(?:${NO_DOTS}${GLOBSTAR}${SLASH_LITERAL})?${DOT_LITERAL}${ONE_CHAR}${STAR}`;
    default:
      return undefined;
  }
}

/** picomatch's simple-pattern path: no `/ ( ) [ ] { } "`, not starting with `*` or `!`. */
function simplePattern(input: string): string {
  let out = "";
  let backslashes = false;
  let i = 0;
  const n = input.length;
  // input.replace(/(\\?)((\W)(\3*))/g, …)
  while (i < n) {
    const c = input.charCodeAt(i);
    let esc = "";
    let at = i;
    if (c === 92 && i + 1 < n && !isWordUnit(input.charCodeAt(i + 1))) {
      esc = "\\";
      at = i + 1;
    } else if (isWordUnit(c)) {
      out += input[i];
      i++;
      continue;
    }
    const first = input[at]!;
    let end = at + 1;
    while (end < n && input[end] === first) end++;
    const chars = input.slice(at, end);
    const rest = chars.slice(1);
    const m = esc + chars;
    const index = i;
    i = end;
    if (first === "\\") {
      backslashes = true;
      out += m;
    } else if (first === "?") {
      if (esc) out += esc + first + (rest ? QMARK.repeat(rest.length) : "");
      else if (index === 0) out += QMARK + (rest ? QMARK.repeat(rest.length) : "");
      else out += QMARK.repeat(chars.length);
    } else if (first === ".") out += DOT_LITERAL.repeat(chars.length);
    else if (first === "*") out += esc ? esc + first + (rest ? STAR : "") : STAR;
    else out += esc ? m : `\\${m}`;
  }
  if (backslashes) {
    // output.replace(/\\+/g, m => m.length % 2 === 0 ? "\\\\" : "\\")
    let collapsed = "";
    for (let j = 0; j < out.length; ) {
      if (out[j] !== "\\") {
        collapsed += out[j];
        j++;
        continue;
      }
      let k = j;
      while (k < out.length && out[k] === "\\") k++;
      collapsed += (k - j) % 2 === 0 ? "\\\\" : "\\";
      j = k;
    }
    out = collapsed;
  }
  return `^(?:${out})$`;
}

/** REGEX_NON_SPECIAL_CHARS: `[^@![\].,$*+?^{}()|\\/]`. */
const NON_SPECIAL_STOP = new Set(["@", "!", "[", "]", ".", ",", "$", "*", "+", "?", "^", "{", "}", "(", ")", "|", "\\", "/"]);

/**
 * picomatch's parse for our options. `fast`: whether its simple-pattern path may be taken
 * (false when it parses the tail of a negated extglob).
 */
function parse(input0: string, fast: boolean): { output: string; negated: boolean } {
  let input = REPLACEMENTS[input0] || input0;
  if (input.length > MAX_LENGTH) throw new SyntaxError(`Input length: ${input.length}, exceeds maximum allowed length: ${MAX_LENGTH}`);
  const bos: Token = { type: "bos", value: "", output: "" };
  const tokens: Token[] = [bos];
  const output = new Output();
  const state = {
    index: -1,
    start: 0,
    backtrack: false,
    negated: false,
    brackets: 0,
    braces: 0,
    parens: 0,
    quotes: 0,
  };
  if (input.startsWith("./")) input = input.slice(2);
  const len = input.length;

  if (fast && !/(^[*!]|[/()[\]{}"])/.test(input)) return { output: simplePattern(input), negated: false };

  // Tables replacing picomatch's searches of the rest of the input (each one linear once).
  let lastClose = -1; // last index of "]"
  for (let i = len - 1; i >= 0; i--)
    if (input[i] === "]") {
      lastClose = i;
      break;
    }
  const parensToEnd = new Uint8Array(len + 1); // whether input[i..] is one or more ")" only
  {
    let all = true;
    for (let i = len - 1; i >= 0; i--) {
      all = all && input[i] === ")";
      parensToEnd[i] = all ? 1 : 0;
    }
  }
  const dotTailFrom = new Uint8Array(len + 1); // whether input[i..] matches /^\.[^\\/.]+$/
  {
    let clean = true; // input[i+1..] holds none of \ / . (and is not empty)
    for (let i = len - 1; i >= 0; i--) {
      const ch = input[i];
      dotTailFrom[i] = ch === "." && i + 1 < len && clean ? 1 : 0;
      clean = clean && ch !== "\\" && ch !== "/" && ch !== ".";
    }
  }
  let lessThanFrom: Uint8Array | undefined; // whether /<([!=]|\w+>)/ matches in input[i..], computed when first asked
  const lessThanGroupFollows = (from: number): boolean => {
    if (lessThanFrom === undefined) {
      lessThanFrom = new Uint8Array(len + 1);
      let wordEnd = len; // the end of the run of \w starting at i + 1
      for (let i = len - 1; i >= 0; i--) {
        if (i + 1 < len && !isWordUnit(input.charCodeAt(i + 1))) wordEnd = i + 1;
        const c = input[i + 1];
        const here = input[i] === "<" && (c === "!" || c === "=" || (wordEnd > i + 1 && input[wordEnd] === ">"));
        lessThanFrom[i] = here || lessThanFrom[i + 1] === 1 ? 1 : 0;
      }
    }
    return lessThanFrom[from] === 1;
  };

  const extglobs: Extglob[] = [];
  let openNegates = 0; // extglobs.filter((e) => e.type === "negate").length
  const braces: Token[] = [];
  const stack: string[] = [];
  let prev: Token = bos;
  let value: string;

  // picomatch tests `=== len - 1` and never ends on a glob ending in four or more backslashes (its run skip steps past the end).
  const eos = (): boolean => state.index >= len - 1;
  const peek = (n = 1): string | undefined => input[state.index + n];
  const advance = (): string => input[++state.index] || "";
  const append = (token: { value: string; output?: string }): void => {
    output.append(token.output != null ? token.output : token.value);
  };
  const negate = (): boolean => {
    let count = 1;
    while (peek() === "!" && (peek(2) !== "(" || peek(3) === "?")) {
      advance();
      state.start++;
      count++;
    }
    if (count % 2 === 0) return false;
    state.negated = true;
    state.start++;
    return true;
  };
  const increment = (type: "parens" | "brackets" | "braces"): void => {
    state[type]++;
    stack.push(type);
  };
  const decrement = (type: "parens" | "brackets" | "braces"): void => {
    state[type]--;
    stack.pop();
  };
  const push = (tok: Token): void => {
    if (prev.type === "globstar") {
      const isBrace = state.braces > 0 && (tok.type === "comma" || tok.type === "brace");
      const isExtglob = tok.extglob === true || (extglobs.length > 0 && (tok.type === "pipe" || tok.type === "paren"));
      if (tok.type !== "slash" && tok.type !== "paren" && !isBrace && !isExtglob) {
        output.dropLast(prev.output!.length);
        prev.type = "star";
        prev.value = "*";
        prev.output = STAR;
        output.append(prev.output);
      }
    }
    if (extglobs.length > 0 && tok.type !== "paren") extglobs[extglobs.length - 1]!.inner += tok.value;
    if (tok.value || tok.output) append(tok);
    if (prev && prev.type === "text" && tok.type === "text") {
      prev.output = (prev.output || prev.value) + tok.value;
      prev.value += tok.value;
      return;
    }
    tok.prev = prev;
    tokens.push(tok);
    prev = tok;
  };
  const extglobOpen = (type: string, value: string): void => {
    const token: Extglob = {
      ...EXTGLOB_CHARS[value]!,
      inner: "",
      prev,
      parens: state.parens,
      outputLength: output.length,
      startIndex: state.index,
      tokensIndex: tokens.length,
    };
    increment("parens");
    push({ type, value, output: output.length > 0 ? "" : ONE_CHAR });
    push({ type: "paren", extglob: true, value: advance(), output: token.open });
    extglobs.push(token);
    if (token.type === "negate") openNegates++;
  };
  const extglobClose = (token: Extglob): void => {
    if (token.type === "negate") openNegates--;
    const literal = input.slice(token.startIndex, state.index + 1);
    const body = input.slice(token.startIndex + 2, state.index);
    if (token.type === "plus" || token.type === "star") {
      const analysis = analyzeRepeatedExtglob(body);
      if (analysis.risky) {
        const safeOutput = analysis.safeOutput ? (token.outputLength > 0 ? "" : ONE_CHAR) + analysis.safeOutput : undefined;
        const open = tokens[token.tokensIndex]!;
        open.type = "text";
        open.value = literal;
        open.output = safeOutput || escapeRegex(literal);
        for (let i = token.tokensIndex + 1; i < tokens.length; i++) {
          tokens[i]!.value = "";
          tokens[i]!.output = "";
        }
        // picomatch sets the output to its value at the open plus this; once backtracking, only its length is read.
        output.resize(token.outputLength);
        output.append(open.output);
        state.backtrack = true;
        push({ type: "paren", extglob: true, value: value, output: "" });
        decrement("parens");
        return;
      }
    }
    let close = token.close;
    if (token.type === "negate") {
      let extglobStar = STAR;
      if (token.inner && token.inner.length > 1 && token.inner.includes("/")) extglobStar = GLOBSTAR;
      if (extglobStar !== STAR || eos() || parensToEnd[state.index + 1] === 1) close = token.close = `)$))${extglobStar}`;
      if (token.inner.includes("*") && state.index + 1 < len && dotTailFrom[state.index + 1] === 1) {
        const rest = input.slice(state.index + 1);
        const expression = parse(rest, false).output;
        close = token.close = `)${expression})${extglobStar})`;
      }
    }
    push({ type: "paren", extglob: true, value: value, output: close });
    decrement("parens");
  };
  /** Append to a bracket token's value, keeping its `[` and `:` indexes. */
  const bracketAppend = (tok: Token, s: string): void => {
    const base = tok.value.length;
    for (let i = 0; i < s.length; i++) {
      const at = base + i;
      if (at < 1) continue;
      if (s[i] === "[") tok.opens!.push(at);
      else if (s[i] === ":") tok.colons!.push(at);
    }
    tok.value += s;
  };

  while (!eos()) {
    value = advance();
    if (value === "\u0000") continue;

    if (value === "\\") {
      const next = peek();
      if (next === "/") continue;
      if (next === "." || next === ";") continue;
      if (!next) {
        value += "\\";
        push({ type: "text", value });
        continue;
      }
      // /^\\+/.exec(remaining())
      let run = 0;
      while (input[state.index + 1 + run] === "\\") run++;
      if (run > 2) {
        state.index += run;
        if (run % 2 !== 0) value += "\\";
      }
      value += advance();
      if (state.brackets === 0) {
        push({ type: "text", value });
        continue;
      }
    }

    if (state.brackets > 0 && (value !== "]" || prev.value === "[" || prev.value === "[^")) {
      if (value === ":") {
        // inner = prev.value.slice(1): its `[` and `:` are the indexes ≥ 1 kept on the token.
        if (prev.opens!.length > 0) {
          prev.posix = true;
          if (prev.colons!.length > 0) {
            const idx = prev.opens![prev.opens!.length - 1]!;
            const pre = prev.value.slice(0, idx);
            const rest = prev.value.slice(idx + 2);
            const posix = POSIX_REGEX_SOURCE[rest];
            if (posix) {
              prev.value = pre;
              while (prev.opens!.length > 0 && prev.opens![prev.opens!.length - 1]! >= idx) prev.opens!.pop();
              while (prev.colons!.length > 0 && prev.colons![prev.colons!.length - 1]! >= idx) prev.colons!.pop();
              bracketAppend(prev, posix);
              state.backtrack = true;
              advance();
              if (!bos.output && tokens[1] === prev) bos.output = ONE_CHAR;
              continue;
            }
          }
        }
      }
      if ((value === "[" && peek() !== ":") || (value === "-" && peek() === "]")) value = `\\${value}`;
      if (value === "]" && (prev.value === "[" || prev.value === "[^")) value = `\\${value}`;
      bracketAppend(prev, value);
      append({ value });
      continue;
    }

    if (state.quotes === 1 && value !== '"') {
      value = escapeRegex(value);
      prev.value += value;
      append({ value });
      continue;
    }

    if (value === '"') {
      state.quotes = state.quotes === 1 ? 0 : 1;
      continue;
    }

    if (value === "(") {
      increment("parens");
      push({ type: "paren", value });
      continue;
    }

    if (value === ")") {
      const extglob = extglobs[extglobs.length - 1];
      if (extglob && state.parens === extglob.parens + 1) {
        extglobClose(extglobs.pop()!);
        continue;
      }
      push({ type: "paren", value, output: state.parens ? ")" : "\\)" });
      decrement("parens");
      continue;
    }

    if (value === "[") {
      if (lastClose <= state.index) value = `\\${value}`;
      else increment("brackets");
      push({ type: "bracket", value, opens: [], colons: [] });
      continue;
    }

    if (value === "]") {
      if (prev && prev.type === "bracket" && prev.value.length === 1) {
        push({ type: "text", value, output: `\\${value}` });
        continue;
      }
      if (state.brackets === 0) {
        push({ type: "text", value, output: `\\${value}` });
        continue;
      }
      decrement("brackets");
      const prevValue = prev.value.slice(1);
      if (prev.posix !== true && prevValue[0] === "^" && !prevValue.includes("/")) value = `/${value}`;
      prev.value += value;
      append({ value });
      if (hasRegexChars(prevValue)) continue;
      const escaped = escapeRegex(prev.value);
      output.dropLast(prev.value.length);
      prev.value = `(?:${escaped}|${prev.value})`;
      output.append(prev.value);
      continue;
    }

    if (value === "{") {
      increment("braces");
      const open: Token = { type: "brace", value, output: "(", outputIndex: output.length, tokensIndex: tokens.length };
      braces.push(open);
      push(open);
      continue;
    }

    if (value === "}") {
      const brace = braces[braces.length - 1];
      if (!brace) {
        push({ type: "text", value, output: value });
        continue;
      }
      let closeOutput = ")";
      if (brace.dots === true) {
        const range: string[] = [];
        while (tokens.length > 0) {
          const t = tokens.pop()!;
          if (t.type === "brace") break;
          if (t.type !== "dots") range.push(t.value);
        }
        range.reverse();
        closeOutput = expandRange(range);
        state.backtrack = true;
      }
      if (brace.comma !== true && brace.dots !== true) {
        output.keep(brace.outputIndex!);
        const toks = tokens.slice(brace.tokensIndex!);
        brace.value = brace.output = "\\{";
        value = closeOutput = "\\}";
        for (const t of toks) output.append(t.output || t.value);
      }
      push({ type: "brace", value, output: closeOutput });
      decrement("braces");
      braces.pop();
      continue;
    }

    if (value === "|") {
      push({ type: "text", value });
      continue;
    }

    if (value === ",") {
      let output = value;
      const brace = braces[braces.length - 1];
      if (brace && stack[stack.length - 1] === "braces") {
        brace.comma = true;
        output = "|";
      }
      push({ type: "comma", value, output });
      continue;
    }

    if (value === "/") {
      if (prev.type === "dot" && state.index === state.start + 1) {
        state.start = state.index + 1;
        output.clear();
        tokens.pop();
        prev = bos;
        continue;
      }
      push({ type: "slash", value, output: SLASH_LITERAL });
      continue;
    }

    if (value === ".") {
      if (state.braces > 0 && prev.type === "dot") {
        if (prev.value === ".") prev.output = DOT_LITERAL;
        const brace = braces[braces.length - 1]!;
        prev.type = "dots";
        prev.output += value;
        prev.value += value;
        brace.dots = true;
        continue;
      }
      if (state.braces + state.parens === 0 && prev.type !== "bos" && prev.type !== "slash") {
        push({ type: "text", value, output: DOT_LITERAL });
        continue;
      }
      push({ type: "dot", value, output: DOT_LITERAL });
      continue;
    }

    if (value === "?") {
      const isGroup = prev && prev.value === "(";
      if (!isGroup && peek() === "(" && peek(2) !== "?") {
        extglobOpen("qmark", value);
        continue;
      }
      if (prev && prev.type === "paren") {
        const next = peek();
        let output = value;
        // next === "<" && !/<([!=]|\w+>)/.test(remaining())
        if ((prev.value === "(" && !(next === "!" || next === "=" || next === "<" || next === ":")) || (next === "<" && !lessThanGroupFollows(state.index + 1)))
          output = `\\${value}`;
        push({ type: "text", value, output });
        continue;
      }
      push({ type: "qmark", value, output: QMARK });
      continue;
    }

    if (value === "!") {
      if (peek() === "(") {
        const p3 = peek(3);
        if (peek(2) !== "?" || !(p3 === "!" || p3 === "=" || p3 === "<" || p3 === ":")) {
          extglobOpen("negate", value);
          continue;
        }
      }
      if (state.index === 0) {
        negate();
        continue;
      }
    }

    if (value === "+") {
      if (peek() === "(" && peek(2) !== "?") {
        extglobOpen("plus", value);
        continue;
      }
      if (prev && prev.value === "(") {
        push({ type: "plus", value, output: PLUS_LITERAL });
        continue;
      }
      if ((prev && (prev.type === "bracket" || prev.type === "paren" || prev.type === "brace")) || state.parens > 0) {
        push({ type: "plus", value });
        continue;
      }
      push({ type: "plus", value: PLUS_LITERAL });
      continue;
    }

    if (value === "@") {
      if (peek() === "(" && peek(2) !== "?") {
        push({ type: "at", extglob: true, value, output: "" });
        continue;
      }
      push({ type: "text", value });
      continue;
    }

    if (value !== "*") {
      if (value === "$" || value === "^") value = `\\${value}`;
      // REGEX_NON_SPECIAL_CHARS.exec(remaining())
      let end = state.index + 1;
      while (end < len && !NON_SPECIAL_STOP.has(input[end]!)) end++;
      if (end > state.index + 1) {
        value += input.slice(state.index + 1, end);
        state.index = end - 1;
      }
      push({ type: "text", value });
      continue;
    }

    // Stars
    if (prev && (prev.type === "globstar" || prev.star === true)) {
      prev.type = "star";
      prev.star = true;
      prev.value += value;
      prev.output = STAR;
      state.backtrack = true;
      continue;
    }

    let restAt = state.index + 1; // `rest` is input.slice(restAt)
    if (input[restAt] === "(" && restAt + 1 < len && input[restAt + 1] !== "?") {
      extglobOpen("star", value);
      continue;
    }

    if (prev.type === "star") {
      const prior = prev.prev!;
      const before = prior.prev;
      const isStart = prior.type === "slash" || prior.type === "bos";
      const afterStar = before && (before.type === "star" || before.type === "globstar");
      const isBrace = state.braces > 0 && (prior.type === "comma" || prior.type === "brace");
      const isExtglob = extglobs.length > 0 && (prior.type === "pipe" || prior.type === "paren");
      if (!isStart && prior.type !== "paren" && !isBrace && !isExtglob) {
        push({ type: "star", value, output: "" });
        continue;
      }
      // strip consecutive `/**/`
      while (input.startsWith("/**", restAt)) {
        const after = input[state.index + 4];
        if (after && after !== "/") break;
        restAt += 3;
        state.index += 3;
      }
      const restLen = len - restAt;
      const isEnd = eos() || (state.parens > 0 && restLen === state.parens && (restLen === 0 || parensToEnd[restAt] === 1) && openNegates === 0);
      if (prior.type === "bos" && eos()) {
        prev.type = "globstar";
        prev.value += value;
        prev.output = GLOBSTAR;
        output.clear();
        output.append(prev.output!);
        continue;
      }
      if (prior.type === "slash" && prior.prev!.type !== "bos" && !afterStar && isEnd) {
        output.dropLast((prior.output! + prev.output!).length);
        prior.output = `(?:${prior.output}`;
        prev.type = "globstar";
        prev.output = `${GLOBSTAR}|$)`;
        prev.value += value;
        output.append(prior.output + prev.output);
        continue;
      }
      if (prior.type === "slash" && prior.prev!.type !== "bos" && input[restAt] === "/") {
        const end = restAt + 1 < len ? "|$" : "";
        output.dropLast((prior.output! + prev.output!).length);
        prior.output = `(?:${prior.output}`;
        prev.type = "globstar";
        prev.output = `${GLOBSTAR}${SLASH_LITERAL}|${SLASH_LITERAL}${end})`;
        prev.value += value;
        output.append(prior.output + prev.output);
        advance();
        push({ type: "slash", value: "/", output: "" });
        continue;
      }
      if (prior.type === "bos" && input[restAt] === "/") {
        prev.type = "globstar";
        prev.value += value;
        prev.output = `(?:^|${SLASH_LITERAL}|${GLOBSTAR}${SLASH_LITERAL})`;
        output.clear();
        output.append(prev.output!);
        advance();
        push({ type: "slash", value: "/", output: "" });
        continue;
      }
      output.dropLast(prev.output!.length);
      prev.type = "globstar";
      prev.output = GLOBSTAR;
      prev.value += value;
      output.append(prev.output);
      continue;
    }

    const token: Token = { type: "star", value, output: STAR };
    if (state.index === state.start || prev.type === "slash" || prev.type === "dot") {
      if (prev.type === "dot") {
        output.append(NO_DOT_SLASH);
        prev.output += NO_DOT_SLASH;
      } else {
        output.append(NO_DOTS_SLASH);
        prev.output += NO_DOTS_SLASH;
      }
      if (peek() !== "*") {
        output.append(ONE_CHAR);
        prev.output += ONE_CHAR;
      }
    }
    push(token);
  }

  if (!state.backtrack) {
    // utils.escapeLast for each unclosed bracket, paren and brace (in that order), each from the end.
    output.set(
      escapeUnclosed(output.toString(), [
        ["[", state.brackets],
        ["(", state.parens],
        ["{", state.braces],
      ]),
    );
  }
  if (prev.type === "star" || prev.type === "bracket") push({ type: "maybe_slash", value: "", output: `${SLASH_LITERAL}?` });

  if (state.backtrack) {
    let out = "";
    for (const token of tokens) out += token.output != null ? token.output : token.value;
    return { output: out, negated: state.negated };
  }
  return { output: output.toString(), negated: state.negated };
}

/**
 * picomatch's `state.output` string, as pieces: it cuts its tail (`slice(0, -n)`) at every
 * globstar, and a cut of a long concatenated string copies all of it.
 */
class Output {
  private parts: string[] = [];
  length = 0;

  append(s: string | undefined): void {
    if (!s) return;
    this.parts.push(s);
    this.length += s.length;
  }

  /** `slice(0, -n)`: as in JavaScript, n = 0 leaves nothing. */
  dropLast(n: number): void {
    this.keep(n === 0 ? 0 : this.length - n);
  }

  /** `slice(0, n)`. */
  keep(n: number): void {
    const target = Math.max(0, n);
    while (this.length > target) {
      const last = this.parts.pop()!;
      this.length -= last.length;
      if (this.length < target) {
        this.parts.push(last.slice(0, target - this.length));
        this.length = target;
      }
    }
  }

  /** Cut or pad (with any characters) to `n`. */
  resize(n: number): void {
    this.keep(n);
    if (this.length < n) this.append("\0".repeat(n - this.length));
  }

  clear(): void {
    this.parts = [];
    this.length = 0;
  }

  set(s: string): void {
    this.clear();
    this.append(s);
  }

  toString(): string {
    const s = this.parts.join("");
    this.parts = s ? [s] : [];
    return s;
  }
}

/**
 * picomatch's `utils.escapeLast(output, ch)` called `count` times per character: each call
 * puts a backslash before the last `ch` not already preceded by one. The successive calls
 * take successive such characters from the end; one pass finds them all.
 */
function escapeUnclosed(output: string, wanted: readonly (readonly [string, number])[]): string {
  const marks = new Set<number>();
  for (const [ch, count] of wanted) {
    let left = count;
    for (let i = output.length - 1; i >= 0 && left > 0; i--) {
      if (output[i] === ch && output[i - 1] !== "\\") {
        marks.add(i);
        left--;
      }
    }
  }
  if (marks.size === 0) return output;
  let out = "";
  for (let i = 0; i < output.length; i++) out += marks.has(i) ? `\\${output[i]}` : output[i];
  return out;
}

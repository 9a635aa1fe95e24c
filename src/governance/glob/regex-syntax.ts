/**
 * The syntax of a JavaScript regular expression without flags (non-unicode, with the web's
 * Annex B leniencies), read into a tree the linear matcher compiles. The source must be one
 * V8 accepts (`new RegExp(source)` did not throw): this reader does not re-judge syntax.
 * Backreferences are refused (`UnsupportedRegexError`): they are not regular, so no matcher
 * linear in the input can take them.
 */
import { CharSet } from "./char-set.js";

export type RegexNode =
  | { t: "set"; set: CharSet }
  | { t: "seq"; items: RegexNode[] }
  | { t: "alt"; alts: RegexNode[] }
  | { t: "rep"; min: number; max: number; body: RegexNode }
  | { t: "bol" }
  | { t: "eol" }
  | { t: "word-boundary"; negate: boolean }
  /** `key`: the look-around's own source text, the same for two identical look-arounds. */
  | { t: "look"; ahead: boolean; negate: boolean; body: RegexNode; key: string };

export class UnsupportedRegexError extends Error {
  override name = "UnsupportedRegexError";
}

/** The nesting the reader follows (groups within groups); deeper is refused. */
export const MAX_REGEX_NESTING = 256;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isLetter = (c: string | undefined): boolean => c !== undefined && /^[a-zA-Z]$/.test(c);

/** Capturing groups and whether one is named (a `\N` is a backreference only up to their count; `\k` only with names). */
function scanGroups(source: string): { count: number; named: boolean } {
  let count = 0;
  let named = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(") {
      if (source[i + 1] !== "?") count++;
      else if (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!") {
        count++;
        named = true;
      }
    }
  }
  return { count, named };
}

/** The tree of `source` (a regular expression V8 accepts, no flags). */
export function parseRegex(source: string): RegexNode {
  const groups = scanGroups(source);
  let i = 0;
  let depth = 0;

  const peek = (k = 0): string | undefined => source[i + k];

  const disjunction = (): RegexNode => {
    const alts = [alternative()];
    while (peek() === "|") {
      i++;
      alts.push(alternative());
    }
    return alts.length === 1 ? alts[0]! : { t: "alt", alts };
  };

  const alternative = (): RegexNode => {
    const items: RegexNode[] = [];
    while (i < source.length && peek() !== "|" && peek() !== ")") items.push(term());
    return items.length === 1 ? items[0]! : { t: "seq", items };
  };

  const group = (): RegexNode => {
    if (++depth > MAX_REGEX_NESTING) throw new UnsupportedRegexError(`groups nested more than ${MAX_REGEX_NESTING} deep`);
    const body = disjunction();
    if (peek() !== ")") throw new UnsupportedRegexError(`expected ) at ${i}`);
    i++;
    depth--;
    return body;
  };

  const term = (): RegexNode => {
    const c = peek();
    if (c === "^") {
      i++;
      return { t: "bol" };
    }
    if (c === "$") {
      i++;
      return { t: "eol" };
    }
    if (c === "\\" && (peek(1) === "b" || peek(1) === "B")) {
      const negate = peek(1) === "B";
      i += 2;
      return { t: "word-boundary", negate };
    }
    if (c === "(" && peek(1) === "?") {
      const kind = peek(2);
      if (kind === "=" || kind === "!") {
        const start = i;
        i += 3;
        const body = group();
        // Annex B: a lookahead may be quantified.
        return quantified({ t: "look", ahead: true, negate: kind === "!", body, key: source.slice(start, i) });
      }
      if (kind === "<" && (peek(3) === "=" || peek(3) === "!")) {
        const start = i;
        const negate = peek(3) === "!";
        i += 4;
        const body = group();
        return { t: "look", ahead: false, negate, body, key: source.slice(start, i) };
      }
    }
    return quantified(atom());
  };

  /** `{n}`, `{n,}`, `{n,m}` at i, or null (then `{` is a literal character). */
  const braceQuantifier = (): { min: number; max: number; end: number } | null => {
    let j = i + 1;
    let a = "";
    while (isDigit(source[j])) a += source[j++];
    if (a === "") return null;
    let max = Number(a);
    if (source[j] === ",") {
      j++;
      let b = "";
      while (isDigit(source[j])) b += source[j++];
      max = b === "" ? Number.POSITIVE_INFINITY : Number(b);
    }
    if (source[j] !== "}") return null;
    return { min: Number(a), max, end: j + 1 };
  };

  const quantified = (body: RegexNode): RegexNode => {
    const c = peek();
    let min: number;
    let max: number;
    if (c === "*") {
      min = 0;
      max = Number.POSITIVE_INFINITY;
      i++;
    } else if (c === "+") {
      min = 1;
      max = Number.POSITIVE_INFINITY;
      i++;
    } else if (c === "?") {
      min = 0;
      max = 1;
      i++;
    } else if (c === "{") {
      const q = braceQuantifier();
      if (q === null) return body;
      ({ min, max } = q);
      i = q.end;
    } else return body;
    if (peek() === "?") i++; // lazy: the same language
    return { t: "rep", min, max, body };
  };

  const atom = (): RegexNode => {
    const c = source[i]!;
    if (c === ".") {
      i++;
      return { t: "set", set: CharSet.dot() };
    }
    if (c === "[") return characterClass();
    if (c === "(") {
      if (peek(1) === "?") {
        if (peek(2) === ":") i += 3;
        else if (peek(2) === "<") {
          const close = source.indexOf(">", i);
          i = close + 1;
        } else throw new UnsupportedRegexError(`unknown group at ${i}`);
      } else i++;
      return group();
    }
    if (c === "\\") return atomEscape();
    i++;
    return { t: "set", set: CharSet.of(c.charCodeAt(0)) };
  };

  /** After `\` outside a class. */
  const atomEscape = (): RegexNode => {
    const c = source[i + 1];
    if (c === undefined) throw new UnsupportedRegexError("\\ at the end");
    if (isDigit(c) && c !== "0") {
      let j = i + 1;
      let digits = "";
      while (isDigit(source[j])) digits += source[j++];
      if (Number(digits) <= groups.count) throw new UnsupportedRegexError(`backreference \\${digits}`);
    }
    if (c === "k" && groups.named) throw new UnsupportedRegexError("named backreference \\k");
    const set = classEscape(false);
    return { t: "set", set };
  };

  /** Reads an escape at i (a `\`): a set of one or more characters. `inClass`: the rules inside `[…]`. */
  const classEscape = (inClass: boolean): CharSet => {
    const c = source[i + 1]!;
    i += 2;
    switch (c) {
      case "d":
        return CharSet.digit();
      case "D":
        return CharSet.digit().complement();
      case "w":
        return CharSet.word();
      case "W":
        return CharSet.word().complement();
      case "s":
        return CharSet.space();
      case "S":
        return CharSet.space().complement();
      case "f":
        return CharSet.of(0x0c);
      case "n":
        return CharSet.of(0x0a);
      case "r":
        return CharSet.of(0x0d);
      case "t":
        return CharSet.of(0x09);
      case "v":
        return CharSet.of(0x0b);
      case "b":
        return CharSet.of(0x08); // only reached inside a class
      case "c": {
        const x = source[i];
        if (isLetter(x) || (inClass && (isDigit(x) || x === "_"))) {
          i++;
          return CharSet.of(x!.charCodeAt(0) % 32);
        }
        // Annex B: the backslash itself; the `c` is read next as a character.
        i -= 1;
        return CharSet.of(0x5c);
      }
      case "x":
        if (isHex(source[i]) && isHex(source[i + 1])) {
          const v = Number.parseInt(source.slice(i, i + 2), 16);
          i += 2;
          return CharSet.of(v);
        }
        return CharSet.of(0x78);
      case "u":
        if (isHex(source[i]) && isHex(source[i + 1]) && isHex(source[i + 2]) && isHex(source[i + 3])) {
          const v = Number.parseInt(source.slice(i, i + 4), 16);
          i += 4;
          return CharSet.of(v);
        }
        return CharSet.of(0x75);
      default:
        break;
    }
    if (c >= "0" && c <= "7") {
      // Annex B legacy octal (and \0): up to three digits, at most \377.
      let v = c.charCodeAt(0) - 48;
      if (source[i] !== undefined && source[i]! >= "0" && source[i]! <= "7") {
        v = v * 8 + (source[i]!.charCodeAt(0) - 48);
        i++;
        if (c <= "3" && source[i] !== undefined && source[i]! >= "0" && source[i]! <= "7") {
          v = v * 8 + (source[i]!.charCodeAt(0) - 48);
          i++;
        }
      }
      return CharSet.of(v);
    }
    return CharSet.of(c.charCodeAt(0));
  };

  const characterClass = (): RegexNode => {
    i++;
    let negate = false;
    if (peek() === "^") {
      negate = true;
      i++;
    }
    let set = CharSet.empty();
    /** One class atom: a single character (code) or a set (a class escape). */
    const classAtom = (): { code: number } | { set: CharSet } => {
      const c = source[i]!;
      if (c === "\\") {
        const next = source[i + 1];
        if (next === "-") {
          i += 2;
          return { code: 0x2d };
        }
        if (next === "d" || next === "D" || next === "w" || next === "W" || next === "s" || next === "S") return { set: classEscape(true) };
        const s = classEscape(true);
        return { code: s.single() };
      }
      i++;
      return { code: c.charCodeAt(0) };
    };
    while (i < source.length && peek() !== "]") {
      const a = classAtom();
      if (peek() === "-" && peek(1) !== undefined && peek(1) !== "]") {
        i++;
        const b = classAtom();
        if ("code" in a && "code" in b) {
          set = set.union(CharSet.range(a.code, b.code));
        } else {
          // Annex B: a class escape beside `-` makes no range; all three are members.
          set = set
            .union("code" in a ? CharSet.of(a.code) : a.set)
            .union(CharSet.of(0x2d))
            .union("code" in b ? CharSet.of(b.code) : b.set);
        }
        continue;
      }
      set = set.union("code" in a ? CharSet.of(a.code) : a.set);
    }
    i++; // ]
    return { t: "set", set: negate ? set.complement() : set };
  };

  const tree = disjunction();
  if (i !== source.length) throw new UnsupportedRegexError(`unexpected ${source[i]} at ${i}`);
  return tree;
}

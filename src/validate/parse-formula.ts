/**
 * The numeric formula language of ::computed_metric and ::computed_plot.
 *
 *   expr    := sum (("<" | "<=" | ">" | ">=" | "==" | "!=") sum)?
 *   sum     := product (("+" | "-") product)*
 *   product := unary (("*" | "/" | "%") unary)*
 *   unary   := ("-" | "+") unary | power
 *   power   := primary (("^" | "**") unary)?
 *   primary := number | name | name "(" (expr ("," expr)*)? ")" | "(" expr ")"
 *
 * A name is an identifier or a dotted path of identifiers (`rate.value`: an
 * attribute of the block `rate`). Functions must be in `FORMULA_FUNCTIONS`; `pi`,
 * `e`, `true` and `false` are constants; every other name is a dependency the
 * validator resolves. Nesting is capped so no input can exhaust the stack.
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";

export const FORMULA_FUNCTIONS = new Set([
  "abs",
  "avg",
  "ceil",
  "clamp",
  "cos",
  "exp",
  "floor",
  "if",
  "log",
  "log10",
  "log2",
  "max",
  "mean",
  "min",
  "pow",
  "round",
  "sign",
  "sin",
  "sqrt",
  "sum",
  "tan",
]);

export const FORMULA_CONSTANTS = new Set(["pi", "e", "PI", "E", "true", "false"]);

const MAX_DEPTH = 100;

export type FormulaResult = { ok: true; names: string[] } | { ok: false; error: string };

type Token = { kind: "num" | "name" | "op" | "end"; text: string; at: number };

function tokenize(src: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    const rest = src.slice(i);
    const num = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(rest);
    if (num !== null) {
      tokens.push({ kind: "num", text: num[0], at: i });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(rest);
    if (name !== null) {
      tokens.push({ kind: "name", text: name[0], at: i });
      i += name[0].length;
      continue;
    }
    const op = /^(?:\*\*|<=|>=|==|!=|[-+*/%^(),<>])/.exec(rest);
    if (op !== null) {
      tokens.push({ kind: "op", text: op[0], at: i });
      i += op[0].length;
      continue;
    }
    return `unexpected character "${c}" at position ${i + 1}`;
  }
  tokens.push({ kind: "end", text: "", at: src.length });
  return tokens;
}

/** Parse a formula; on success return the names it depends on (functions and constants excluded). */
export function parseFormula(src: string): FormulaResult {
  if (src.trim().length === 0) return { ok: false, error: "the formula is empty" };
  const tokens = tokenize(src);
  if (typeof tokens === "string") return { ok: false, error: tokens };
  let p = 0;
  const names = new Set<string>();
  const peek = (): Token => tokens[p]!;
  const fail = (what: string): never => {
    const t = peek();
    throw new FormulaError(`expected ${what} at position ${t.at + 1}, found ${t.kind === "end" ? "the end" : `"${t.text}"`}`);
  };
  const expect = (text: string): void => {
    if (peek().text !== text || peek().kind !== "op") fail(`"${text}"`);
    p++;
  };
  const expr = (depth: number): void => {
    if (depth > MAX_DEPTH) throw new FormulaError(`the formula nests deeper than ${MAX_DEPTH} levels`);
    sum(depth);
    const t = peek();
    if (t.kind === "op" && ["<", "<=", ">", ">=", "==", "!="].includes(t.text)) {
      p++;
      sum(depth);
    }
  };
  const sum = (depth: number): void => {
    product(depth);
    while (peek().kind === "op" && (peek().text === "+" || peek().text === "-")) {
      p++;
      product(depth);
    }
  };
  const product = (depth: number): void => {
    unary(depth);
    while (peek().kind === "op" && (peek().text === "*" || peek().text === "/" || peek().text === "%")) {
      p++;
      unary(depth);
    }
  };
  const unary = (depth: number): void => {
    let signs = 0;
    while (peek().kind === "op" && (peek().text === "-" || peek().text === "+")) {
      p++;
      signs++;
    }
    primary(depth + (signs > 0 ? 1 : 0));
    if (peek().kind === "op" && (peek().text === "^" || peek().text === "**")) {
      p++;
      unary(depth + 1);
    }
  };
  const primary = (depth: number): void => {
    if (depth > MAX_DEPTH) throw new FormulaError(`the formula nests deeper than ${MAX_DEPTH} levels`);
    const t = peek();
    if (t.kind === "num") {
      p++;
      return;
    }
    if (t.kind === "name") {
      p++;
      if (peek().kind === "op" && peek().text === "(") {
        if (!FORMULA_FUNCTIONS.has(t.text)) {
          throw new FormulaError(`function "${t.text}" is not allowed (allowed: ${[...FORMULA_FUNCTIONS].join(", ")})`);
        }
        p++;
        if (!(peek().kind === "op" && peek().text === ")")) {
          expr(depth + 1);
          while (peek().kind === "op" && peek().text === ",") {
            p++;
            expr(depth + 1);
          }
        }
        expect(")");
        return;
      }
      if (!FORMULA_CONSTANTS.has(t.text)) names.add(t.text);
      return;
    }
    if (t.kind === "op" && t.text === "(") {
      p++;
      expr(depth + 1);
      expect(")");
      return;
    }
    fail('a number, a name or "("');
  };
  try {
    expr(0);
    if (peek().kind !== "end") fail("an operator or the end");
  } catch (e) {
    if (e instanceof FormulaError) return { ok: false, error: e.message };
    throw e;
  }
  return { ok: true, names: [...names] };
}

class FormulaError extends NomaError {
  static override readonly errorName: string = "FormulaError";
  static override readonly kind: ErrorKind = "internal";
  constructor(message: string) {
    super("formula", message);
  }
}

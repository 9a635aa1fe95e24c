/** Generated globs for the glob tests: every construct picomatch knows, well-formed and broken. */
import fc from "fast-check";
import { normalizeGlob } from "../../../src/governance/glob.js";

/** Glob pieces: every construct, its fragments, and characters that are special to a regular expression. */
export const GLOB_PIECES = [
  "a",
  "b",
  "ab",
  "x.ts",
  ".",
  "..",
  "/",
  "//",
  "./",
  "*",
  "**",
  "***",
  "**/",
  "/**",
  "/**/",
  "?",
  "??",
  "[",
  "]",
  "[a]",
  "[ab]",
  "[a-c]",
  "[!a]",
  "[^a]",
  "[]a]",
  "[[:alpha:]]",
  "[[:digit:]x]",
  "[[:punct:]]",
  "[:",
  ":]",
  "[\\]]",
  "[a/b]",
  "{",
  "}",
  ",",
  "{a,b}",
  "{a,{b,c}}",
  "{1..3}",
  "{a..c}",
  "{x}",
  "..",
  "{,a}",
  "(",
  ")",
  "|",
  "(a|b)",
  "@(",
  "?(",
  "*(",
  "+(",
  "!(",
  "@(a|b)",
  "*(a)",
  "+(a|b)",
  "!(a)",
  "!(*.ts)",
  "?(a)",
  "*(*(a))",
  "+(a|aa)",
  "(?",
  "(?:",
  "(?=",
  "(?!",
  "(?<",
  "<",
  ">",
  "(?<n>",
  "=",
  "!",
  "!!",
  "\\",
  "\\*",
  "\\.",
  "\\/",
  "\\\\",
  "\\\\\\",
  "\\a",
  "\\d",
  "\\1",
  '"',
  '"a*"',
  "$",
  "^",
  "+",
  "-",
  "@",
  ";",
  ":",
  " ",
  "é",
  "\n",
  "\u2028",
  "\u0000",
  "x",
  ".ts",
  ".{ts,tsx}",
];

export const globArb = fc.array(fc.constantFrom(...GLOB_PIECES), { minLength: 1, maxLength: 12 }).map((a) => a.join(""));

/**
 * picomatch 4.0.7 never returns on a glob ending in four or more backslashes (outside its simple-pattern path) —
 * also when the glob only ends so once normalised (`normalizeGlob` trims trailing blanks: `a\\\\\\\\ ` hung a CI run for 8 minutes).
 */
export function picomatchTerminates(glob: string): boolean {
  return !/\\{4,}$/.test(glob) && !/\\{4,}$/.test(normalizeGlob(glob));
}

/**
 * Whether a regular expression repeats (`*`, `+`, `{n…}`) a group whose body holds a quantifier or an
 * alternative — `(?:a|aa)*`, `(?:(?:a)*)*`, what picomatch makes of `+(a|aa)` or `*(*(a))`. On such
 * nesting V8's backtracking (the reference of these tests) takes time exponential in the subject's
 * length: one generated glob kept a test file running for more than 8 minutes. The tests compare such
 * expressions on subjects of at most NESTED_SUBJECT_MAX characters (`referenceSubject`).
 */
export function hasNestedRepetition(source: string): boolean {
  const open: boolean[] = []; // per open group: whether its body holds a quantifier or an alternative
  const mark = () => open.fill(true);
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") {
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++;
    } else if (c === "(") open.push(false);
    else if (c === ")") {
      const held = open.pop() ?? false;
      const next = source[i + 1];
      const repeated = next === "*" || next === "+" || (next === "{" && /\d/.test(source[i + 2] ?? ""));
      if (repeated && held) return true;
    } else if (c === "*" || c === "+" || c === "|" || (c === "?" && source[i - 1] !== "(") || (c === "{" && /\d/.test(source[i + 1] ?? ""))) mark();
  }
  return false;
}

export const NESTED_SUBJECT_MAX = 12;

/** The subject to give V8 for `source`: whole, or its first NESTED_SUBJECT_MAX characters where the expression nests repetition. */
export function referenceSubject(source: string, subject: string): string {
  return hasNestedRepetition(source) ? subject.slice(0, NESTED_SUBJECT_MAX) : subject;
}

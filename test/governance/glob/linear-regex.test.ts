/**
 * The linear matcher gives V8's answers (`RegExp.prototype.test`, no flags) — on the
 * expressions of generated globs and on generated expressions with every construct it reads
 * (classes, escapes, quantifiers, anchors, word boundaries, lookaheads and lookbehinds, bounded
 * and not) — and its work grows linearly with the input on adversarial globs and names, measured
 * by its step counter (never by time).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { globRegexSource } from "../../../src/governance/glob/glob-regex-source.js";
import { compileLinearRegex } from "../../../src/governance/glob/linear-regex.js";
import { UnsupportedRegexError } from "../../../src/governance/glob/regex-syntax.js";
import { globArb, hasNestedRepetition, picomatchTerminates, referenceSubject } from "./glob-pieces.js";

/** Names: path-like strings over the characters globs treat specially (up to `pieces` of them). */
const namesOf = (pieces: number) =>
  fc
    .array(
      fc.constantFrom("a", "b", "ab", ".", "..", "/", "x.ts", "-", "[", "]", "!", "é", "\n", "\u2028", "(", ")", "|", "*", "\\", "{", "}", ",", " ", "_", "9"),
      { maxLength: pieces },
    )
    .map((a) => a.join(""));
const nameArb = namesOf(10);
/** Names of at most 12 characters: the reference's backtracking stays small on any expression. */
const shortNameArb = namesOf(3);

/**
 * Whether a quantifier may repeat this atom: always, unless `nested` is off and the atom is a group
 * whose body holds a quantifier or an alternative. V8's backtracking (the reference) takes time
 * exponential in the name's length on such nested repetition — `(?:[^a/]?[^/]?)*` on a 16-character
 * name took it 1.3 s, and one run of this file once hung for 516 s — so the long names meet only
 * expressions without it, and nested repetition is compared on short names.
 */
const repeatable = (atom: string, q: string, nested: boolean): boolean =>
  nested || q === "" || q === "?" || !atom.startsWith("(") || !/[*+|]|\{\d|[^(]\?/.test(atom.slice(atom.startsWith("(?:") ? 3 : 1));

/** Regular expressions built from the constructs the matcher reads (kept when V8 accepts them). */
const regexArbOf = (nested: boolean): fc.Arbitrary<string> =>
  fc.letrec<{ re: string; alt: string; seq: string; term: string; atom: string }>((tie) => ({
    re: fc
      .oneof({ weight: 1, arbitrary: fc.constant("^") }, { weight: 4, arbitrary: fc.constant("") })
      .chain((bol) => fc.tuple(tie("alt"), fc.constantFrom("", "", "$")).map(([body, eol]) => `${bol}${body}${eol}`)),
    alt: fc.array(tie("seq"), { minLength: 1, maxLength: 3 }).map((a) => a.join("|")),
    seq: fc.array(tie("term"), { minLength: 0, maxLength: 4 }).map((a) => a.join("")),
    term: fc.oneof(
      { maxDepth: 3, depthIdentifier: "regex" },
      {
        weight: 6,
        arbitrary: fc
          .tuple(tie("atom"), fc.constantFrom("", "", "", "*", "+", "?", "*?", "+?", "{0,2}", "{1,}", "{2}", "{1,3}?"))
          .map(([a, q]) => (repeatable(a, q, nested) ? a + q : a)),
      },
      { weight: 1, arbitrary: fc.constantFrom("^", "$", "\\b", "\\B") },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom("(?=", "(?!", "(?<=", "(?<!"), tie("alt")).map(([o, b]) => `${o}${b})`) },
    ),
    atom: fc.oneof(
      { maxDepth: 3, depthIdentifier: "regex" },
      {
        weight: 6,
        arbitrary: fc.constantFrom(
          "a",
          "b",
          "\\/",
          "\\.",
          ".",
          "[ab]",
          "[^/]",
          "[^a/]",
          "[a-c.]",
          "\\d",
          "\\w",
          "\\W",
          "\\s",
          "[\\d-]",
          "\\x61",
          "\\u00e9",
          "{",
          "}",
          "]",
          "\\n",
          "[\\b]",
          "\\0",
        ),
      },
      { weight: 2, arbitrary: tie("alt").map((b) => `(?:${b})`) },
      { weight: 1, arbitrary: tie("alt").map((b) => `(${b})`) },
    ),
  })).re;
/** Without nested repetition (for names of any length). */
const regexArb = regexArbOf(false);
/** With it (for short names, and for the step counts, where V8 matches nothing). */
const nestedRegexArb = regexArbOf(true);

function v8(source: string): RegExp | null {
  try {
    return new RegExp(source);
  } catch {
    return null;
  }
}

describe("the linear matcher answers as V8 does", () => {
  it("on the expressions of generated globs", () => {
    fc.assert(
      fc.property(globArb.filter(picomatchTerminates), fc.array(nameArb, { minLength: 1, maxLength: 8 }), (glob, names) => {
        const source = globRegexSource(glob);
        const re = v8(source);
        if (re === null) return;
        let m: ReturnType<typeof compileLinearRegex>;
        try {
          m = compileLinearRegex(source);
        } catch (e) {
          // Only a backreference (a `\1` after a group) is refused.
          expect(e).toBeInstanceOf(UnsupportedRegexError);
          expect((e as Error).message).toMatch(/backreference/);
          return;
        }
        for (const name of names.map((n) => referenceSubject(source, n)))
          expect({ glob, name, match: m.test(name) }).toEqual({ glob, name, match: re.test(name) });
      }),
      { numRuns: 3_000 },
    );
  });

  it("on names made from the glob (so that many match)", () => {
    let matched = 0;
    fc.assert(
      fc.property(
        globArb.filter(picomatchTerminates),
        fc.array(fc.constantFrom("", "a", "ab", ".x", "/", "b/a"), { minLength: 8, maxLength: 8 }),
        (glob, fills) => {
          const source = globRegexSource(glob);
          const re = v8(source);
          if (re === null || /\\[1-9]/.test(source)) return;
          const m = compileLinearRegex(source);
          let k = 0;
          const name = referenceSubject(
            source,
            glob.replace(/[*?[\]{}()!@+|,]/g, () => fills[k++ % fills.length]!),
          );
          const want = re.test(name);
          if (want) matched++;
          expect({ glob, name, match: m.test(name) }).toEqual({ glob, name, match: want });
        },
      ),
      { numRuns: 3_000 },
    );
    expect(matched).toBeGreaterThan(100);
  });

  /** Compare the two on each name; false when V8 refuses the expression or it holds a backreference (not compared). */
  const compareWithV8 = (source: string, names: readonly string[]): boolean => {
    const re = v8(source);
    if (re === null || /\\[1-9]/.test(source)) return false;
    const m = compileLinearRegex(source);
    for (const name of names) expect({ source, name, match: m.test(name) }).toEqual({ source, name, match: re.test(name) });
    return true;
  };

  it("on generated expressions", () => {
    let compared = 0;
    fc.assert(
      fc.property(regexArb, fc.array(nameArb, { minLength: 1, maxLength: 8 }), (source, names) => {
        if (compareWithV8(source, names)) compared++;
      }),
      { numRuns: 4_000 },
    );
    expect(compared).toBeGreaterThan(2_000);
  });

  it("on generated expressions with nested repetition, on short names", () => {
    let compared = 0;
    let repeatedGroups = 0;
    fc.assert(
      fc.property(nestedRegexArb, fc.array(shortNameArb, { minLength: 1, maxLength: 8 }), (source, names) => {
        if (!compareWithV8(source, names)) return;
        compared++;
        if (/\)(?:[*+]|\{\d)/.test(source)) repeatedGroups++;
      }),
      { numRuns: 4_000 },
    );
    expect(compared).toBeGreaterThan(2_000);
    expect(repeatedGroups).toBeGreaterThan(500);
  });

  it("hasNestedRepetition (the tests' guard for V8) sees a repeated group holding a quantifier or an alternative", () => {
    for (const nested of ["(?:a|aa)*", "(?:(?:a)*)*", "(a+)+", "(?:[^/]?b)*", "x(?:a{1,2}){2}", "((a)*b)+"])
      expect(hasNestedRepetition(nested), nested).toBe(true);
    for (const flat of ["(?:ab)*", "a*b*(?:c)+", "(?:a|b)", "(?=a*)b", "[(a*)]+", "\\(a*\\)+", "(?:a*)?"]) expect(hasNestedRepetition(flat), flat).toBe(false);
    expect(referenceSubject("(?:a|aa)*c", "a".repeat(30))).toBe("a".repeat(12));
    expect(referenceSubject("a*c", "a".repeat(30))).toBe("a".repeat(30));
  });

  it("refuses a backreference, accepts what only looks like one", () => {
    expect(() => compileLinearRegex("(a)\\1")).toThrow(UnsupportedRegexError);
    expect(() => compileLinearRegex("(?<n>a)\\k<n>")).toThrow(UnsupportedRegexError);
    // No group: \1 is the character U+0001 (Annex B), \8 the digit, \k the letter.
    for (const [source, input, want] of [
      ["^\\1$", "\u0001", true],
      ["^\\8$", "8", true],
      ["^\\k$", "k", true],
      ["^(a)\\2$", "a\u0002", true],
      ["^\\c$", "\\c", true],
      ["^[\\c_]$", "\u001f", true],
    ] as const) {
      expect({ source, match: compileLinearRegex(source).test(input) }).toEqual({ source, match: want });
      expect(new RegExp(source).test(input)).toBe(want);
    }
  });
});

describe("the linear matcher's work is linear in the input", () => {
  /** Steps of one test on a fresh matcher (its cache empty: the worst case). */
  const steps = (source: string, input: string): number => {
    const m = compileLinearRegex(source);
    m.test(input);
    return m.steps;
  };

  /** The adversarial cases: globs a backtracking engine takes exponential (or high polynomial) time on, with their worst names. */
  const cases: { glob: string; name: (n: number) => string }[] = [
    { glob: "x/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", name: (n) => `x/${"a".repeat(n)}` },
    { glob: "**/a/**/a/**/a/**/a/**/a/**/b", name: (n) => "a/".repeat(n) },
    { glob: "*(*(*(a)))b", name: (n) => "a".repeat(n) },
    { glob: "+(a|aa)+(a|aa)c", name: (n) => "a".repeat(n) },
    { glob: "!(*a*a*a*a*a)", name: (n) => "a".repeat(n) },
    { glob: "x/!(*a*a*a*b)/**/*.{ts,tsx}", name: (n) => `x/${"a".repeat(n)}/y.ts` },
    { glob: "{*a,*a*a,*a*a*a}*b", name: (n) => "a".repeat(n) },
    { glob: "**/*[ab]*[ab]*[ab]*[ab]*c", name: (n) => "ab/".repeat(n / 3) + "ab".repeat(n / 3) },
  ];

  for (const c of cases) {
    it(`${c.glob}: twice the name, at most about twice the steps (names of 200 to 3,200 characters)`, () => {
      const source = globRegexSource(c.glob);
      const counts = [200, 400, 800, 1600, 3200].map((n) => steps(source, c.name(n)));
      // A fixed cost (building the states) plus a cost per character: doubling the name at most
      // doubles the steps, give or take the fixed part; an exponential or quadratic matcher fails this at once.
      for (let k = 1; k < counts.length; k++) expect(counts[k]! / counts[k - 1]!).toBeLessThanOrEqual(2.05);
      // And per character, a bounded amount of work (well under the expression's size squared).
      expect(counts[4]! / 3200).toBeLessThan(source.length * 4);
    });
  }

  it("the issue's glob on a 100-character name: the answer, in a few hundred steps once warm", () => {
    const m = compileLinearRegex(globRegexSource("x/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"));
    const name = `x/${"a".repeat(98)}`;
    expect(m.test(name)).toBe(false);
    expect(m.test(`${name}b`)).toBe(true);
    const before = m.steps;
    expect(m.test(name)).toBe(false);
    expect(m.steps - before).toBeLessThan(3 * name.length);
  });

  it("generated expressions on long names: steps at most proportional to the name", () => {
    fc.assert(
      // Every generated expression, nested repetition included: V8 only compiles these, it matches nothing.
      fc.property(nestedRegexArb, fc.constantFrom("a", "ab", "a/", "a.b/", "é\n"), (source, unit) => {
        if (v8(source) === null || /\\[1-9]/.test(source)) return;
        const s1 = steps(source, unit.repeat(100));
        const s2 = steps(source, unit.repeat(400));
        expect(s2).toBeLessThanOrEqual(4 * s1 + 50);
      }),
      { numRuns: 1_000 },
    );
  });
});

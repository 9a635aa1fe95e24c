/**
 * The globs the matcher refuses, each with one message naming the glob (and the spec file
 * holding it): longer than MAX_GLOB_LENGTH, `(`/`{` nested deeper than MAX_GLOB_NESTING, a
 * backreference. Everything shorter still matches as picomatch does.
 */
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { buildGovernance, buildSpecSet, compileGlob, validateSpecText } from "../../../src/internal.js";
import { GlobError, MAX_GLOB_LENGTH, MAX_GLOB_NESTING } from "../../../src/governance/glob.js";
import { specYaml } from "../../reconcile/helpers/specs.js";

describe("glob limits", () => {
  it("a glob of MAX_GLOB_LENGTH characters matches; one more is refused", () => {
    const ok = `src/${"a".repeat(MAX_GLOB_LENGTH - 7)}/**`;
    expect(ok.length).toBe(MAX_GLOB_LENGTH);
    expect(compileGlob(ok)(`src/${"a".repeat(MAX_GLOB_LENGTH - 7)}/x.ts`)).toBe(true);
    const long = `${ok}x`;
    expect(() => compileGlob(long)).toThrow(GlobError);
    expect(() => compileGlob(long)).toThrow(
      `the glob "${long.slice(0, 77)}..." is ${MAX_GLOB_LENGTH + 1} characters long; a glob may have at most ${MAX_GLOB_LENGTH}`,
    );
  });

  it("nesting: 32 levels of ( or { match as picomatch says; 33 are refused", () => {
    const deep = (d: number): string => `${"@(".repeat(d)}a${")".repeat(d)}/${"{b,".repeat(2)}c}}`;
    const t = compileGlob(deep(MAX_GLOB_NESTING - 2));
    const re = picomatch.makeRe(deep(MAX_GLOB_NESTING - 2), { dot: true, windows: false });
    for (const p of ["a/b", "a/c", "b/c", "a"]) expect(t(p)).toBe(re.test(p));
    expect(t("a/c")).toBe(true);
    expect(() => compileGlob(`${"(".repeat(MAX_GLOB_NESTING + 1)}a`)).toThrow(`nests ( or { more than ${MAX_GLOB_NESTING} deep`);
  });

  it("a backreference is refused; a spec holding one is invalid, the problem at the glob's line (and governance names the spec)", () => {
    expect(() => compileGlob("{a,b}\\1")).toThrow('the glob "{a,b}\\\\1" cannot be matched in linear time (backreference \\1)');
    const file = validateSpecText(".notarai/x.spec.yaml", specYaml({ artifacts: { code: ["src/**", "{a,b}\\1"] } }));
    expect(file.problems.map((p) => ({ path: p.path, line: p.line, code: p.code, message: p.message }))).toEqual([
      {
        path: "artifacts.code[1].path",
        line: file.text.split("\n").findIndex((l) => l.includes("{a,b}")) + 1,
        code: "glob-unsupported",
        message: 'the glob "{a,b}\\\\1" cannot be matched in linear time (backreference \\1)',
      },
    ]);
    // An invalid spec governs only its own file; were its data used anyway, governance refuses the glob naming the spec.
    const specs = buildSpecSet([{ ...file, problems: [], data: validateSpecText(file.path, specYaml({ artifacts: { code: ["src/**"] } })).data }]);
    specs.files[0]!.data!.artifacts["code"]!.push({ path: "{a,b}\\1" });
    let error: unknown;
    try {
      buildGovernance(specs);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GlobError);
    expect((error as GlobError).code).toBe("glob-unsupported");
    expect((error as GlobError).message).toBe('the glob "{a,b}\\\\1" in .notarai/x.spec.yaml cannot be matched in linear time (backreference \\1)');
  });

  it("a glob whose expression V8 rejects matches nothing, as with picomatch", () => {
    expect(picomatch.makeRe("{a", { dot: true }).source).toBe("$^");
    expect(compileGlob("{a")("{a")).toBe(false);
    expect(compileGlob("{a")("a")).toBe(false);
  });
});

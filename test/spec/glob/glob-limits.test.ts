/**
 * The globs the matcher refuses, each with one message naming the glob (and the spec file
 * holding it): longer than MAX_GLOB_LENGTH, `(`/`{` nested deeper than MAX_GLOB_NESTING, a
 * backreference. Everything shorter still matches as picomatch does.
 */
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { buildGovernance, buildSpecSet, compileGlob, validateSpecText } from "../../../src/internal.js";
import { GlobError, MAX_GLOB_LENGTH, MAX_GLOB_NESTING } from "../../../src/spec/glob.js";
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

  it("a backreference is refused, naming the spec file when it is a spec's glob", () => {
    expect(() => compileGlob("{a,b}\\1")).toThrow('the glob "{a,b}\\\\1" cannot be matched in linear time (backreference \\1)');
    const specs = buildSpecSet([validateSpecText(".notarai/x.spec.yaml", specYaml({ artifacts: { code: ["src/**", "{a,b}\\1"] } }))]);
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

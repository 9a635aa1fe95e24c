/**
 * Path containment over a real directory tree with symbolic links: PathContainment (cached
 * directory real paths, one lstat per path) answers exactly what resolving each path's
 * real path from scratch answers, for paths inside, outside, through links, and not there.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { containPath, PathContainment, PathOutsideRepoError } from "../../src/fsx/contain-path.js";

const base = mkdtempSync(join(tmpdir(), "nr-contain-"));
const root = join(base, "repo");
const outside = join(base, "outside");
for (const d of ["a/b", "c", "linked-target"]) mkdirSync(join(root, d), { recursive: true });
mkdirSync(outside, { recursive: true });
for (const f of ["a/x.md", "a/b/y.md", "c/z.md", "linked-target/t.md"]) writeFileSync(join(root, f), "x");
writeFileSync(join(outside, "secret"), "s");
symlinkSync(join(root, "linked-target"), join(root, "a/inside-dir-link"));
symlinkSync(outside, join(root, "c/outside-dir-link"));
symlinkSync(join(outside, "secret"), join(root, "c/outside-file-link"));
symlinkSync(join(root, "a/x.md"), join(root, "c/inside-file-link"));
symlinkSync(join(root, "nowhere"), join(root, "c/dangling-link"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The definition: the real path of the path (or of its nearest existing ancestor, then the rest), relative to the real root. */
function byDefinition(abs: string): string | "outside" {
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      const parent = join(p, "..");
      return parent === p ? p : join(real(parent), p.slice(p.lastIndexOf(sep) + 1));
    }
  };
  const rel = relative(realpathSync(root), real(abs));
  return rel === ".." || rel.startsWith(`..${sep}`) || rel.startsWith(sep) ? "outside" : rel.split(sep).join("/");
}

const NAMES = ["a", "b", "c", "x.md", "y.md", "z.md", "..", ".", "missing", "inside-dir-link", "outside-dir-link", "outside-file-link", "inside-file-link", "dangling-link", "t.md", "linked-target"];

describe("PathContainment", () => {
  it("answers what the real path of each path answers, one instance for many paths", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }), (paths) => {
        const c = new PathContainment(root);
        for (const parts of paths) {
          const given = parts.join("/");
          const want = byDefinition(join(root, given));
          const got = (): string => c.contain(given, root);
          if (want === "outside") expect(got).toThrow(PathOutsideRepoError);
          else {
            expect(got()).toBe(want);
            expect(containPath(given, root, root)).toBe(want);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it("examples", () => {
    const c = new PathContainment(root);
    expect(c.contain("a/inside-dir-link/t.md", root)).toBe("linked-target/t.md");
    expect(c.contain("c/inside-file-link", root)).toBe("a/x.md");
    expect(c.contain("c/dangling-link", root)).toBe("c/dangling-link");
    expect(c.contain("new/dir/file.md", root)).toBe("new/dir/file.md");
    expect(c.contain(".", root)).toBe("");
    expect(() => c.contain("c/outside-file-link", root)).toThrow(PathOutsideRepoError);
    expect(() => c.contain("c/outside-dir-link/secret", root)).toThrow(PathOutsideRepoError);
    expect(() => c.contain("../outside/secret", root)).toThrow(PathOutsideRepoError);
    expect(() => c.contain(join(outside, "secret"), root)).toThrow(PathOutsideRepoError);
  });
});

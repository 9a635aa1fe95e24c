/**
 * Path containment over a real directory tree with symbolic links: PathContainment (cached
 * directory real paths, one lstat per path) answers exactly what resolving each path's
 * real path from scratch answers, for paths inside, outside, through links, and not there.
 */
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
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
symlinkSync(join(outside, "missing/file.md"), join(root, "c/dangling-out"));
symlinkSync("../c/dangling-out", join(root, "a/chain-out"));
symlinkSync("loop-b", join(root, "c/loop-a"));
symlinkSync("loop-a", join(root, "c/loop-b"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/**
 * The definition: the real path of the path (or of its nearest existing ancestor, then the
 * rest), a dangling link followed to where its target would be (a loop is left as it is),
 * relative to the real root.
 */
function byDefinition(abs: string): string | "outside" {
  const real = (p: string, hops = 0): string => {
    try {
      return realpathSync(p);
    } catch {
      let link: string | null = null;
      try {
        link = lstatSync(p).isSymbolicLink() ? readlinkSync(p) : null;
      } catch {
        link = null;
      }
      if (link !== null && hops < 40) return real(resolve(real(join(p, ".."), hops + 1), link), hops + 1);
      const parent = join(p, "..");
      return parent === p ? p : join(real(parent, hops), p.slice(p.lastIndexOf(sep) + 1));
    }
  };
  const rel = relative(realpathSync(root), real(abs));
  return rel === ".." || rel.startsWith(`..${sep}`) || rel.startsWith(sep) ? "outside" : rel.split(sep).join("/");
}

const NAMES = [
  "a",
  "b",
  "c",
  "x.md",
  "y.md",
  "z.md",
  "..",
  ".",
  "missing",
  "inside-dir-link",
  "outside-dir-link",
  "outside-file-link",
  "inside-file-link",
  "dangling-link",
  "dangling-out",
  "chain-out",
  "loop-a",
  "t.md",
  "linked-target",
];

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
    // A dangling link is followed to where its target would be: inside, or (through a chain too) outside.
    expect(c.contain("c/dangling-link", root)).toBe("nowhere");
    expect(c.contain("c/dangling-link/new.md", root)).toBe("nowhere/new.md");
    expect(() => c.contain("c/dangling-out", root)).toThrow(PathOutsideRepoError);
    expect(() => c.contain("a/chain-out", root)).toThrow(PathOutsideRepoError);
    expect(c.contain("c/loop-a", root)).toBe("c/loop-a");
    expect(c.contain("new/dir/file.md", root)).toBe("new/dir/file.md");
    expect(c.contain(".", root)).toBe("");
    expect(() => c.contain("c/outside-file-link", root)).toThrow(PathOutsideRepoError);
    expect(() => c.contain("c/outside-dir-link/secret", root)).toThrow(PathOutsideRepoError);
    expect(() => c.contain("../outside/secret", root)).toThrow(PathOutsideRepoError);
    expect(() => c.contain(join(outside, "secret"), root)).toThrow(PathOutsideRepoError);
  });
});

/**
 * removeTrees (many removals in flight) leaves exactly what one `rmSync` after another leaves:
 * generated trees of directories, files and symlinks (to siblings kept, to outside, dangling),
 * a generated choice of trees to remove (some of them missing). Symlinks are removed, never
 * followed. Two identical copies on the real disk, one per way, compared entry by entry.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { removeTrees } from "../../src/fsx/remove-trees.js";
import { tempDir } from "../helpers/temp-repo.js";

type Node = { kind: "file"; text: string } | { kind: "link"; to: string } | { kind: "dir"; children: Record<string, Node> };

const name = fc.constantFrom("a", "b", "c", "d", "e");
const tree: fc.Arbitrary<Record<string, Node>> = fc.letrec<{ node: Node; dir: Record<string, Node> }>((t) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({ kind: fc.constant("file" as const), text: fc.string({ maxLength: 8 }) }),
    fc.record({ kind: fc.constant("link" as const), to: fc.constantFrom("../kept", "../../outside", "nowhere", "../a") }),
    fc.record({ kind: fc.constant("dir" as const), children: t("dir") }),
  ),
  dir: fc.dictionary(name, t("node"), { maxKeys: 4 }),
})).dir;

function build(root: string, children: Record<string, Node>): void {
  mkdirSync(root, { recursive: true });
  for (const [k, n] of Object.entries(children)) {
    const p = join(root, k);
    if (n.kind === "file") writeFileSync(p, n.text);
    else if (n.kind === "link") symlinkSync(n.to, p);
    else build(p, n.children);
  }
}

function listing(root: string, rel = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, rel)).sort()) {
    const r = rel === "" ? e : `${rel}/${e}`;
    const st = lstatSync(join(root, r));
    if (st.isSymbolicLink()) out.push(`${r} -> ${readlinkSync(join(root, r))}`);
    else if (st.isDirectory()) out.push(`${r}/`, ...listing(root, r));
    else out.push(`${r} = ${readFileSync(join(root, r), "utf8")}`);
  }
  return out;
}

describe("removeTrees", () => {
  it("leaves what rmSync one by one leaves, following no symlink", async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.subarray(["a", "b", "c", "d", "e", "kept/a", "missing"]), fc.integer({ min: 1, max: 8 }), async (t, chosen, n) => {
        const base = tempDir("nr-rm-");
        try {
          for (const side of ["one", "two"]) {
            build(join(base, side, "work"), t);
            build(join(base, side, "work/kept"), { a: { kind: "file", text: "kept" }, b: { kind: "dir", children: {} } });
            build(join(base, side, "outside"), { x: { kind: "file", text: "outside" } });
          }
          for (const c of chosen) rmSync(join(base, "one/work", c), { recursive: true, force: true });
          await removeTrees(
            chosen.map((c) => join(base, "two/work", c)),
            n,
          );
          expect(listing(join(base, "two"))).toEqual(listing(join(base, "one")));
          expect(readFileSync(join(base, "two/outside/x"), "utf8")).toBe("outside");
        } finally {
          rmSync(base, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  });

  it("throws the first failure after every other removal is done", async () => {
    const base = tempDir("nr-rm-");
    build(base, { a: { kind: "dir", children: { f: { kind: "file", text: "1" } } }, b: { kind: "file", text: "2" } });
    // A path through a file: ENOTDIR, which force does not hide.
    await expect(removeTrees([join(base, "b/under"), join(base, "a")], 2)).rejects.toMatchObject({ code: "ENOTDIR" });
    expect(readdirSync(base)).toEqual(["b"]);
    rmSync(base, { recursive: true, force: true });
  });
});

/**
 * The house reads from the ground up: each folder of src/ sits on a layer, and imports only go
 * to its own layer or lower ones — from the shells (the CLI, the MCP server, the HTTP binding, the language server)
 * down through the run loop, the workspace tools, checking, reconciliation, the cache, the specs' governance
 * and configuration, the I/O step of editing, transcripts and capabilities, the patch engine,
 * the validator and the parser, to the ground (git, the file system, processes). No folder
 * imports a folder that imports it back, and no file a file that imports it back. A new
 * folder must be given its layer here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

/** Top to bottom. A folder (or a file at the top of src/) may import its own layer and those below it. */
const LAYERS: readonly (readonly string[])[] = [
  ["cli", "mcp", "http", "lsp", "index.ts", "internal.ts"],
  ["runs", "demo"],
  ["workspace", "init", "hooks"],
  ["check"],
  ["reconcile"],
  ["cache"],
  ["governance", "config"],
  ["editing", "verify"],
  ["capability", "transcript", "report"],
  ["patch"],
  ["validate"],
  ["noma", "yaml", "sqlite"],
  ["git", "github", "fsx", "process", "layout", "errors", "version.ts", "sorted-index-of.ts", "vendored.ts"],
];

interface Edge {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f));
}

/** Every relative import of every source file (static, dynamic and re-exports, types included), as src-relative paths. */
function importEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = normalize(join(dirname(file), m[1]!)).replace(/\.js$/, ".ts");
      edges.push({ from: relative(SRC, file), to: relative(SRC, target) });
    }
  }
  return edges;
}

/** The folder (or top-level file) a src-relative path belongs to. */
const room = (path: string): string => path.split("/")[0]!;

/** Strongly connected components with more than one member (Tarjan). */
function cycles(nodes: Iterable<string>, next: (n: string) => Iterable<string>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const n of nodes) if (!idx.has(n)) visit(n);
  return out;
}

function graph(edges: readonly Edge[], key: (p: string) => string): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const e of edges) {
    const a = key(e.from);
    const b = key(e.to);
    if (!g.has(a)) g.set(a, new Set());
    if (!g.has(b)) g.set(b, new Set());
    if (a !== b) g.get(a)!.add(b);
  }
  return g;
}

describe("the structure of src/", () => {
  const edges = importEdges();

  it("finds the imports it judges", () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: "cli/main.ts", to: "version.ts" });
  });

  it("no folder imports a folder that imports it back", () => {
    const g = graph(edges, room);
    const found = cycles(g.keys(), (n) => g.get(n) ?? []).map((c) =>
      c
        .map((a) => `${a} -> ${[...(g.get(a) ?? [])].filter((b) => c.includes(b)).join(",")}`)
        .concat(edges.filter((e) => c.includes(room(e.from)) && c.includes(room(e.to)) && room(e.from) !== room(e.to)).map((e) => `  ${e.from} -> ${e.to}`))
        .join("\n"),
    );
    expect(found, found.join("\n\n")).toEqual([]);
  });

  it("no file imports a file that imports it back", () => {
    const g = graph(edges, (p) => p);
    expect(cycles(g.keys(), (n) => g.get(n) ?? [])).toEqual([]);
  });

  it("every folder has a layer, and imports go only to its own layer or lower ones", () => {
    const layerOf = new Map<string, number>();
    LAYERS.forEach((names, i) => {
      for (const n of names) layerOf.set(n, i);
    });
    const rooms = new Set(sourceFiles(SRC).map((f) => room(relative(SRC, f))));
    for (const r of rooms) expect(layerOf.has(r), `src/${r} has no layer in test/architecture.test.ts`).toBe(true);
    const upward = edges.filter((e) => (layerOf.get(room(e.to)) ?? 0) < (layerOf.get(room(e.from)) ?? 0)).map((e) => `${e.from} -> ${e.to}`);
    expect(upward).toEqual([]);
  });
});

describe("the text of src/", () => {
  /** The house's line width (biome.json's lineWidth): Biome wraps code, long strings and comments are wrapped by hand. */
  const MAX_LINE = 160;

  it("finds the lines it judges", () => {
    expect(sourceFiles(SRC).length).toBeGreaterThan(300);
  });

  it(`has no line over ${MAX_LINE} characters`, () => {
    const long: string[] = [];
    for (const file of sourceFiles(SRC)) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (line.length > MAX_LINE) long.push(`src/${relative(SRC, file)}:${i + 1}: ${line.length} characters`);
        });
    }
    expect(long, long.join("\n")).toEqual([]);
  });
});

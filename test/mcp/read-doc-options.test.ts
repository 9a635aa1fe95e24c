/**
 * read_doc's options for large documents, over the real server on stdio: `view: "outline"`,
 * `ids`, and `max_bytes` with its `cursor` — each answer compared with what the library's own
 * parse gives (parseNoma, walkBlocks, the slow per-line block hash), the budget never exceeded
 * and the pages of a budget joining up to the whole answer, nothing lost or repeated (property
 * test over generated documents and budgets); wrong arguments are tool errors naming the
 * argument, what was expected and what was found.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BlockNode, NomaDocument } from "../../src/noma/ast.js";
import { parseNoma } from "../../src/noma/parse-noma.js";
import { rawLinesForHash } from "../../src/noma/split-lines.js";
import { walkBlocks } from "../../src/noma/walk.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "./helpers/mcp-client.js";

interface Answer {
  sha256: string;
  blocks: Array<Record<string, unknown>>;
  truncated?: true;
  next?: string;
  remaining?: number;
}

const DOC = [
  "# Plan {#plan}",
  "",
  "Intro paragraph.",
  "",
  '::claim{id="c1" confidence=0.5 aliases="first"}',
  "Growth is 12 %.",
  "",
  ':::evidence{id="e1" for="c1"}',
  "Measured.",
  ":::",
  "::",
  "",
  "## Risks {#risks}",
  "",
  "- one",
  "- two",
  "",
  '::claim{id="c2" confidence=0.9}',
  "Costs fall.",
  "::",
  "",
].join("\n");

const idOf = (n: BlockNode): string | undefined => {
  const id = n.type === "section" || n.type === "directive" ? n.id : undefined;
  return id !== undefined && id.length > 0 ? id : undefined;
};

/** Annex B.3's block summary from the library's parse, hashed the slow way (per line). */
function expectedFull(doc: NomaDocument, n: BlockNode): Record<string, unknown> {
  const id = idOf(n);
  const attrs = n.type === "directive" ? Object.fromEntries(Object.entries(n.attrs).filter(([k]) => k !== "id")) : undefined;
  const aliases = (n.type === "section" || n.type === "directive") && n.aliases.length > 0 ? [...n.aliases] : undefined;
  return {
    ...(id !== undefined ? { id } : {}),
    type: n.type,
    ...(n.type === "directive" ? { name: n.name, attrs } : {}),
    ...(n.type === "section" ? { title: n.title, level: n.depth } : {}),
    ...(aliases !== undefined ? { aliases } : {}),
    childCount: n.type === "section" || n.type === "directive" || n.type === "list" ? n.children.length : 0,
    lines: [n.pos.line, n.endLine],
    patchable: id !== undefined,
    ...(id !== undefined
      ? {
          hash: createHash("sha256")
            .update(rawLinesForHash(doc.source, doc.lineStarts, n.pos.line, n.endLine), "utf8")
            .digest("hex"),
        }
      : {}),
  };
}

function expectedOutline(n: BlockNode): Record<string, unknown> {
  const id = idOf(n);
  return {
    ...(id !== undefined ? { id } : {}),
    type: n.type,
    ...(n.type === "directive" ? { name: n.name } : {}),
    ...(n.type === "section" ? { title: n.title, level: n.depth } : {}),
    lines: [n.pos.line, n.endLine],
  };
}

function allBlocks(doc: NomaDocument): BlockNode[] {
  const out: BlockNode[] = [];
  walkBlocks(doc, (n) => {
    out.push(n);
  });
  return out;
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("read_doc options", () => {
  it("the default is the whole document (Annex B.3 fields and hashes, as the library parses it); the answer is one text block", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const r = await c.call("read_doc", { file: "d.noma" });
    expect(r.structuredContent).toBeUndefined();
    const doc = parseNoma(DOC);
    const body = JSON.parse(r.content[0]!.text) as Answer;
    expect(body).toEqual({ sha256: sha(DOC), blocks: allBlocks(doc).map((n) => expectedFull(doc, n)) });
    expect(body.blocks.map((b) => b["id"] ?? b["type"])).toEqual([
      "plan",
      "paragraph",
      "c1",
      "paragraph",
      "e1",
      "paragraph",
      "risks",
      "list",
      "c2",
      "paragraph",
    ]);
    // view "full" is the default spelled out.
    expect(await c.ok("read_doc", { file: "d.noma", view: "full" })).toEqual(body);
    await c.close();
  });

  it('view "outline": the sections and id-carrying blocks, with id, type, name, title, level and lines only', async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const body = await c.ok<Answer>("read_doc", { file: "d.noma", view: "outline" });
    const doc = parseNoma(DOC);
    expect(body).toEqual({
      sha256: sha(DOC),
      blocks: allBlocks(doc)
        .filter((n) => n.type === "section" || idOf(n) !== undefined)
        .map(expectedOutline),
    });
    expect(body.blocks).toEqual([
      { id: "plan", type: "section", title: "Plan", level: 1, lines: [1, 20] },
      { id: "c1", type: "directive", name: "claim", lines: [5, 11] },
      { id: "e1", type: "directive", name: "evidence", lines: [8, 10] },
      { id: "risks", type: "section", title: "Risks", level: 2, lines: [13, 20] },
      { id: "c2", type: "directive", name: "claim", lines: [18, 20] },
    ]);
    await c.close();
  });

  it("ids: the chosen blocks with everything inside them, in document order, each once (aliases resolved); with the outline too", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const doc = parseNoma(DOC);
    const full = allBlocks(doc).map((n) => expectedFull(doc, n));
    const c1 = await c.ok<Answer>("read_doc", { file: "d.noma", ids: ["c1"] });
    expect(c1).toEqual({ sha256: sha(DOC), blocks: full.slice(2, 6) });
    // e1 lies inside c1 (listed once); "first" is c1's alias; c2 comes after, in document order whatever the order given.
    const some = await c.ok<Answer>("read_doc", { file: "d.noma", ids: ["c2", "e1", "first"] });
    expect(some.blocks).toEqual([...full.slice(2, 6), ...full.slice(8, 10)]);
    const risks = await c.ok<Answer>("read_doc", { file: "d.noma", ids: ["risks"], view: "outline" });
    expect(risks.blocks).toEqual([
      { id: "risks", type: "section", title: "Risks", level: 2, lines: [13, 20] },
      { id: "c2", type: "directive", name: "claim", lines: [18, 20] },
    ]);
    await c.close();
  });

  it("max_bytes: pages within the budget, each ending at a block boundary, joining up to the whole answer (property)", async () => {
    const repo = tempRepo({ "seed.noma": DOC });
    const c = new McpClient(repo);
    let n = 0;
    const block = fc.oneof(
      fc.constantFrom("Plain words.", "Ünïcödé prose — “quoted” 😀.", "- a\n- b", "```js\nx = 1\n```", "| a | b |\n|---|---|\n| 1 | 2 |"),
      fc
        .tuple(fc.constantFrom("claim", "evidence", "note"), fc.string({ unit: fc.constantFrom("a", "é", "😀", " ", '"'), maxLength: 40 }))
        .map(([name, v]) => `::${name}{id="ID" owner="${v.replace(/"/g, "'")}"}\nBody ${v}.\n::`),
      fc.integer({ min: 1, max: 3 }).map((d) => `${"#".repeat(d)} Heading {#ID}`),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(block, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 256, max: 1500 }),
        fc.constantFrom<"full" | "outline">("full", "outline"),
        async (parts, budget, view) => {
          let k = 0;
          const text = `${parts.map((p) => p.replace(/ID/g, () => `b${k++}`)).join("\n\n")}\n`;
          const file = `gen-${n++}.noma`;
          writeFileSync(join(repo, file), text);
          const whole = await c.ok<Answer>("read_doc", { file, view });
          const pages: Answer[] = [];
          let cursor: string | undefined;
          for (;;) {
            const r = await c.call("read_doc", { file, view, max_bytes: budget, ...(cursor !== undefined ? { cursor } : {}) });
            if (r.isError === true) {
              // Only a block larger than the whole budget stops the reading, and it says which and how much it needs.
              expect(r.content[0]!.text).toMatch(
                /^max_bytes: expected a budget that holds the next block \(.+: (\d+) bytes with the answer's envelope\), found \d+$/,
              );
              const needed = Number(/: (\d+) bytes/.exec(r.content[0]!.text)![1]);
              expect(needed).toBeGreaterThan(budget);
              return;
            }
            expect(Buffer.byteLength(r.content[0]!.text)).toBeLessThanOrEqual(budget);
            const page = JSON.parse(r.content[0]!.text) as Answer;
            expect(page.sha256).toBe(whole.sha256);
            pages.push(page);
            if (page.truncated !== true) {
              expect(Object.keys(page)).toEqual(["sha256", "blocks"]);
              break;
            }
            expect(page.blocks.length).toBeGreaterThan(0);
            cursor = page.next!;
          }
          expect(pages.flatMap((p) => p.blocks)).toEqual(whole.blocks);
          let left = whole.blocks.length;
          for (const p of pages) {
            left -= p.blocks.length;
            if (p.truncated === true) expect(p.remaining).toBe(left);
          }
          expect(left).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
    await c.close();
  });

  it("a budget the whole answer fits in changes nothing; a full budget stops exactly at the last block that fits", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const whole = (await c.call("read_doc", { file: "d.noma" })).content[0]!.text;
    expect((await c.call("read_doc", { file: "d.noma", max_bytes: Buffer.byteLength(whole) })).content[0]!.text).toBe(whole);
    const page = await c.ok<Answer>("read_doc", { file: "d.noma", max_bytes: Buffer.byteLength(whole) - 1 });
    expect(page.truncated).toBe(true);
    const body = JSON.parse(whole) as Answer;
    expect(page.blocks).toEqual(body.blocks.slice(0, body.blocks.length - (page.remaining ?? 0)));
    expect(page.remaining).toBeGreaterThan(0);
    await c.close();
  });

  it("wrong arguments are tool errors naming the argument, what was expected and what was found", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const f = (args: Record<string, unknown>) => c.fails("read_doc", { file: "d.noma", ...args });
    expect(await f({ view: "tree" })).toBe('invalid arguments for read_doc: view: expected "full" or "outline", found string "tree"');
    expect(await f({ view: 1 })).toBe('invalid arguments for read_doc: view: expected "full" or "outline", found number 1');
    expect(await f({ ids: "c1" })).toBe('invalid arguments for read_doc: ids: expected an array of ids, found string "c1"');
    expect(await f({ ids: [] })).toBe("invalid arguments for read_doc: ids: expected at least one id, found an array []");
    expect(await f({ ids: [7] })).toBe("invalid arguments for read_doc: ids.0: expected an id (a string), found number 7");
    expect(await f({ max_bytes: -1 })).toBe("invalid arguments for read_doc: max_bytes: expected an integer ≥ 256, found number -1");
    expect(await f({ max_bytes: "4096" })).toBe('invalid arguments for read_doc: max_bytes: expected an integer ≥ 256, found string "4096"');
    expect(await f({ max_bytes: 300.5 })).toBe("invalid arguments for read_doc: max_bytes: expected an integer ≥ 256, found number 300.5");
    expect(await f({ cursor: 3 })).toBe("invalid arguments for read_doc: cursor: expected the `next` string of an earlier read_doc answer, found number 3");
    expect(await f({ ids: ["c1", "c3", "nope"] })).toBe(
      'ids: expected ids of d.noma, found unknown ids "c3" (did you mean "c1"?), "nope"; list_ids (or view "outline") gives the document\'s ids',
    );
    expect(await f({ cursor: "abc" })).toBe('cursor: expected the `next` string of an earlier read_doc answer, found "abc"');
    await c.close();
  });

  it("a cursor is refused for a document changed since, and with another view or other ids", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const page = await c.ok<Answer>("read_doc", { file: "d.noma", max_bytes: 700 });
    expect(page.truncated).toBe(true);
    expect(await c.fails("read_doc", { file: "d.noma", cursor: page.next!, view: "outline" })).toBe(
      "cursor: it was given for another view or other ids; pass the same view and ids as the call that returned it",
    );
    const rest = await c.ok<Answer>("read_doc", { file: "d.noma", cursor: page.next! });
    expect(rest.truncated).toBeUndefined();
    writeFileSync(join(repo, "d.noma"), `${DOC}\nMore.\n`);
    expect(await c.fails("read_doc", { file: "d.noma", max_bytes: 700, cursor: page.next! })).toBe(
      `cursor: the document changed since the answer that gave it (sha256 ${sha(DOC).slice(0, 16)}…, now ${sha(`${DOC}\nMore.\n`).slice(0, 16)}…); ` +
        "read it again without cursor",
    );
    await c.close();
  });
});

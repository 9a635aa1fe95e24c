/**
 * Navigation, symbols, completion and hover through the real server, on a book: a link or a
 * reference attribute leads to its block in the chapter or in another chapter of the book
 * (book mode: a scoped section, an unscoped alias, a filename slug), references are found
 * across the chapters, and a chapter's links into the book are no findings, as `check` says.
 */
import { describe, expect, it } from "vitest";
import {
  CompletionRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ReferencesRequest,
  WorkspaceSymbolRequest,
  type CompletionItem,
  type DocumentSymbol,
  type Location,
  type SymbolInformation,
} from "vscode-languageserver-protocol/node";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { LspClient, positionOf, uriOf } from "./helpers/lsp-client.js";

const INTRO = [
  "# Intro",
  "",
  "See [[risks]] and [[mitigation]].",
  "",
  '::claim{id="c-intro" confidence=0.5 aliases="growth"}',
  "Growth, as [[r-main]] warns.",
  "::",
  "",
  '::evidence{id="e1" for="c-intro"}',
  "Data.",
  "::",
  "",
].join("\n");

const RISKS = ["# Risks", "", "## Mitigation", "", '::risk{id="r-main" owner="ana"}', "The main risk; see [[c-intro]] and [[growth]].", "::", ""].join("\n");

const BOOK = "title: Guide\nchapters:\n  - 01-intro.noma\n  - 02-risks.noma\n";

function repo(): string {
  return tempRepo({
    "book/book.noma.yml": BOOK,
    "book/01-intro.noma": INTRO,
    "book/02-risks.noma": RISKS,
    "notes/other.noma": '# Other\n\n::claim{id="r-other"}\nX.\n::\n',
  });
}

describe("navigation across a book", () => {
  it("go to definition: a link into another chapter, a scoped section through its alias, a for= in the chapter", async () => {
    const root = repo();
    const client = new LspClient(root);
    await client.initialize();
    const intro = await client.open("book/01-intro.noma");
    const risks = uriOf(root, "book/02-risks.noma");
    const def = (needle: string, delta = 2) =>
      client.connection.sendRequest(DefinitionRequest.type, {
        textDocument: { uri: intro },
        position: positionOf(INTRO, needle, delta),
      }) as Promise<Location | null>;
    // [[r-main]] → the id of the ::risk in chapter 2.
    expect(await def("[[r-main]]", 4)).toEqual({ uri: risks, range: { start: { line: 4, character: 11 }, end: { line: 4, character: 17 } } });
    // [[mitigation]]: book mode scopes it risks/mitigation and keeps "mitigation" as an alias: the heading's title.
    expect(await def("[[mitigation]]", 3)).toEqual({ uri: risks, range: { start: { line: 2, character: 3 }, end: { line: 2, character: 13 } } });
    // [[risks]]: the filename slug, an alias of chapter 2's root section.
    expect(await def("[[risks]]", 3)).toEqual({ uri: risks, range: { start: { line: 0, character: 2 }, end: { line: 0, character: 7 } } });
    // for="c-intro" → the claim's id in this chapter.
    expect(await def('for="c-intro"', 6)).toEqual({ uri: intro, range: { start: { line: 4, character: 12 }, end: { line: 4, character: 19 } } });
    // Not on a name: nothing.
    expect(await def("Data.", 1)).toBeNull();
  });

  it("references of an id: across the chapters, through its alias too; with the declaration when asked", async () => {
    const root = repo();
    const client = new LspClient(root);
    await client.initialize();
    const intro = await client.open("book/01-intro.noma");
    const risks = uriOf(root, "book/02-risks.noma");
    const refs = (await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: intro },
      position: positionOf(INTRO, 'id="c-intro"', 5),
      context: { includeDeclaration: true },
    })) as Location[];
    expect(refs).toEqual([
      { uri: intro, range: { start: { line: 4, character: 12 }, end: { line: 4, character: 19 } } },
      { uri: intro, range: { start: { line: 8, character: 24 }, end: { line: 8, character: 31 } } },
      { uri: risks, range: { start: { line: 5, character: 21 }, end: { line: 5, character: 28 } } },
      { uri: risks, range: { start: { line: 5, character: 37 }, end: { line: 5, character: 43 } } },
    ]);
  });

  it("a chapter's links into its book are no findings (as check says); a link that resolves nowhere names the book", async () => {
    const root = repo();
    const client = new LspClient(root);
    await client.initialize();
    const intro = await client.open("book/01-intro.noma");
    expect((await client.diagnostics(intro, 1)).diagnostics).toEqual([]);
    expect(runCli(["check", "book/01-intro.noma"], { cwd: root }).code).toBe(0);
    const v = await client.edit(intro, "Data.", "Data, see [[nowhere]].");
    const found = (await client.diagnostics(intro, v)).diagnostics;
    expect(found.map((d) => [d.code, d.message, d.range.start])).toEqual([
      ["broken-reference", "[[nowhere]] points at an id that does not exist in book book/book.noma.yml.", { line: 9, character: 10 }],
    ]);
    // The other chapter, opened, changes what this one resolves: a new section there makes the link good.
    const risks = await client.open("book/02-risks.noma");
    await client.diagnostics(risks, 1);
    await client.edit(risks, "## Mitigation", "## Mitigation\n\n## Nowhere");
    const again = await client.diagnostics(intro, v, (p) => p.diagnostics.length === 0);
    expect(again.diagnostics).toEqual([]);
  });

  it("document symbols (sections and id-bearing blocks, nested) and workspace symbols (every id of the repository)", async () => {
    const root = repo();
    const client = new LspClient(root);
    await client.initialize();
    const intro = await client.open("book/01-intro.noma");
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: intro } })) as DocumentSymbol[];
    const shape = (s: DocumentSymbol): unknown => [s.name, s.detail, s.range.start.line, s.range.end.line, (s.children ?? []).map(shape)];
    expect(symbols.map(shape)).toEqual([
      [
        "Intro",
        "#intro",
        0,
        10,
        [
          ["c-intro", "::claim", 4, 6, []],
          ["e1", "::evidence", 8, 10, []],
        ],
      ],
    ]);
    const ws = (await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: "r-" })) as SymbolInformation[];
    expect(ws.map((s) => [s.name, s.location.uri, s.location.range.start.line, s.containerName])).toEqual([
      ["r-main", uriOf(root, "book/02-risks.noma"), 4, "book/02-risks.noma ::risk"],
      ["r-other", uriOf(root, "notes/other.noma"), 2, "notes/other.noma ::claim"],
    ]);
    const all = (await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: "" })) as SymbolInformation[];
    expect(all.map((s) => s.name).sort()).toEqual(["c-intro", "e1", "intro", "mitigation", "other", "r-main", "r-other", "risks"]);
  });
});

describe("completion and hover", () => {
  it("completes ids and aliases in [[ and in for=, directive names after ::, a directive's attribute keys", async () => {
    const root = repo();
    const client = new LspClient(root);
    await client.initialize();
    const intro = await client.open("book/01-intro.noma");
    const complete = async (line: string): Promise<CompletionItem[]> => {
      const v = client.buffers.get(intro)!;
      const text = `${v.text}${line}`;
      await client.edit(intro, v.text, text);
      const lines = text.split("\n");
      return (await client.connection.sendRequest(CompletionRequest.type, {
        textDocument: { uri: intro },
        position: { line: lines.length - 1, character: lines[lines.length - 1]!.length },
      })) as CompletionItem[];
    };
    const link = await complete("More in [[r-");
    const labels = link.map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(["c-intro", "e1", "intro", "growth", "r-main", "risks/mitigation", "mitigation", "risks"]));
    expect(link.find((i) => i.label === "r-main")).toMatchObject({ detail: "::risk (book/02-risks.noma)", textEdit: { newText: "r-main" } });
    expect(link.find((i) => i.label === "growth")).toMatchObject({ detail: "alias of c-intro" });
    const attr = await complete('\n::evidence{id="e2" for="c');
    expect(attr.map((i) => i.label)).toEqual(expect.arrayContaining(["c-intro", "r-main"]));
    const names = await complete("\n::cl");
    expect(names.map((i) => i.label)).toEqual(expect.arrayContaining(["claim", "citation", "evidence", "risk"]));
    expect(names.find((i) => i.label === "claim")).toMatchObject({ detail: "directive (used in this document)" });
    const keys = await complete('\n::claim{id="c9" ');
    expect(keys.map((i) => i.label)).toEqual(["confidence", "aliases", "noverify"]);
  });

  it("hover on an id: its kind, attributes and references; on a link: the target's first lines", async () => {
    const root = repo();
    const client = new LspClient(root);
    await client.initialize();
    const intro = await client.open("book/01-intro.noma");
    const onLink = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: intro }, position: positionOf(INTRO, "[[r-main]]", 3) });
    expect(onLink?.range).toEqual({ start: { line: 5, character: 13 }, end: { line: 5, character: 19 } });
    expect((onLink!.contents as { value: string }).value).toBe(
      [
        "**::risk** `r-main` — book/02-risks.noma:5",
        "",
        '- `owner` = `"ana"`',
        "",
        "1 reference points at it",
        "",
        "```noma",
        '::risk{id="r-main" owner="ana"}',
        "The main risk; see [[c-intro]] and [[growth]].",
        "::",
        "```",
      ].join("\n"),
    );
    const onId = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: intro }, position: positionOf(INTRO, 'id="c-intro"', 6) });
    expect((onId!.contents as { value: string }).value).toBe(
      [
        "**::claim** `c-intro` — book/01-intro.noma:5",
        "",
        "- `confidence` = `0.5`",
        '- `aliases` = `"growth"`',
        "",
        "aliases: `growth`",
        "",
        "3 references point at it",
      ].join("\n"),
    );
  });
});

/**
 * The pure pieces of `init`: merging our server into `.mcp.json` text,
 * adding the cache to `.gitignore` text, reading version lines, ordering
 * versions.
 */
import { describe, expect, it } from "vitest";
import { mergeMcpJson, McpJsonError } from "../../src/init/merge-mcp-json.js";
import { addGitignoreEntry } from "../../src/init/add-gitignore-entry.js";
import { compareVersions } from "../../src/init/compare-versions.js";
import { readmeVersion, readmeVersionLine, schemaGeneratorVersion } from "../../src/init/notarai-files.js";
import { specSchemaJson, TOOL_VERSION } from "../../src/internal.js";

const ENTRY = { type: "stdio", command: "npx", args: ["--no", "noma-reconcile", "mcp"] };

describe("mergeMcpJson", () => {
  it("creates, adds, keeps, replaces", () => {
    const created = mergeMcpJson(null, "noma-reconcile", ENTRY);
    expect(created.action).toBe("create");
    expect(JSON.parse(created.text)).toEqual({ mcpServers: { "noma-reconcile": ENTRY } });
    expect(mergeMcpJson(created.text, "noma-reconcile", ENTRY)).toEqual({ text: created.text, action: "unchanged" });
    const other = '{"mcpServers":{"noma-reconcile":{"command":"node"}}}';
    expect(mergeMcpJson(other, "noma-reconcile", ENTRY)).toEqual({ text: other, action: "keep" });
    const replaced = mergeMcpJson(other, "noma-reconcile", ENTRY, { force: true });
    expect(replaced.action).toBe("replace");
    expect(JSON.parse(replaced.text).mcpServers["noma-reconcile"]).toEqual(ENTRY);
    const added = mergeMcpJson("{}", "noma-reconcile", ENTRY);
    expect(added.action).toBe("add");
    expect(added.text).toBe(
      '{\n  "mcpServers": {\n    "noma-reconcile": {\n      "type": "stdio",\n      "command": "npx",\n      "args": [\n        "--no",\n        "noma-reconcile",\n        "mcp"\n      ]\n    }\n  }\n}',
    );
  });

  it("keeps tabs, CRLF and a byte-order mark", () => {
    const text = '\uFEFF{\r\n\t"mcpServers": {\r\n\t\t"a": {"command": "a"}\r\n\t}\r\n}\r\n';
    const out = mergeMcpJson(text, "noma-reconcile", ENTRY).text;
    expect(out.startsWith('\uFEFF{\r\n\t"mcpServers": {\r\n\t\t"a": {\r\n')).toBe(true);
    expect(out.endsWith("}\r\n")).toBe(true);
    expect(out.replace(/\r\n/g, "").includes("\n")).toBe(false);
  });

  it("treats key order as irrelevant when comparing entries", () => {
    const same = JSON.stringify({ mcpServers: { "noma-reconcile": { args: ENTRY.args, command: "npx", type: "stdio" } } });
    expect(mergeMcpJson(same, "noma-reconcile", ENTRY).action).toBe("unchanged");
  });

  it("throws McpJsonError with the position for invalid JSON", () => {
    try {
      mergeMcpJson('{\n  "mcpServers": {,}\n}', "noma-reconcile", ENTRY);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(McpJsonError);
      expect((e as McpJsonError).line).toBe(2);
      expect((e as McpJsonError).column).toBe(18);
      expect((e as Error).message).toMatch(/^\.mcp\.json:2:18: not valid JSON/);
    }
    expect(() => mergeMcpJson("", "noma-reconcile", ENTRY)).toThrow(/\.mcp\.json:1:1: not valid JSON/);
    expect(() => mergeMcpJson("null", "noma-reconcile", ENTRY)).toThrow(/top level must be a JSON object/);
  });
});

describe("addGitignoreEntry", () => {
  it("adds once, recognising equivalent spellings but not comments or negations", () => {
    expect(addGitignoreEntry(null, ".notarai/.cache/")).toEqual({ text: ".notarai/.cache/\n", changed: true });
    for (const existing of [".notarai/.cache/", ".notarai/.cache", "/.notarai/.cache/", ".notarai/.cache/**", "  .notarai/.cache/*  "]) {
      expect(addGitignoreEntry(`x\n${existing}\n`, ".notarai/.cache/").changed, existing).toBe(false);
    }
    expect(addGitignoreEntry("# .notarai/.cache/\n", ".notarai/.cache/").changed).toBe(true);
    expect(addGitignoreEntry("!.notarai/.cache/\n", ".notarai/.cache/").changed).toBe(true);
    expect(addGitignoreEntry(".notarai/\n", ".notarai/.cache/").changed).toBe(true);
    expect(addGitignoreEntry("a", ".notarai/.cache/", "why").text).toBe("a\n# why\n.notarai/.cache/\n");
  });
});

describe("versions", () => {
  it("orders versions the semver way", () => {
    expect(compareVersions("0.1.0", "0.1.0")).toBe(0);
    expect(compareVersions("0.1.9", "0.1.10")).toBe(-1);
    expect(compareVersions("1.0.0", "0.99.99")).toBe(1);
    expect(compareVersions("1.0.0-rc.1", "1.0.0")).toBe(-1);
    expect(compareVersions("1.0.0-rc.2", "1.0.0-rc.10")).toBe(-1);
    expect(compareVersions("1.0.0-alpha", "1.0.0-beta")).toBe(-1);
    expect(compareVersions("v1.2", "1.2.0")).toBe(0);
    expect(compareVersions("1.0.0+build", "1.0.0")).toBe(0);
  });

  it("reads back the README version line and the schema's generator version", () => {
    expect(readmeVersion(`${readmeVersionLine("1.2.3")}\n\ntext`)).toBe("1.2.3");
    expect(readmeVersion("\uFEFF# noma-reconcile -- 0.1.0-rc.1\r\n")).toBe("0.1.0-rc.1");
    expect(readmeVersion("# NotarAI\n# noma-reconcile -- 1.0.0\n")).toBeNull();
    expect(schemaGeneratorVersion(specSchemaJson())).toBe(TOOL_VERSION);
    expect(schemaGeneratorVersion({ description: "something else" })).toBeNull();
    expect(schemaGeneratorVersion(null)).toBeNull();
  });
});

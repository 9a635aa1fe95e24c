// Regenerate the generated blocks of docs/ from the built CLI and library:
//   <!-- BEGIN GENERATED: <name> (node scripts/generate-docs.mjs) --> … <!-- END GENERATED: <name> -->
// - mcp-tools (docs/mcp.md): the tools the real MCP server lists (`tools/list`), with their
//   arguments, annotations and descriptions;
// - patch-ops (docs/documents.md): the ops of `schema patch-op`, with their fields;
// - rule-codes, check-codes (docs/documents.md): the library's RULES and CHECK_CODES.
// Run after `npm run build`: `node scripts/generate-docs.mjs` rewrites the blocks in place,
// `--check` only reports stale ones (exit 1). test/docs/readme.test.ts checks the same
// facts against the real server and library, independently of this script.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist/cli.cjs");

/** One-line descriptions of the ops (the schema carries none); an op missing here is shown with "—". */
const OP_DESCRIPTIONS = {
  replace_block: "replace a directive (its fences and body) with new Noma source",
  add_block: "add new Noma source as a child of `parent` (a directive or a heading section), at `position` or last",
  delete_block: "delete a block",
  update_attribute: "set an attribute of a directive (`null` removes it)",
  rename_id: "rename an id and retarget `id`, `for`, `parent`, `dataset` and `[[links]]` to it",
  replace_body: "replace a directive's body, keeping its fences",
  update_heading: "change a heading's title",
  add_comment: "add a comment with the new id `id` on `target` (`reply_to` threads it)",
  resolve_comment: "mark a comment resolved",
  remove_attribute: "remove an attribute of a directive",
  add_footnote: "add a footnote on `target`",
  add_endnote: "add an endnote on `target`",
  add_change_request: "add a change request (insert, delete, replace) on `target`",
  update_table_cell: "set one body cell of a `::table`",
  update_table_header_cell: "set one header cell of a `::table`",
  insert_table_row: "insert a body row into a `::table`",
  delete_table_row: "delete a body row of a `::table`",
  insert_table_column: "insert a column into a `::table`",
  delete_table_column: "delete a column of a `::table`",
  update_dataset_cell: "set one value of a `::dataset`",
  insert_dataset_row: "insert a row into a `::dataset`",
  delete_dataset_row: "delete a row of a `::dataset`",
  insert_dataset_column: "insert a column into a `::dataset`",
  delete_dataset_column: "delete a column of a `::dataset`",
  move_block: "move a block under another parent (a directive or a heading section)",
};

const HINTS = [
  ["readOnlyHint", "read-only"],
  ["destructiveHint", "destructive"],
  ["idempotentHint", "idempotent"],
  ["openWorldHint", "open world"],
];

/** `a`, `b?`: the properties of a JSON Schema object, optional ones marked. */
function fields(schema, skip = []) {
  const required = new Set(schema.required ?? []);
  return Object.keys(schema.properties ?? {})
    .filter((k) => !skip.includes(k))
    .map((k) => `\`${k}${required.has(k) ? "" : "?"}\``)
    .join(", ");
}

/** Text for a Markdown table cell or list item: one line, pipes escaped, `<` outside code spans escaped (GitHub would read `<path>` as an HTML tag). */
const cell = (text) =>
  String(text)
    .replace(/\s*\n\s*/g, " ")
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, "&lt;")))
    .join("")
    .replace(/\|/g, "\\|");

function cliJson(args, input) {
  return execFileSync(process.execPath, [cli, ...args], { cwd: root, input, encoding: "utf8", maxBuffer: 1 << 26 });
}

/** The tools of the real server, as `tools/list` answers (the server is stateless: no initialize needed). */
export function listTools() {
  const out = cliJson(["mcp"], `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })}\n`);
  return JSON.parse(out.trim().split("\n")[0]).result.tools;
}

function mcpTools() {
  const tools = listTools();
  const rows = tools.map((t) => {
    const hints = HINTS.filter(([k]) => t.annotations?.[k] === true).map(([, v]) => v);
    return `| \`${t.name}\` | ${fields(t.inputSchema) || "—"} | ${hints.join(", ") || "—"} |`;
  });
  const descriptions = tools.map((t) => `- **\`${t.name}\`** (${t.title}): ${cell(t.description)}`);
  return ["| tool | arguments (`?`: optional) | annotations |", "|---|---|---|", ...rows, "", ...descriptions].join("\n");
}

function patchOps() {
  const schema = JSON.parse(cliJson(["schema", "patch-op"]));
  const rows = schema.anyOf.map((o) => {
    const name = o.properties.op.const;
    return `| \`${name}\` | ${fields(o, ["op"])} | ${OP_DESCRIPTIONS[name] ?? "—"} |`;
  });
  return ["| op | fields (`?`: optional) | does |", "|---|---|---|", ...rows].join("\n");
}

async function library() {
  return import(pathToFileURL(join(root, "dist/index.js")).href);
}

async function ruleCodes() {
  const { RULES } = await library();
  const rows = Object.entries(RULES).map(([code, r]) => `| \`${code}\` | ${r.severity} | ${cell(r.description)} |`);
  return ["| code | severity | means |", "|---|---|---|", ...rows].join("\n");
}

async function checkCodes() {
  const { CHECK_CODES } = await library();
  const rows = Object.entries(CHECK_CODES).map(([code, d]) => `| \`${code}\` | ${cell(d)} |`);
  return ["| code | means |", "|---|---|", ...rows].join("\n");
}

/** Every generated block: name → the file that holds it and its content. */
export async function generatedBlocks() {
  return new Map([
    ["mcp-tools", { file: "docs/mcp.md", content: mcpTools() }],
    ["patch-ops", { file: "docs/documents.md", content: patchOps() }],
    ["rule-codes", { file: "docs/documents.md", content: await ruleCodes() }],
    ["check-codes", { file: "docs/documents.md", content: await checkCodes() }],
  ]);
}

/** `text` with the block `name` holding `content`; null when the file has no such block. */
export function replaceBlock(text, name, content) {
  const begin = new RegExp(`(<!-- BEGIN GENERATED: ${name} [^\\n]*-->\\n)[\\s\\S]*?(<!-- END GENERATED: ${name} -->)`);
  if (!begin.test(text)) return null;
  return text.replace(begin, (_, open, close) => `${open}${content}\n${close}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const check = process.argv.includes("--check");
  const stale = [];
  for (const [name, { file, content }] of await generatedBlocks()) {
    const path = join(root, file);
    const text = readFileSync(path, "utf8");
    const next = replaceBlock(text, name, content);
    if (next === null) throw new Error(`${file}: no "${name}" block (<!-- BEGIN GENERATED: ${name} … --> … <!-- END GENERATED: ${name} -->)`);
    if (next === text) continue;
    stale.push(`${file} (${name})`);
    if (!check) writeFileSync(path, next);
  }
  if (check && stale.length > 0) {
    console.error(`stale generated blocks: ${stale.join(", ")}; run npm run build && node scripts/generate-docs.mjs`);
    process.exitCode = 1;
  } else console.error(stale.length === 0 ? "generated blocks are up to date" : `rewrote ${stale.join(", ")}`);
}

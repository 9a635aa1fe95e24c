/**
 * The coding agent's gate, first step (runs on every tool call, so it loads no parser, no
 * YAML and no zod): which files a tool call writes, and what each one is.
 *
 * Before a tool runs (PreToolUse, BeforeTool):
 * - a write, edit, move or removal of an edit transcript (`*.noma.patches`), of the
 *   evidence ledger or of an archived version: refused, always;
 * - a write or edit of a `.noma` document (the agent's file tools, Codex's apply_patch): handed
 *   to the document step (document-gate.ts), which refuses an existing document's edit with
 *   the op to send instead and lets a new document through only when it is valid;
 * - a shell command that writes a document (sed -i, >, tee, mv/cp onto one, …;
 *   shell-writes.ts): refused with the same guidance; one that may write a document or
 *   transcript the gate cannot name before it runs, and that names one, refused too;
 * - anything else — and every path outside the repository: allowed, with nothing said.
 * After a tool ran (PostToolUse, AfterTool): the files it wrote, for the governance step
 * (post-edit-context.ts) to say which spec governs them.
 *
 * What a path is comes from the library (checked-path.ts: documents and transcripts;
 * audit-paths.ts: the ledger and the archive, at their configured places): the gate holds no
 * rule of its own.
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { realpathLenient } from "../fsx/realpath-lenient.js";
import { statSync } from "node:fs";
import { checkedPathKind } from "../layout/checked-path.js";
import { auditTest, type AuditLocations } from "../governance/audit-paths.js";
import type { AgentHookInput, StringEdit } from "./agent-hook-input.js";
import { type CodexHunk, parseCodexPatch } from "./codex-patch.js";
import { DEFAULT_TOOL_NAMES, mcpTool, type RecordKind, recordReason, shellDocumentReason, shellUnknownReason, toolPhrase } from "./gate-messages.js";
import { TOOL_NAME } from "../version.js";
import { resolveShellTargets } from "./resolve-shell-targets.js";
import { shellWrites } from "./shell-writes.js";

export type DocumentChange = { kind: "write"; content: string } | { kind: "edit"; edits: StringEdit[] } | { kind: "codex-update"; hunks: CodexHunk[] };

/** A document a file tool would write: the document step judges it. */
export interface DocumentWork {
  /** Repository-relative POSIX path. */
  rel: string;
  abs: string;
  change: DocumentChange;
}

export type GateRoute =
  | { kind: "allow" }
  | { kind: "deny"; reason: string }
  | { kind: "documents"; work: DocumentWork[] }
  | { kind: "governance"; files: string[] };

export interface GateContext {
  /** The repository's top level (or the project directory outside a repository). */
  root: string;
  audit: AuditLocations;
  /** The home directory, for a shell's `~`. */
  home: string;
  /** How the agent names our MCP tools (`{tool}` for the tool; default mcp__noma-reconcile__{tool}). */
  mcpTools?: string;
}

type PathKind = "document" | RecordKind;

const outside = (rel: string): boolean => rel === "" || rel.startsWith("..") || isAbsolute(rel);

/**
 * `abs` relative to the repository's top, or null when it is outside. An agent may name a file
 * through a symbolic link to the repository (its project directory as the user opened it) while
 * the top is found with links resolved: the directories are compared resolved too (the file's
 * own name kept as given).
 */
function repoRelative(abs: string, root: string): string | null {
  const direct = relative(root, abs);
  if (!outside(direct)) return direct;
  const real = join(realpathLenient(dirname(abs)), basename(abs));
  for (const r of [root, realpathLenient(root)]) {
    const rel = relative(r, real);
    if (!outside(rel)) return rel;
  }
  return null;
}

/** What a path inside the repository is to the gate, or null (outside the repository, or any other file). */
export function pathKindOf(abs: string, ctx: GateContext, audit = auditTest(ctx.audit)): { rel: string; kind: PathKind } | null {
  const rel = repoRelative(abs, ctx.root);
  if (rel === null) return null;
  const posix = sep === "/" ? rel : rel.split(sep).join("/");
  const checked = checkedPathKind(posix);
  if (checked === "document") return { rel: posix, kind: "document" };
  if (checked === "transcript") return { rel: posix, kind: "transcript" };
  const record = audit(posix);
  if (record === "ledger" || record === "archive") return { rel: posix, kind: record };
  return null;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

interface FileTarget {
  abs: string;
  change: DocumentChange | null;
  effect: "write" | "remove" | "move";
}

/** A file tool's targets: each absolute path, and the change it makes there. */
function fileTargets(input: AgentHookInput): FileTarget[] {
  const call = input.call;
  switch (call.kind) {
    case "write":
      return [{ abs: call.file, change: { kind: "write", content: call.content }, effect: "write" }];
    case "edit": {
      // Gemini's replace with an empty old_string creates the file with new_string.
      const only = call.edits.length === 1 ? call.edits[0]! : undefined;
      if (only !== undefined && only.oldString === "" && !isFile(call.file))
        return [{ abs: call.file, change: { kind: "write", content: only.newString }, effect: "write" }];
      return [{ abs: call.file, change: { kind: "edit", edits: call.edits }, effect: "write" }];
    }
    case "apply_patch":
      return parseCodexPatch(call.patch).flatMap((op): FileTarget[] => {
        const abs = resolve(input.cwd, op.path);
        if (op.op === "add") return [{ abs, change: { kind: "write", content: op.content }, effect: "write" }];
        if (op.op === "delete") return [{ abs, change: null, effect: "remove" }];
        const update: FileTarget = { abs, change: { kind: "codex-update", hunks: op.hunks }, effect: "write" };
        if (op.moveTo === undefined) return [update];
        return [update, { abs, change: null, effect: "move" }, { abs: resolve(input.cwd, op.moveTo), change: null, effect: "write" }];
      });
    default:
      return [];
  }
}

export function routeToolCall(input: AgentHookInput, ctx: GateContext): GateRoute {
  const audit = auditTest(ctx.audit);
  if (input.phase === "post") {
    const files = fileTargets(input)
      .filter((t) => t.effect === "write")
      .map((t) => repoRelative(t.abs, ctx.root))
      .filter((rel): rel is string => rel !== null)
      .map((rel) => (sep === "/" ? rel : rel.split(sep).join("/")));
    return files.length > 0 ? { kind: "governance", files: [...new Set(files)] } : { kind: "allow" };
  }
  if (input.call.kind === "shell") return routeShell(input.call.command, input.call.cwd, ctx, audit);
  const work: DocumentWork[] = [];
  for (const t of fileTargets(input)) {
    const what = pathKindOf(t.abs, ctx, audit);
    if (what === null) continue;
    if (what.kind !== "document") return { kind: "deny", reason: recordReason(what.kind, what.rel, toolPhrase(input.toolName, false), ctx.mcpTools) };
    if (t.change !== null) work.push({ rel: what.rel, abs: t.abs, change: t.change });
    else if (t.effect === "move") return { kind: "deny", reason: moveReason(what.rel, input.toolName, ctx.mcpTools) };
  }
  return work.length > 0 ? { kind: "documents", work } : { kind: "allow" };
}

function moveReason(rel: string, toolName: string, tools: string = DEFAULT_TOOL_NAMES): string {
  return (
    `${TOOL_NAME}: ${toolPhrase(toolName, false)} moves the Noma document ${rel} away from its transcript ${rel}.patches; it was stopped before it ran. ` +
    `Change documents with patch ops (${mcpTool("patch_block", tools)}); a document is renamed by a person, its transcript with it.`
  );
}

function routeShell(command: string, cwd: string, ctx: GateContext, audit: ReturnType<typeof auditTest>): GateRoute {
  const writes = shellWrites(command);
  if (writes.length === 0) return { kind: "allow" };
  const { files, unknown } = resolveShellTargets(writes, cwd, ctx.home);
  const documents: Array<{ rel: string; how: string; exists: boolean }> = [];
  for (const f of files) {
    const what = pathKindOf(f.abs, ctx, audit);
    if (what === null) continue;
    if (what.kind !== "document") return { kind: "deny", reason: recordReason(what.kind, what.rel, `this shell command (${f.write.how})`, ctx.mcpTools) };
    // Removing a document (rm, the source of a move) is not an edit of it: its transcript stays and check reports it.
    if (f.write.effect === "write" && !documents.some((d) => d.rel === what.rel && d.how === f.write.how))
      documents.push({ rel: what.rel, how: f.write.how, exists: isFile(f.abs) });
  }
  if (documents.length > 0) return { kind: "deny", reason: shellDocumentReason(documents, ctx.mcpTools) };
  // A write the gate cannot name: refused only when the command names a document, a transcript or the ledger.
  const ledgerName = ctx.audit.ledger.slice(ctx.audit.ledger.lastIndexOf("/") + 1).toLowerCase();
  const lower = command.toLowerCase();
  const names = lower.includes(".noma") || (ledgerName.length > 0 && lower.includes(ledgerName));
  if (!names) return { kind: "allow" };
  const suspect = unknown.filter((u) => couldBeProtected(u.tail, ledgerName, u.write.effect));
  if (suspect.length > 0)
    return {
      kind: "deny",
      reason: shellUnknownReason(
        suspect.map((u) => ({ shown: u.shown, how: u.write.how })),
        ctx.mcpTools,
      ),
    };
  return { kind: "allow" };
}

/** Whether a name ending in the literal `tail` (after something unknown) could be a document, a transcript or the ledger. */
function couldBeProtected(tail: string, ledgerName: string, effect: "write" | "remove"): boolean {
  const t = tail.toLowerCase();
  const endings = effect === "remove" ? [".noma.patches", ledgerName] : [".noma", ".noma.patches", ledgerName];
  return endings.some((e) => e.length > 0 && (e.endsWith(t) || t.endsWith(e)));
}

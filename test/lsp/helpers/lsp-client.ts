/**
 * An editor for the tests: spawns the real server (`node dist/cli.cjs lsp --stdio`) and talks
 * to it through the protocol's own client-side connection (vscode-languageserver-protocol:
 * Content-Length framing, JSON-RPC). It keeps the texts of the documents it opened, applies
 * the edits the server asks for (`workspace/applyEdit`) to them and tells the server, as an
 * editor does, and records every `publishDiagnostics`, so a test waits for the diagnostics it
 * expects (never for a fixed time).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { onTestFinished } from "vitest";
import {
  ApplyWorkspaceEditRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  type ApplyWorkspaceEditParams,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
  type TextEdit,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  ShowMessageNotification,
  type ShowMessageParams,
} from "vscode-languageserver-protocol/node";
import { CLI } from "../../helpers/run-cli.js";

export function uriOf(root: string, rel: string): string {
  return pathToFileURL(join(root, rel)).href;
}

/** Offset of a 0-based line/character in `text`. */
export function offsetAt(text: string, line: number, character: number): number {
  let at = 0;
  for (let l = 0; l < line; l++) {
    const nl = text.indexOf("\n", at);
    if (nl === -1) return text.length;
    at = nl + 1;
  }
  return at + character;
}

/** The 0-based position of the first occurrence of `needle` (plus `delta` characters). */
export function positionOf(text: string, needle: string, delta = 0): { line: number; character: number } {
  const at = text.indexOf(needle);
  if (at === -1) throw new Error(`"${needle}" is not in the text`);
  const before = text.slice(0, at + delta);
  const line = before.split("\n").length - 1;
  return { line, character: before.length - (before.lastIndexOf("\n") + 1) };
}

export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort(
    (a, b) => offsetAt(text, b.range.start.line, b.range.start.character) - offsetAt(text, a.range.start.line, a.range.start.character),
  );
  let out = text;
  for (const e of sorted)
    out =
      out.slice(0, offsetAt(out, e.range.start.line, e.range.start.character)) + e.newText + out.slice(offsetAt(out, e.range.end.line, e.range.end.character));
  return out;
}

export class LspClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: ProtocolConnection;
  stderr = "";
  /** Every publishDiagnostics received, in order. */
  readonly published: PublishDiagnosticsParams[] = [];
  /** Every window/showMessage received. */
  readonly messages: ShowMessageParams[] = [];
  /** Every workspace/applyEdit the server asked for. */
  readonly applied: ApplyWorkspaceEditParams[] = [];
  /** The editor's buffers: uri → text and version. */
  readonly buffers = new Map<string, { text: string; version: number }>();
  private waiters: Array<{ match: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }> = [];
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    readonly root: string,
    args: string[] = ["lsp", "--stdio"],
    env: NodeJS.ProcessEnv = {},
  ) {
    this.child = spawn(process.execPath, [CLI, ...args], { cwd: root, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve({ code, signal })));
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.published.push(p);
      for (const w of this.waiters.filter((x) => x.match(p))) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(p);
      }
    });
    this.connection.onNotification(ShowMessageNotification.type, (p) => void this.messages.push(p));
    this.connection.onRequest(ApplyWorkspaceEditRequest.type, (p) => {
      this.applied.push(p);
      for (const change of p.edit.documentChanges ?? []) {
        if (!("textDocument" in change)) continue;
        const buf = this.buffers.get(change.textDocument.uri);
        if (buf === undefined || (change.textDocument.version !== null && change.textDocument.version !== buf.version)) return { applied: false };
        const edits = change.edits as TextEdit[];
        this.replace(change.textDocument.uri, applyTextEdits(buf.text, edits), edits);
      }
      return { applied: true };
    });
    this.connection.listen();
    onTestFinished(async () => {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
      await this.exited;
      this.connection.dispose();
    });
  }

  async initialize(capabilities: Record<string, unknown> = {}): Promise<InitializeResult> {
    const result = await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(this.root).href,
      workspaceFolders: [{ uri: pathToFileURL(this.root).href, name: "repo" }],
      capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } }, ...capabilities },
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
    return result;
  }

  /** Open a file of the repository as the editor does (its text from disk unless given). */
  async open(rel: string, text?: string, languageId = "noma"): Promise<string> {
    const uri = uriOf(this.root, rel);
    const t = text ?? readFileSync(join(this.root, rel), "utf8");
    this.buffers.set(uri, { text: t, version: 1 });
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text: t } });
    return uri;
  }

  /** Type: replace `from`'s first occurrence in the buffer with `to` (one incremental change). */
  async edit(uri: string, from: string, to: string): Promise<number> {
    const buf = this.buffers.get(uri)!;
    const start = positionOf(buf.text, from);
    const end = positionOf(buf.text, from, from.length);
    const at = buf.text.indexOf(from);
    const text = buf.text.slice(0, at) + to + buf.text.slice(at + from.length);
    return this.replace(uri, text, [{ range: { start, end }, newText: to }]);
  }

  private replace(uri: string, text: string, changes: readonly (TextEdit | TextDocumentContentChangeEvent)[]): number {
    const buf = this.buffers.get(uri)!;
    buf.text = text;
    buf.version++;
    const contentChanges = changes.map((c) =>
      "range" in c && c.range !== undefined ? { range: c.range, text: "newText" in c ? c.newText : c.text } : c,
    ) as TextDocumentContentChangeEvent[];
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: buf.version }, contentChanges });
    return buf.version;
  }

  async save(uri: string): Promise<void> {
    await this.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  }

  async close(uri: string): Promise<void> {
    this.buffers.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** The first diagnostics published for `uri` (at `version`, when given) that `match` accepts, already received or to come. */
  diagnostics(uri: string, version?: number, match: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
    const ok = (p: PublishDiagnosticsParams): boolean => p.uri === uri && (version === undefined || p.version === version) && match(p);
    const have = this.published.find(ok);
    if (have !== undefined) return Promise.resolve(have);
    return new Promise((resolve) => this.waiters.push({ match: ok, resolve }));
  }

  /** shutdown, then exit: the server's exit status. */
  async shutdown(): Promise<number | null> {
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    return (await this.exited).code;
  }

  async exit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.exited;
  }
}

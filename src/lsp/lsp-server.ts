/**
 * `noma-reconcile lsp`: the language server (LSP 3.17, over stdio with Content-Length framing,
 * on the standard `vscode-languageserver` packages, bundled). A shell over the library, like
 * the MCP server: diagnostics, ids, books, governance and fixes are the library's; this
 * module only wires the protocol's requests to the session (lsp-session.ts) and to the
 * features (one module each). Nothing heavy is loaded before a file needs it: YAML and the
 * schemas with the first spec, book or configuration, sql.js and BLAKE3 with the first
 * governance lens (the server's own code is a chunk no other command loads).
 */
import {
  CodeActionKind,
  createConnection,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type InitializeResult,
  LSPErrorCodes,
  MessageType,
  ResponseError,
  ShowMessageNotification,
  TextDocumentSyncKind,
} from "vscode-languageserver/node";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";
import { drainingTransport } from "./draining-transport.js";
import { ChapterParses, DocumentParses } from "./book-lookup.js";
import { completion } from "./completion.js";
import { GovernanceLens } from "./governance-lens.js";
import { hover } from "./hover.js";
import { LspSession } from "./lsp-session.js";
import { definition, type Navigation, references } from "./navigation.js";
import { EditRefusedError, patchFiles } from "./patch-files.js";
import { APPLY_FIX_COMMAND, buffersEdit, editorActor, fixArgument, QuickFixes } from "./quick-fixes.js";
import { prepareRename, rename } from "./rename.js";
import { documentSymbols, WorkspaceIds } from "./symbols.js";

export interface LspServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/**
 * Serve until the client sends `exit` (the process then exits: 0 after `shutdown`, 1 without) or closes the
 * stream: then the requests already read are answered first, and the promise resolves with the exit code.
 */
export function runLspServer(options: LspServerOptions): Promise<number> {
  const transport = drainingTransport(options.input, options.output);
  const connection = createConnection(transport.reader, transport.writer);
  const session = new LspSession({
    publishDiagnostics: (uri, version, diagnostics) => void connection.sendDiagnostics({ uri, version, diagnostics }),
    log: (message) => connection.console.log(message),
  });
  const nav: Navigation = { session, chapters: new ChapterParses(), plain: new DocumentParses() };
  const fixes = new QuickFixes(session);
  const governance = new GovernanceLens();
  const ids = new WorkspaceIds(nav);
  let watchDynamically = false;
  /** The configured lock wait of a document's repository (ms), for the edits the server writes. */
  const lockTimeoutOf = async (doc: { place: { root?: string } }): Promise<number | undefined> => {
    const root = doc.place.root !== undefined ? session.roots.rootAt(doc.place.root, true) : null;
    const seconds = root !== null ? (await root.configuration()).lockTimeout : undefined;
    return seconds !== undefined ? seconds * 1000 : undefined;
  };

  connection.onInitialize((params): InitializeResult => {
    watchDynamically = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        positionEncoding: "utf-16",
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        hoverProvider: true,
        completionProvider: { triggerCharacters: ["[", ":", "{", " ", '"', "="] },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        codeLensProvider: { resolveProvider: false },
        executeCommandProvider: { commands: [APPLY_FIX_COMMAND] },
        renameProvider: { prepareProvider: true },
      },
      serverInfo: { name: TOOL_NAME, version: TOOL_VERSION },
    };
  });

  connection.onInitialized(() => {
    if (watchDynamically)
      connection.client
        .register(DidChangeWatchedFilesNotification.type, {
          watchers: [{ globPattern: "**/*.{noma,noma.yml,noma.yaml,noma.patches,noma.capabilities.yml}" }, { globPattern: "**/.notarai/**" }],
        })
        .catch(() => {}); // refused, or the client went away: no watched-file events then
  });

  connection.onDidOpenTextDocument(({ textDocument: d }) => session.open(d.uri, d.languageId, d.version, d.text));
  connection.onDidChangeTextDocument(({ textDocument: d, contentChanges }) => session.change(d.uri, contentChanges, d.version));
  connection.onDidSaveTextDocument(({ textDocument: d }) => session.save(d.uri));
  connection.onDidCloseTextDocument(({ textDocument: d }) => session.close(d.uri));
  connection.onDidChangeWatchedFiles(({ changes }) => {
    for (const c of changes)
      if (c.type === FileChangeType.Changed || c.type === FileChangeType.Created || c.type === FileChangeType.Deleted)
        session.fileChanged(session.place(c.uri));
  });

  const docOf = (uri: string) => session.document(uri);
  connection.onDefinition(({ textDocument, position }) => {
    const doc = docOf(textDocument.uri);
    return doc !== undefined ? definition(nav, doc, position) : null;
  });
  connection.onReferences(({ textDocument, position, context }) => {
    const doc = docOf(textDocument.uri);
    return doc !== undefined ? references(nav, doc, position, context.includeDeclaration) : [];
  });
  connection.onDocumentSymbol(({ textDocument }) => {
    const doc = docOf(textDocument.uri);
    return doc !== undefined && doc.kind === "document" ? documentSymbols(doc.noma().current()) : [];
  });
  connection.onWorkspaceSymbol(({ query }) => {
    const roots = session.roots.all();
    return ids.search(roots, query);
  });
  connection.onCompletion(({ textDocument, position }) => {
    const doc = docOf(textDocument.uri);
    return doc !== undefined ? completion(nav, doc, position) : [];
  });
  connection.onHover(async ({ textDocument, position }) => {
    const doc = docOf(textDocument.uri);
    if (doc === undefined) return null;
    const onName = hover(nav, doc, position);
    if (onName !== null || position.line !== 0) return onName;
    return governance.hover(session.rootOf(doc), doc);
  });
  connection.onCodeLens(async ({ textDocument }) => {
    const doc = docOf(textDocument.uri);
    return doc !== undefined ? governance.codeLenses(session.rootOf(doc), doc) : [];
  });
  connection.onCodeAction(({ textDocument, range }) => {
    const doc = docOf(textDocument.uri);
    return doc !== undefined ? fixes.codeActions(doc, range) : [];
  });
  connection.onExecuteCommand(async ({ command, arguments: args }) => {
    if (command !== APPLY_FIX_COMMAND) throw new ResponseError(LSPErrorCodes.RequestFailed, `unknown command ${command}`);
    const fix = fixArgument(args?.[0]);
    if (fix === undefined) throw new ResponseError(LSPErrorCodes.RequestFailed, `${APPLY_FIX_COMMAND} takes one argument: the fix as the code action gave it`);
    const doc = docOf(fix.uri);
    const root = doc !== undefined ? session.rootOf(doc) : null;
    try {
      if (doc === undefined || root === null || doc.place.rel === undefined)
        throw new EditRefusedError("the document is not open, or not a file of a git repository");
      if (doc.version !== fix.version) throw new EditRefusedError("the document changed since the fix was offered; ask for the fix again");
      const lockTimeoutMs = await lockTimeoutOf(doc);
      const written = patchFiles(session, root, [{ rel: doc.place.rel, ops: fix.ops, planned: doc.text }], {
        actor: editorActor(root.root),
        reason: `noma-reconcile lsp: quick fix [${fix.code}] ${fix.description}`,
        ...(lockTimeoutMs !== undefined ? { lockTimeoutMs } : {}),
      });
      const applied = await connection.workspace.applyEdit({ label: `Fix ${fix.code}`, edit: buffersEdit(session, written) });
      return { written: written.map((f) => f.rel), transcript: written.map((f) => f.transcript), bufferUpdated: applied.applied };
    } catch (e) {
      if (!(e instanceof EditRefusedError)) throw e;
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `noma-reconcile: fix not applied: ${e.message}` });
      throw new ResponseError(LSPErrorCodes.RequestFailed, e.message);
    }
  });
  connection.onPrepareRename(({ textDocument, position }) => {
    const doc = docOf(textDocument.uri);
    return doc !== undefined ? prepareRename(nav, doc, position) : null;
  });
  connection.onRenameRequest(async ({ textDocument, position, newName }) => {
    const doc = docOf(textDocument.uri);
    if (doc === undefined) return null;
    const lockTimeoutMs = await lockTimeoutOf(doc);
    const result = rename(nav, doc, position, newName, lockTimeoutMs);
    if (result.note !== undefined)
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message: `noma-reconcile: ${result.note}` });
    return result.edit;
  });

  return new Promise((resolve) => {
    connection.onExit(() => resolve(0));
    void transport.ended.then(({ shutdown }) => resolve(shutdown ? 0 : 1));
    connection.listen();
  });
}

/**
 * `noma-reconcile lsp`: the language server (LSP 3.17, over stdio with Content-Length framing,
 * on the standard `vscode-languageserver` packages, bundled). A shell over the library, like
 * the MCP server: diagnostics, ids, books, governance and fixes are the library's; this
 * module only wires the protocol's requests to the session (lsp-session.ts) and to the
 * features (one module each). Nothing heavy is loaded before a document needs it: the parser
 * with the first `.noma` document, YAML and the schemas with the first spec or configuration,
 * sql.js and BLAKE3 with the first governance lens.
 */
import {
  CodeActionKind,
  createConnection,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  TextDocumentSyncKind,
  type InitializeResult,
} from "vscode-languageserver/node";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";
import { LspSession } from "./lsp-session.js";

/** The commands the server executes (workspace/executeCommand). */
export const APPLY_FIX_COMMAND = "noma-reconcile.applyFix";

export interface LspServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/** Serve until the client sends `exit` (the process then exits: 0 after `shutdown`, 1 without) or closes the stream. */
export function runLspServer(options: LspServerOptions): Promise<void> {
  const connection = createConnection(options.input, options.output);
  const session = new LspSession({
    publishDiagnostics: (uri, version, diagnostics) => void connection.sendDiagnostics({ uri, version, diagnostics }),
    log: (message) => connection.console.log(message),
  });
  let watchDynamically = false;

  connection.onInitialize((params): InitializeResult => {
    watchDynamically = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        positionEncoding: "utf-16",
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        executeCommandProvider: { commands: [APPLY_FIX_COMMAND] },
      },
      serverInfo: { name: TOOL_NAME, version: TOOL_VERSION },
    };
  });

  connection.onInitialized(() => {
    if (watchDynamically)
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: "**/*.{noma,noma.yml,noma.yaml,noma.patches,noma.capabilities.yml}" }, { globPattern: "**/.notarai/**" }],
      });
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

  return new Promise((resolve) => {
    connection.onExit(() => resolve());
    connection.listen();
  });
}

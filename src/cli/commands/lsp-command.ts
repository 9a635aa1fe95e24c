/**
 * `noma-reconcile lsp`: the language server on stdio (src/lsp/). Stdout carries protocol
 * messages only: anything the bundled code would print with console.log goes to stderr.
 * `--stdio` is accepted (editors pass it); `--clientProcessId` too (the server then exits when
 * that process does). When the client closes stdin, the requests it sent are answered, then the
 * process ends (0 after `shutdown`, else 1): nothing of the server may keep it alive after that.
 */
import type { CliIO } from "../cli-io.js";

/** The server's exit code; the bin ends the process with it (after saving the compile cache of its body: main.ts). */
export async function lspCommand(io: CliIO): Promise<number> {
  const toStderr = (...parts: unknown[]): void => void io.stderr(`${parts.map(String).join(" ")}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const { runLspServer } = await import("../../lsp/lsp-server.js");
  return runLspServer({ input: process.stdin, output: process.stdout });
}

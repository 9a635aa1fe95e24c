/**
 * The server's transport over stdio, which answers before it ends. The standard server ends the
 * process as soon as its input stream ends, so a client that writes its requests and closes its
 * end (a script, `printf … | noma-reconcile lsp`) got no answer at all. Here the requests read are
 * counted until their responses are written: once the input has closed and every one is answered
 * (the last write flushed), `ended` resolves — with whether `shutdown` was asked, which makes the
 * exit code (0, else 1, as after an `exit` notification). Requests the server sent the client and
 * had no answer to when the input closed will never get one: each is answered here with an error
 * (jsonrpc's PendingResponseRejected), so the handler waiting for it finishes and answers in turn.
 */
import { type DataCallback, type Message, type MessageReader, type MessageWriter, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver/node";

export interface DrainingTransport {
  reader: MessageReader;
  writer: MessageWriter;
  /** The input closed and every request read has its response written. */
  ended: Promise<{ shutdown: boolean }>;
}

type Id = string | number | null;

/** vscode-jsonrpc's ErrorCodes.PendingResponseRejected. */
const PENDING_RESPONSE_REJECTED = -32097;

function requestOf(m: Message): { id: Id; method: string } | null {
  const r = m as { id?: unknown; method?: unknown };
  return typeof r.method === "string" && (typeof r.id === "string" || typeof r.id === "number") ? { id: r.id, method: r.method } : null;
}

function responseId(m: Message): Id | undefined {
  const r = m as { id?: unknown; method?: unknown };
  return r.method === undefined && (typeof r.id === "string" || typeof r.id === "number" || r.id === null) ? (r.id as Id) : undefined;
}

export function drainingTransport(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): DrainingTransport {
  const reader = new StreamMessageReader(input);
  const writer = new StreamMessageWriter(output);
  /** How many requests of each id are waiting for their response (a client may reuse an id). */
  const waiting = new Map<Id, number>();
  /** The server's own requests to the client, waiting for the client's answer. */
  const asked = new Set<Id>();
  let deliver: DataCallback | null = null;
  let shutdown = false;
  let closed = false;
  let lastWrite: Promise<void> = Promise.resolve();
  let resolveEnded!: (v: { shutdown: boolean }) => void;
  const ended = new Promise<{ shutdown: boolean }>((r) => {
    resolveEnded = r;
  });
  const settle = (): void => {
    if (!closed || waiting.size > 0) return;
    const done = (): void => resolveEnded({ shutdown });
    void lastWrite.then(done, done);
  };
  const refuse = (id: Id): void =>
    deliver?.({ jsonrpc: "2.0", id, error: { code: PENDING_RESPONSE_REJECTED, message: "the client closed its end of the connection" } } as Message);
  // The connection hears of the close only once everything is answered: a closed connection refuses to send anything.
  const closeListeners = new Set<() => void>();
  const onClose: MessageReader["onClose"] = (listener) => {
    const l = (): void => void listener(undefined);
    closeListeners.add(l);
    return { dispose: () => void closeListeners.delete(l) };
  };
  void ended.then(() => {
    for (const l of closeListeners) l();
  });
  reader.onClose(() => {
    closed = true;
    for (const id of [...asked]) {
      asked.delete(id);
      refuse(id);
    }
    settle();
  });
  const counting: MessageReader = {
    onError: reader.onError,
    onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback: DataCallback) => {
      deliver = callback;
      return reader.listen((message) => {
        const request = requestOf(message);
        if (request !== null) {
          waiting.set(request.id, (waiting.get(request.id) ?? 0) + 1);
          if (request.method === "shutdown") shutdown = true;
        } else {
          const id = responseId(message);
          if (id !== undefined) asked.delete(id);
        }
        callback(message);
      });
    },
    dispose: () => reader.dispose(),
  };
  const answering: MessageWriter = {
    onError: writer.onError,
    onClose: writer.onClose,
    write: (message: Message) => {
      const written = writer.write(message);
      lastWrite = written;
      const request = requestOf(message);
      if (request !== null) {
        if (closed) setImmediate(() => refuse(request.id));
        else asked.add(request.id);
      }
      const id = responseId(message);
      if (id !== undefined && waiting.has(id)) {
        const left = waiting.get(id)! - 1;
        if (left === 0) waiting.delete(id);
        else waiting.set(id, left);
        settle();
      }
      return written;
    },
    end: () => writer.end(),
    dispose: () => writer.dispose(),
  };
  return { reader: counting, writer: answering, ended };
}

/**
 * JSON-RPC 2.0 as MCP uses it: message classification and the error codes.
 * Pure: a line of text in, a classified message (or the error to answer) out.
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/** A request id: MCP allows strings and integers (never null). */
export type RpcId = string | number;

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcResponse = { jsonrpc: "2.0"; id: RpcId | null; result: unknown } | { jsonrpc: "2.0"; id: RpcId | null; error: RpcErrorObject };

/** What one JSON value sent by the client is. */
export type RpcMessage =
  | { kind: "request"; id: RpcId; method: string; params: Record<string, unknown> | unknown[] | undefined }
  | { kind: "notification"; method: string }
  /** A response to a request of ours (`roots/list`). */
  | { kind: "response"; id: unknown; result?: unknown; error?: unknown }
  /** Not a valid message: answer with this error (id null when it could not be read). */
  | { kind: "invalid"; id: RpcId | null; error: RpcErrorObject };

export class RpcError extends NomaError {
  static override readonly errorName: string = "RpcError";
  static override readonly kind: ErrorKind = "internal";
  constructor(
    /** The JSON-RPC error code (-32602, …). */
    readonly rpcCode: number,
    message: string,
    readonly data?: unknown,
  ) {
    super("json-rpc", message);
  }
}

export function rpcResult(id: RpcId | null, result: unknown): RpcResponse {
  return { jsonrpc: "2.0", id, result };
}

export function rpcError(id: RpcId | null, code: number, message: string, data?: unknown): RpcResponse {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function validId(v: unknown): v is RpcId {
  return typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
}

/** Classify one parsed JSON value (one element of a batch, or a whole message). */
export function classifyMessage(value: unknown): RpcMessage {
  if (!isRecord(value))
    return { kind: "invalid", id: null, error: { code: INVALID_REQUEST, message: "Invalid Request: a JSON-RPC message must be a JSON object" } };
  const hasId = Object.hasOwn(value, "id");
  const id = hasId && validId(value["id"]) ? value["id"] : null;
  const invalid = (message: string): RpcMessage => ({ kind: "invalid", id, error: { code: INVALID_REQUEST, message: `Invalid Request: ${message}` } });
  if (value["jsonrpc"] !== "2.0") return invalid('"jsonrpc" must be "2.0"');
  const method = value["method"];
  if (method === undefined && hasId && ("result" in value || "error" in value))
    return { kind: "response", id: value["id"], ...("result" in value ? { result: value["result"] } : { error: value["error"] }) };
  if (typeof method !== "string") return invalid('"method" must be a string');
  if (!hasId) return { kind: "notification", method };
  if (!validId(value["id"])) return invalid('"id" must be a string or a number');
  const params = value["params"];
  if (params !== undefined && !isRecord(params) && !Array.isArray(params)) return invalid('"params" must be an object or an array');
  return { kind: "request", id: value["id"], method, params: params as Record<string, unknown> | unknown[] | undefined };
}

/** Parse one line: a single message or a batch (array). `null` means a parse error. */
export function parseLine(line: string): { ok: true; value: unknown } | { ok: false; error: RpcErrorObject } {
  try {
    return { ok: true, value: JSON.parse(line) as unknown };
  } catch (e) {
    return { ok: false, error: { code: PARSE_ERROR, message: `Parse error: ${(e as Error).message}` } };
  }
}

/**
 * Serialize a response as one line. JSON.stringify never emits a raw newline;
 * U+2028/U+2029 are escaped too, for clients that split on Unicode line breaks.
 */
export function serializeMessage(message: unknown): string {
  return JSON.stringify(message).replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}

/**
 * The id of a request from the first bytes of its text (a message too large to be read whole):
 * the top-level `"id"` when it comes before any object or array value (`{"jsonrpc":"2.0","id":7,
 * "method":…,"params":{…}}`), else null — then the error is answered with a null id.
 */
export function requestIdFromHead(head: string): RpcId | null {
  let i = 0;
  const ws = (): void => {
    while (i < head.length && (head[i] === " " || head[i] === "\t" || head[i] === "\r" || head[i] === "\n")) i++;
  };
  /** A JSON string at i (its decoded value), or null when it does not end within the head. */
  const string = (): string | null => {
    const m = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(head.slice(i, i + 1024));
    if (m === null) return null;
    i += m[0].length;
    return JSON.parse(m[0]) as string;
  };
  ws();
  if (head[i] !== "{") return null;
  i++;
  for (;;) {
    ws();
    const key = string();
    if (key === null) return null;
    ws();
    if (head[i] !== ":") return null;
    i++;
    ws();
    let value: unknown;
    if (head[i] === '"') {
      value = string();
      if (value === null) return null;
    } else {
      const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|null|true|false)(?=[\s,}])/.exec(head.slice(i, i + 64));
      if (m === null) return null; // an object or an array (the params), or the head ends here
      i += m[0].length;
      value = JSON.parse(m[0]) as unknown;
    }
    if (key === "id") return validId(value) ? value : null;
    ws();
    if (head[i] !== ",") return null;
    i++;
  }
}

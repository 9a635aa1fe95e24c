/**
 * The one way the product reads a file a user gave it or committed (documents, transcripts,
 * specs, configurations, sidecars): only a regular file, and never a blocking open. A FIFO, a
 * socket, a device or a directory where a file is expected is refused before it is opened
 * (an open of a FIFO with no writer would wait forever, and of some devices would act); the
 * open itself is non-blocking and the opened file is checked again (it may have been replaced
 * in between). A file that cannot be read (permissions, a symbolic link to nothing, an I/O
 * error) is refused with the operating system's reason. Every refusal is a
 * `FileUnreadableError` (`file-unreadable`) naming the file; nothing is ever taken for absent.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, type Stats, statSync } from "node:fs";
import { NomaError } from "../errors/noma-error.js";

/** The code of every refusal to read a file (a diagnostic's code, an error's code). */
export const FILE_UNREADABLE = "file-unreadable";

export class FileUnreadableError extends NomaError {
  static override readonly errorName: string = "FileUnreadableError";
  constructor(
    readonly file: string,
    /** The message without the file: "cannot be read: …". */
    readonly reason: string,
    /** The operating system's code (`EACCES`, `ENOENT`, …), or the kind of file found (`FIFO`, `directory`, …). */
    readonly why: string,
    options: { cause?: unknown } = {},
  ) {
    super(FILE_UNREADABLE, `${file}: ${reason}`, options);
  }
}

/** A file larger than a cap (specs, configurations: the cap is in their docs). */
export class FileTooLargeError extends NomaError {
  static override readonly errorName: string = "FileTooLargeError";
  constructor(
    readonly file: string,
    readonly size: number,
    readonly limit: number,
    /** How to raise the cap. */
    hint: string,
  ) {
    super("file-too-large", `${file}: ${size} bytes, over the limit of ${limit} bytes for this kind of file (${hint})`);
  }
}

/** What a file that is not a regular file is, in words. */
export function fileKind(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** The short form of an operating-system error: `EACCES: permission denied` (no syscall, no absolute path). */
export function osReason(e: unknown): { code: string; text: string } {
  const err = e as NodeJS.ErrnoException;
  const code = typeof err?.code === "string" ? err.code : "EIO";
  const text = typeof err?.message === "string" ? err.message.replace(/, \w+ '.*'$/s, "") : String(e);
  return { code, text: text.startsWith(`${code}:`) ? text : `${code}: ${text}` };
}

function notRegular(file: string, st: Stats): FileUnreadableError {
  const kind = fileKind(st);
  return new FileUnreadableError(file, `cannot be read: it is ${kind}, not a regular file`, kind.replace(/^an? /, ""));
}

function failed(file: string, abs: string | Buffer, e: unknown): FileUnreadableError {
  const { code, text } = osReason(e);
  if (code === "ENOENT") {
    // A symbolic link to nothing: say where it points.
    try {
      if (lstatSync(abs).isSymbolicLink()) {
        const target = readlinkSync(abs, "utf8");
        return new FileUnreadableError(file, `cannot be read: it is a symbolic link to ${target}, which does not exist`, code, { cause: e });
      }
    } catch {
      /* the plain reason below */
    }
  }
  return new FileUnreadableError(file, `cannot be read: ${text}`, code, { cause: e });
}

export interface ReadRegularFileOptions {
  /** Refuse a file larger than this many bytes (FileTooLargeError, before reading it). */
  maxBytes?: number;
  /** How to raise `maxBytes` (said in the refusal). */
  maxBytesHint?: string;
}

/**
 * The bytes of the regular file at `abs` (symbolic links followed; callers refuse links out of
 * the repository first), or FileUnreadableError naming `file`. Never blocks on the open.
 */
export function readRegularFile(abs: string | Buffer, file: string, options: ReadRegularFileOptions = {}): Buffer {
  let st: Stats;
  try {
    st = statSync(abs);
  } catch (e) {
    throw failed(file, abs, e);
  }
  if (!st.isFile()) throw notRegular(file, st);
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw failed(file, abs, e);
  }
  try {
    const now = fstatSync(fd);
    if (!now.isFile()) throw notRegular(file, now);
    if (options.maxBytes !== undefined && now.size > options.maxBytes)
      throw new FileTooLargeError(file, now.size, options.maxBytes, options.maxBytesHint ?? "see the documentation");
    return readFileSync(fd);
  } catch (e) {
    if (e instanceof NomaError) throw e;
    throw failed(file, abs, e);
  } finally {
    closeSync(fd);
  }
}

/** Whether nothing at all is at `abs` (not even a symbolic link to nothing). */
export function isAbsent(abs: string | Buffer): boolean {
  try {
    lstatSync(abs);
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR";
  }
}

/** readRegularFile, or null when nothing is at `abs` (a symbolic link to nothing is not nothing: it is refused). */
export function readRegularFileIfPresent(abs: string | Buffer, file: string, options: ReadRegularFileOptions = {}): Buffer | null {
  try {
    return readRegularFile(abs, file, options);
  } catch (e) {
    if (e instanceof FileUnreadableError && (e.why === "ENOENT" || e.why === "ENOTDIR") && isAbsent(abs)) return null;
    throw e;
  }
}

/**
 * The CLI's exit codes, in one place: 0 clean, 1 findings (a command's own result, never an
 * error), 2 for every error — the usage, the input or the environment — and for our own bugs,
 * which print their stack and ask to be reported; 141 when the reader closed the output early.
 */
import type { ErrorKind } from "../errors/noma-error.js";

export const EXIT_CODE: Readonly<Record<ErrorKind, number>> = Object.freeze({ usage: 2, expected: 2, internal: 2 });

/**
 * The v1.0 PatchError set (§3.5). A PatchError is a user-facing rejection:
 * callers branch on `code`; `message` says what was wrong and how to fix it.
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";
export const PATCH_ERROR_CODES = [
  "target_missing",
  "parent_missing",
  "id_conflict",
  "invalid_content",
  "id_attribute_protected",
  "sha_mismatch",
  "pre_validation_blocked",
  "op_list_aborted",
  "unsupported_op",
] as const;

export type PatchErrorCode = (typeof PATCH_ERROR_CODES)[number];

export class PatchError extends NomaError {
  static override readonly errorName: string = "PatchError";
  static override readonly kind: ErrorKind = "internal";
  declare readonly code: PatchErrorCode;
  constructor(code: PatchErrorCode, message: string) {
    super(code, message);
  }
}

export function isPatchError(e: unknown): e is PatchError {
  return e instanceof PatchError;
}

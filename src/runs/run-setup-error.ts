import { NomaError } from "../errors/noma-error.js";

/** A run cannot start or resume: the message says why and what to do instead. */
export class RunSetupError extends NomaError {
  static override readonly errorName: string = "RunSetupError";
  constructor(message: string) {
    super("run-setup", message);
  }
}

/**
 * What each code `check`, the hook and the PR check emit beyond the validator's
 * rules means (the validator's own are in `RULES`): SARIF rule descriptions
 * and the README's list.
 */
export const CHECK_CODES: Readonly<Record<string, string>> = {
  "transcript-blank-line": "A transcript line is blank (JSONL lines are never removed or emptied).",
  "transcript-torn-line": "The transcript's last line has no line break: it was cut off mid-write.",
  "transcript-invalid-json": "A transcript line is not valid JSON.",
  "transcript-invalid-record": "A transcript line is not a valid v1.0 transcript record.",
  "transcript-chain-broken": "prev_entry_sha256 does not match the previous line: a line was edited, removed, inserted or moved.",
  "transcript-seal-broken": "entry_sha256 does not match the record: the line was edited.",
  "transcript-duplicate-op-id": "Two transcript records carry the same op_id.",
  "transcript-display-sha-mismatch": "pre_sha/post_sha are not the prefixes of pre_sha256/post_sha256.",
  "transcript-unchanged-state": "A rejected or noop record claims the document changed.",
  "transcript-summary-inconsistent": "A record's validation summary does not follow from its diagnostics.",
  "transcript-state-gap": "The document changed outside the patch protocol between two records.",
  "transcript-document-mismatch":
    "The document is not in the state its transcript ends in: it was edited outside the patch protocol (an error under `transcripts: strict`).",
  "transcript-interrupted": "A recorded patch's document write did not complete.",
  "transcript-outside-edit-accepted": "Information: the change acknowledges an edit made outside the patch protocol (`transcript accept`).",
  "transcript-bad-acceptance": "An accept_outside_edit record names no edit made outside the protocol, or one acknowledged already.",
  "transcript-replay-base-mismatch": "The replay base is not the state the first applied record starts from.",
  "transcript-replay-mismatch": "Replaying the applied ops does not reproduce the recorded states.",
  "transcript-rewritten": "The transcript is append-only, but lines that existed at the base commit were edited or removed in this change.",
  "spec-yaml-syntax": "A spec file is not well-formed YAML.",
  "spec-not-a-mapping": "A spec file's root is not a mapping.",
  "spec-bad-schema-version": "schema_version is missing or not a supported quoted version.",
  "spec-missing-key": "A spec is missing a required key.",
  "spec-unknown-key": "A spec has a key its schema does not allow.",
  "spec-wrong-type": "A spec value has the wrong type.",
  "spec-bad-value": "A spec value is not one of the allowed values.",
  "spec-out-of-range": "A spec list is empty where it must not be, or a number is out of range.",
  "spec-bad-format": "A spec string is in the wrong format.",
  "spec-missing-ref": "A spec $ref names no spec file.",
  "spec-ref-cycle": "Spec $refs form a cycle.",
  "spec-unreadable": "A spec file could not be read (not a regular file, no permission, not UTF-8 text).",
  "spec-too-large": "A spec file is over the size cap (NOMA_RECONCILE_MAX_SPEC_BYTES, default 1 MiB): it is not parsed.",
  "not-utf8-text": "The file is not UTF-8 text: the message names the first byte that is not (an invalid UTF-8 sequence, or a NUL byte).",
  "file-unreadable": "The file cannot be read: the message gives the operating system's reason, or what it is instead of a regular file (a FIFO, a directory).",
  "file-too-large": "The file is over the size cap for its kind (see docs/configuration.md): it is not parsed.",
  "spec-glob-unsupported": "A spec glob is refused: longer than 4,096 characters, nesting ( or { more than 32 deep, or holding a backreference.",
  "drift-unreconciled": "A file a spec governs changed and is not reconciled according to the committed snapshot (an error under `drift: error`).",
};

export function describeCheckCode(code: string): string | undefined {
  return CHECK_CODES[code];
}

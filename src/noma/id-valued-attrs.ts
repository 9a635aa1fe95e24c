/**
 * Directive attributes whose value names a block by its id (or an alias): the references the
 * validator checks and `rename_id` retargets (`for=`, `parent=`, `dataset=`: REF_ATTRS, §3.3),
 * and those the review directives write that the protocol does not count as references —
 * `target=` (::change_request, ::comment), `block=` (::state_change), `reply_to=`
 * (::comment). Editors follow all of them (go to definition, find references, completion,
 * rename); the validator still checks only REF_ATTRS.
 */
import { REF_ATTRS } from "./index-row-ids.js";

export const ID_VALUED_ATTRS: readonly string[] = [...REF_ATTRS, "target", "block", "reply_to"];

/** Whether the value of attribute `key` names a block. */
export function isIdValuedAttr(key: string): boolean {
  return ID_VALUED_ATTRS.includes(key);
}

// The Lightbox v1 validator: the verdict on a *session* (lightbox.md): events.jsonl and, when
// given, meta.json, as findings that each cite a requirement of
// conformance/lightbox/requirements.json. The field tables, the status values, the id and
// timestamp shapes, async pairs, retries, parents, redactions, one session id, no floats, and the
// hash chain (reference/lightbox/lightbox.h), all in one pass over the lines.
//
// It streams: memory grows with the longest line, 16 bytes per event for the chain and the line
// numbers, and about 40 bytes per distinct invocation_id for the cross-event rules, never with
// content.
#ifndef ARCS_CONFORMANCE_LIGHTBOX_CHECKER_H_
#define ARCS_CONFORMANCE_LIGHTBOX_CHECKER_H_

#include <string_view>
#include <vector>

#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"
#include "reference/lightbox/lightbox.h"

namespace arcs::conformance::lightbox {

// Checks events.jsonl and meta.json (null when the session has none) and adds every finding to
// *diagnostics (sorted). meta.json findings have line 0 and a pointer into meta.json prefixed
// "meta.json". The session is valid when no finding is an error.
void Validate(jsonl::ByteSource* events, jsonl::ByteSource* meta,
              const arcs::lightbox::Limits& limits, Diagnostics* diagnostics);

// Every requirement id the validator can cite, for the catalogue cross-check.
std::vector<std::string_view> AllRules();

}  // namespace arcs::conformance::lightbox

#endif  // ARCS_CONFORMANCE_LIGHTBOX_CHECKER_H_

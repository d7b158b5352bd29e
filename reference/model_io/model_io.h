// Model IO 1.0.0 (model-io.md): the reference verifier and hasher of a model_io.json. Verify()
// checks invariants MI1-MI11 and the field tables and returns every violation (rule id, JSON
// Pointer, message) sorted as MI10 asks; ModelIOHash() is "sha256:" + the lowercase hex SHA-256
// of ModelIOCore (§4.1-4.4) canonicalized by RFC 8785 (canonical::Jcs), with no trailing newline.
//
// Decisions the text leaves open are in conformance/model_io/errata.md; the ones that shape this
// file: content limits are counted in UTF-8 bytes; `i` is compared by its numeric value (1.0 is
// 1, as JavaScript reads it); MI5 holds for an empty list; a session with any violation has no
// ModelIOHash (the reference refuses to content-address an invalid artifact); unknown members are
// ignored and are not part of the core (MI12).
#ifndef ARCS_REFERENCE_MODEL_IO_MODEL_IO_H_
#define ARCS_REFERENCE_MODEL_IO_MODEL_IO_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/sha256.h"
#include "reference/core/status.h"

namespace arcs::model_io {

// MI11, as the spec states them.
struct Limits {
  std::uint64_t max_interactions = 10'000;
  std::uint64_t max_content_bytes = 1'000'000;          // per interaction, UTF-8
  std::uint64_t max_total_content_bytes = 100'000'000;  // per session, UTF-8
  // ARCS's, not the spec's: MI11 bounds the content at 100,000,000 bytes, which JSON escaping may
  // write in up to six times as many.
  std::uint64_t max_file_bytes = std::uint64_t{1} << 30;
  std::uint64_t max_json_depth = 128;
};

json::ParseOptions ParseOptionsFor(const Limits& limits);

// MI1's "X.Y.Z": three decimal numbers without leading zeros (SemVer 2.0.0 §2), nothing else.
bool IsSemver(std::string_view text);
// MI6's and MI7's /^sha256:[a-f0-9]{64}$/.
bool IsContentHash(std::string_view text);

struct Violation {
  std::string rule_id;  // "MI5", or a field-table requirement such as "MIO-FIELDS-6"
  std::string path;     // JSON Pointer: "/interactions/3/i"; "" for the document
  std::string message;
  std::string reading = {};  // the errata entry whose reading alone makes it one (Finding::reading)
};

// MI10 sorts by (rule_id, path, message) ascending; whether "MI10" sorts before "MI2" is not said
// (errata): kCodeUnit compares the ids as strings (JavaScript's sort), kNumeric compares the
// number after the letters as a number.
enum class ViolationOrder : std::uint8_t { kCodeUnit, kNumeric };
bool ViolationLess(const Violation& a, const Violation& b, ViolationOrder order);

// Every violation of a parsed model_io.json, sorted in `order`.
std::vector<Violation> Verify(const json::Value& session, const Limits& limits,
                              ViolationOrder order = ViolationOrder::kCodeUnit);

// MI7's SHA-256 of each interaction's response_content, taken while the session is parsed: give
// it to the parse (ParseOptions::observer), then to Verify. Each content is hashed just after the
// parse completes its interaction, while the cache still holds it, instead of in a pass over every
// content after the parse. Verify hashes the contents itself when the parse did not show it the
// session's own interactions (a refused parse, a repeated member, the RapidJSON front end).
class ContentDigests : public json::ParseObserver {
 public:
  // Past limits.max_interactions (MI4, MI11) nothing more is taken: the session is invalid, and
  // a file of millions of tiny interactions costs no more than its parse.
  explicit ContentDigests(const Limits& limits);
  ~ContentDigests() override;
  ContentDigests(const ContentDigests&) = delete;
  ContentDigests& operator=(const ContentDigests&) = delete;

  void Element(std::string_view name, const json::Value& element,
               std::span<const json::Member> earlier) override;
  void Refusing() override;

  // Each of the session's interactions' digests (zeros where response_content is not a string),
  // when they are what the parse showed; otherwise nullopt. After the parse; until the first call
  // contents may still be being hashed: the document must outlive this object.
  std::optional<std::vector<Sha256Digest>> Take(const json::Value& session);

 private:
  struct Taken;
  std::unique_ptr<Taken> taken_;
};

// Verify, with the content digests `digests` took during the parse.
std::vector<Violation> Verify(const json::Value& session, const Limits& limits,
                              ViolationOrder order, ContentDigests* digests);

// Every rule id Verify can report.
std::vector<std::string_view> VerifyRules();

// "sha256:" + lowercase hex SHA-256 of the UTF-8 bytes (§4.5, MI6 and MI7's form).
std::string ContentHash(std::string_view bytes);

// Writes the canonical bytes of ModelIOCore to `sink` in pieces (one interaction at a time, so
// that hashing a 100 MB session never holds its canonical form whole). The session must verify:
// otherwise kParseError naming the first violation.
Status WriteCanonicalCore(const json::Value& session, const Limits& limits,
                          const std::function<void(std::string_view)>& sink);

// The canonical bytes of ModelIOCore, whole.
Result<std::string> CanonicalCore(const json::Value& session, const Limits& limits);

// "sha256:" + lowercase hex SHA-256 of the canonical bytes of ModelIOCore.
Result<std::string> ModelIOHash(const json::Value& session, const Limits& limits);

// ModelIOHash, begun while the session is parsed: give observer() to the parse (ParseOptions),
// then Finish() with the parsed session. When adapter_id comes before interactions (the core's
// own order), each interaction the parse completes is written into the core and hashed on a
// second thread while the parse goes on. Finish returns what ModelIOHash returns for the session:
// the streamed core is used only when it was written from the session's own adapter_id and
// interactions (not after a refused parse, nor from a repeated member, nor when the parse showed
// nothing); otherwise the core is written again from the session.
class StreamingHash {
 public:
  explicit StreamingHash(const Limits& limits);
  ~StreamingHash();
  StreamingHash(const StreamingHash&) = delete;
  StreamingHash& operator=(const StreamingHash&) = delete;

  json::ParseObserver* observer();
  // Once, after the parse.
  Result<std::string> Finish(const json::Value& session);

 private:
  class Core;
  Limits limits_;
  std::unique_ptr<Core> core_;
};

}  // namespace arcs::model_io

#endif  // ARCS_REFERENCE_MODEL_IO_MODEL_IO_H_

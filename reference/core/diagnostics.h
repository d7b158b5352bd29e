// Diagnostics: the one finding model every format's checker reports through.
// A finding names the requirement it enforces (rule id), the requirement's level (from the
// catalogue, set here and nowhere else), how severe the finding is, where it is (line and column,
// and/or a JSON Pointer inside the line), and what is wrong. Findings are kept in a deterministic
// order and bounded in number.
#ifndef ARCS_REFERENCE_CORE_DIAGNOSTICS_H_
#define ARCS_REFERENCE_CORE_DIAGNOSTICS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace arcs {

// The RFC 2119 level of the requirement a finding enforces.
enum class Level : std::uint8_t { kMust, kShould, kMay };
std::string_view LevelName(Level level);  // "MUST", "SHOULD", "MAY"

// Errors make a file invalid; warnings and notes do not.
enum class Severity : std::uint8_t { kError, kWarning, kNote };
std::string_view SeverityName(Severity severity);  // "error", "warning", "note"

struct Location {
  std::uint64_t line = 0;    // 1-based; 0 means the file as a whole
  std::uint64_t column = 0;  // 1-based byte column within the line; 0 when unknown
  std::string pointer;       // RFC 6901 JSON Pointer inside the line's JSON value; may be empty
};

// The 1-based line and byte column of `offset` in `text` (a whole file held in memory), no
// pointer: where a finding about a JSON document that is one file stands.
Location LocationOf(std::string_view text, std::size_t offset);

// The same places, from the line feeds of a text taken before the text is given away or changed
// (a parse that decodes strings in place): a file read whole is then held once, not twice. A bit a
// byte of a text that has a line feed: an eighth of its size (a list of offsets would take 8 bytes
// a line); nothing for one that has none.
class LineFeeds {
 public:
  LineFeeds() = default;
  explicit LineFeeds(std::string_view text) { Append(text); }
  // Takes the text's next bytes: a text read a piece at a time is looked over while the cache
  // still holds each piece (jsonl::ReadSource), not in a pass of its own after.
  void Append(std::string_view bytes);
  Location LocationOf(std::size_t offset) const;

 private:
  static constexpr std::size_t kWordsPerCount = 64;  // a count every 4 KiB of text
  // Bit b of word w: byte 64w + b is a line feed. Words past the last feed are not held.
  std::vector<std::uint64_t> bits_;
  // Line feeds before word kWordsPerCount * k, for each k up to the last feed's; feeds_ after.
  std::vector<std::uint64_t> counts_;
  std::uint64_t feeds_ = 0;
  std::size_t size_ = 0;
};

struct Finding {
  std::string rule_id;
  Severity severity = Severity::kError;
  Location location;
  std::string message;
  // The errata entry whose reading alone makes this a finding ("LB-E4"), where the spec text does
  // not settle it; "" when the quoted text does. `arcs validate` shows such an error as a warning
  // unless asked for the ARCS strict profile, and `arcs fuzz` counts a disagreement it explains
  // as open. A note with a reading marks where the reference takes the lenient reading of an
  // entry another reading rejects by (it names no rule a vector lists).
  std::string reading = {};
  // The level of rule_id by the catalogue: Diagnostics::Add sets it (LevelsFrom), so a checker
  // never states a level, and a catalogue change is the only way to change one.
  Level level = Level::kMust;
};

// Total order used for reporting: line, column, pointer, rule id, message.
bool FindingLess(const Finding& a, const Finding& b);

class Diagnostics {
 public:
  static constexpr std::size_t kDefaultMaxFindings = 10000;
  explicit Diagnostics(std::size_t max_findings = kDefaultMaxFindings)
      : max_findings_(max_findings) {}

  // A kept finding's message and pointer are cut to these sizes (Excerpt), so that quoting a
  // 100 MB member name costs kilobytes, not a copy of the name per finding.
  static constexpr std::size_t kMaxMessageBytes = 1024;
  static constexpr std::size_t kMaxPointerBytes = 512;

  // Keeps at most max_findings findings; the rest are only counted, so a file with millions of
  // bad lines cannot exhaust memory. Errors are always counted, kept or not.
  void Add(Finding finding);

  // From now on an error that rests only on an errata reading (Finding::reading) is kept and
  // counted as a warning: what the spec text does not require makes no file invalid. Off by
  // default: the reference's answers are its strict profile.
  void ReadingsAsWarnings() { readings_as_warnings_ = true; }

  // From now on every finding added gets its level from `level_of` (the format's catalogue:
  // FormatModule::Validate installs it), whatever level it came with.
  void LevelsFrom(std::function<Level(std::string_view rule_id)> level_of) {
    level_of_ = std::move(level_of);
  }

  // From now on a finding whose rule id `keep` refuses is neither kept nor counted as an error or
  // a warning, only as ignored: a user's choice of rules (`arcs validate --ignore`), which must
  // not make a file invalid, nor fill the bound on kept findings. Off by default.
  void KeepOnly(std::function<bool(std::string_view rule_id)> keep) { keep_ = std::move(keep); }

  // Lets `place` change where each kept finding stands, and nothing else, then sorts them again:
  // for a caller that knows more than the checker did (`arcs validate` finds the column a
  // pointer leads to in the line's bytes).
  void Relocate(const std::function<void(const Finding& finding, Location* location)>& place);

  // Sorts by FindingLess. Call before reporting.
  void Sort();

  const std::vector<Finding>& findings() const { return findings_; }
  std::uint64_t error_count() const { return error_count_; }
  std::uint64_t warning_count() const { return warning_count_; }
  std::uint64_t dropped_count() const { return dropped_count_; }
  std::uint64_t ignored_count() const { return ignored_count_; }  // refused by KeepOnly
  bool has_errors() const { return error_count_ > 0; }

 private:
  std::size_t max_findings_;
  std::vector<Finding> findings_;
  std::uint64_t error_count_ = 0;
  std::uint64_t warning_count_ = 0;
  std::uint64_t dropped_count_ = 0;
  std::uint64_t ignored_count_ = 0;
  bool readings_as_warnings_ = false;
  std::function<Level(std::string_view)> level_of_;
  std::function<bool(std::string_view)> keep_;
};

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_DIAGNOSTICS_H_

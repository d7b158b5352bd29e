// arcs_generate_spool: writes a realistic, valid Spool 1.0 recording of a chosen size, for the
// speed and memory benchmarks (reference/spool/benchmark, reference/spool/benchmark/bench.sh).
//
//   arcs_generate_spool --out PATH (--bytes N[K|M|G] | --entries N) [--content-scale K] [--seed S]
//                       [--ids random|sequential|counter]
//
// The file is a session entry followed by conversation turns: a prompt (sometimes with a binary
// attachment), then rounds of thinking, one to three tool_calls and their tool_results (text,
// error, or now and then a base64 binary output), and a response; a few annotations target the
// entry just before them. Ids are lowercase UUID strings, unique by construction; ts never
// decreases; every call_id names an earlier tool_call. Strings are 100 B to 4 KiB (times
// --content-scale) of prose and code with escapes (\n \t \" \\ \u001b), raw non-ASCII UTF-8, and
// in some entries \uXXXX escapes for everything non-ASCII (as Python's json.dumps writes).
//
// Deterministic: the same arguments give the same bytes. The shape of the file (entry types,
// ids, ts, lengths) and the content bytes come from two separate random streams, so
// --content-scale 4 with the same --entries and --seed gives the same entries, only with four
// times the content. `arcs validate` reports no finding on the output (tested by ctest).
//
// --ids picks the pattern of the ids, for the benchmark of the validator's id index, whose speed
// must not depend on it (reference/spool/benchmark/bench.sh):
//   random      (the default) UUIDv7: the entry's ms timestamp, then 74 random-looking bits.
//   sequential  UUIDv7 from a monotonic generator (RFC 9562 section 6.2, method 1): the
//               timestamp, then a counter instead of the random bits, so consecutive ids differ
//               in their trailing hex digits.
//   counter     test-style ids: 00000000-0000-4000-8000-000000000001, ...002, and so on.
// Every pattern takes the same draws from the shape stream, so with the same other arguments
// the files differ only in the ids' text (and in the references to them): same entries, same
// sizes. ctest validates the default pattern; arcs_spool_benchmark validates each file it times.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/testing/generated_text.h"

namespace {

using arcs::testing::AppendJsonString;
using arcs::testing::AppendText;
using arcs::testing::ParseSize;
using arcs::testing::Rng;

// A bijection of 64-bit integers (the splitmix64 finalizer): distinct inputs, distinct outputs.
std::uint64_t Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void AppendBase64(Rng& rng, std::size_t size, std::string* out) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::uint64_t bits = 0;
  int have = 0;
  auto byte = [&]() -> std::uint32_t {
    if (have == 0) {
      bits = rng.Next();
      have = 8;
    }
    --have;
    const std::uint32_t b = static_cast<std::uint32_t>(bits & 0xFF);
    bits >>= 8;
    return b;
  };
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t v = (byte() << 16) | (byte() << 8) | byte();
    for (int shift = 18; shift >= 0; shift -= 6) out->push_back(kAlphabet[(v >> shift) & 63]);
  }
  if (size - i == 1) {
    const std::uint32_t v = byte() << 16;
    out->push_back(kAlphabet[(v >> 18) & 63]);
    out->push_back(kAlphabet[(v >> 12) & 63]);
    out->append("==");
  } else if (size - i == 2) {
    const std::uint32_t v = (byte() << 16) | (byte() << 8);
    out->push_back(kAlphabet[(v >> 18) & 63]);
    out->push_back(kAlphabet[(v >> 12) & 63]);
    out->push_back(kAlphabet[(v >> 6) & 63]);
    out->push_back('=');
  }
}

enum class IdPattern : std::uint8_t { kRandom, kSequential, kCounter };

struct Options {
  std::string out;
  std::uint64_t bytes = 0;    // stop at the first entry that brings the file to this size
  std::uint64_t entries = 0;  // or write exactly this many entries (the session included)
  double content_scale = 1.0;
  std::uint64_t seed = 1;
  IdPattern ids = IdPattern::kRandom;
};

class Generator {
 public:
  explicit Generator(const Options& options)
      : options_(options), shape_(options.seed), content_(options.seed ^ 0xC0FFEEull) {}

  int Run() {
    FILE* file = options_.out == "-" ? stdout : std::fopen(options_.out.c_str(), "wb");
    if (!file) {
      std::cerr << "arcs_generate_spool: " << options_.out << ": " << std::strerror(errno) << "\n";
      return 2;
    }
    file_ = file;
    Session();
    while (!Done()) Turn();
    Flush(true);
    const bool failed = std::ferror(file) != 0;
    if ((file != stdout && std::fclose(file) != 0) || failed) {
      std::cerr << "arcs_generate_spool: " << options_.out << ": write failed\n";
      return 2;
    }
    std::cerr << "arcs_generate_spool: " << options_.out << ": " << entries_ << " entries, "
              << written_ << " bytes\n";
    return 0;
  }

 private:
  static constexpr std::int64_t kRecordedAtMs = 1738319400000;  // 2025-01-31T10:30:00Z

  bool Done() const {
    return options_.entries ? entries_ >= options_.entries : written_ >= options_.bytes;
  }

  std::size_t ContentLength(std::uint64_t lo, std::uint64_t hi) {
    return static_cast<std::size_t>(static_cast<double>(shape_.LogUniform(lo, hi)) *
                                    options_.content_scale);
  }

  // The entry's id in the --ids pattern, unique because each pattern holds the entry number or a
  // bijection of it. The random draw is taken in every pattern (see --ids above).
  std::string NewId() {
    const std::uint64_t ms = static_cast<std::uint64_t>(kRecordedAtMs + ts_);
    const std::uint64_t random = shape_.Next() & 0x3FF;
    const std::uint64_t number = entries_ ^ (options_.seed << 40);
    std::uint64_t hi = 0, lo = 0;
    switch (options_.ids) {
      case IdPattern::kRandom: {
        // 48 bits of Unix milliseconds, version 7, 10 random bits and 64 bits of a bijection of
        // the entry number (random-looking), after the variant bits.
        const std::uint64_t unique = Mix(number);
        hi = (ms << 16) | 0x7000 | random << 2 | (unique >> 62);
        lo = (0x2ull << 62) | (unique & 0x3FFFFFFFFFFFFFFFull);
        break;
      }
      case IdPattern::kSequential:
        // The same layout with the entry number itself in place of the random bits: a 74-bit
        // counter that is never reset, so ids stay unique within one millisecond.
        hi = (ms << 16) | 0x7000 | (number >> 62);
        lo = (0x2ull << 62) | (number & 0x3FFFFFFFFFFFFFFFull);
        break;
      case IdPattern::kCounter:
        // Version 4 and variant bits on a nil UUID, the counter (from 1) in the last 12 digits.
        hi = 0x4000;
        lo = (0x8ull << 60) | ((entries_ + 1) & 0xFFFFFFFFFFFFull);
        break;
    }
    char buffer[37];
    std::snprintf(buffer, sizeof buffer, "%08x-%04x-%04x-%04x-%012llx",
                  static_cast<unsigned>(hi >> 32), static_cast<unsigned>((hi >> 16) & 0xFFFF),
                  static_cast<unsigned>(hi & 0xFFFF), static_cast<unsigned>(lo >> 48),
                  static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFull));
    return std::string(buffer, 36);
  }

  // Starts an entry: {"id":...,"ts":...,"type":... ; the caller adds its fields and calls End().
  std::string Begin(std::string_view type, std::uint64_t max_step_ms) {
    if (entries_ > 0) ts_ += static_cast<std::int64_t>(shape_.Below(max_step_ms + 1));
    std::string id = NewId();
    line_.clear();
    line_ += "{\"id\":\"" + id + "\",\"ts\":" + std::to_string(ts_) + ",\"type\":\"";
    line_ += type;
    line_ += '"';
    return id;
  }

  void End() {
    line_ += "}\n";
    out_ += line_;
    written_ += line_.size();
    ++entries_;
    Flush(false);
  }

  void Flush(bool all) {
    if (out_.size() < (4u << 20) && !all) return;
    std::fwrite(out_.data(), 1, out_.size(), file_);
    out_.clear();
  }

  // ,"name":"<text>" with text of about `length` bytes.
  void TextField(std::string_view name, std::size_t length, bool ascii) {
    text_.clear();
    AppendText(content_, length, &text_);
    line_ += ",\"";
    line_ += name;
    line_ += "\":";
    AppendJsonString(text_, ascii, &line_);
  }

  void Binary(std::string_view media_type, std::string_view filename) {
    const std::size_t size = ContentLength(256, 12 * 1024);
    line_ += "{\"type\":\"binary\",\"media_type\":\"";
    line_ += media_type;
    line_ += "\",\"encoding\":\"base64\",\"data\":\"";
    AppendBase64(content_, size, &line_);
    line_ += "\",\"size_bytes\":" + std::to_string(size);
    if (!filename.empty()) {
      line_ += ",\"filename\":\"";
      line_ += filename;
      line_ += '"';
    }
    line_ += '}';
  }

  bool Ascii() { return shape_.Chance(10); }

  void Session() {
    Begin("session", 0);
    line_ +=
        ",\"version\":\"1.0\",\"agent\":\"claude-code\",\"agent_version\":\"1.2.0\","
        "\"recorded_at\":\"2025-01-31T10:30:00Z\",\"title\":\"Benchmark recording (seed " +
        std::to_string(options_.seed) +
        ")\",\"author\":\"arcs\",\"tags\":[\"benchmark\",\"generated\"],"
        "\"tools_used\":[\"read_file\",\"bash\",\"grep\",\"write_file\",\"web_fetch\"]";
    End();
  }

  // An annotation of the entry just written, at its ts (§6.9: SHOULD match the target's ts).
  void MaybeAnnotate(const std::string& target) {
    if (Done() || !shape_.Chance(3)) return;
    static constexpr std::string_view kStyles[] = {"highlight", "comment", "pin", "warning",
                                                   "success"};
    Begin("annotation", 0);
    line_ += ",\"target_id\":\"" + target + "\"";
    TextField("content", ContentLength(40, 600), false);
    line_ += ",\"author\":\"reviewer\",\"style\":\"";
    line_ += kStyles[shape_.Below(5)];
    line_ += "\",\"created_at\":\"2025-02-01T09:15:00Z\"";
    End();
  }

  void Turn() {
    std::string id = Begin("prompt", 60000);
    TextField("content", ContentLength(100, 2048), Ascii());
    if (shape_.Chance(4)) {
      line_ += ",\"attachments\":[";
      Binary("image/png", "screenshot.png");
      line_ += ']';
    }
    End();
    MaybeAnnotate(id);

    const std::uint64_t rounds = shape_.Between(1, 5);
    for (std::uint64_t r = 0; r < rounds && !Done(); ++r) {
      id = Begin("thinking", 3000);
      TextField("content", ContentLength(100, 4096), Ascii());
      if (shape_.Chance(30)) line_ += ",\"collapsed\":true";
      End();
      MaybeAnnotate(id);

      // One to three calls, then their results in order: results name earlier entries.
      static constexpr std::string_view kTools[] = {"read_file", "bash", "grep", "write_file",
                                                    "web_fetch"};
      std::vector<std::string> calls;
      const std::uint64_t parallel = shape_.Chance(75) ? 1 : shape_.Between(2, 3);
      for (std::uint64_t c = 0; c < parallel && !Done(); ++c) {
        const std::string_view tool = kTools[shape_.Below(5)];
        calls.push_back(Begin("tool_call", 1500));
        line_ += ",\"tool\":\"";
        line_ += tool;
        line_ += "\",\"input\":{";
        if (tool == "bash") {
          line_ +=
              "\"command\":\"cd /work && make -j2 test 2>&1 | tail -n 40\",\"timeout_ms\":120000";
        } else if (tool == "grep") {
          line_ += "\"pattern\":\"verify_token\\\\(\",\"path\":\"src/\",\"context\":3";
        } else if (tool == "write_file") {
          line_ += "\"path\":\"src/auth.py\"";
          TextField("content", ContentLength(100, 4096), false);
        } else if (tool == "web_fetch") {
          line_ += "\"url\":\"https://example.com/docs/api?page=2&lang=en\"";
        } else {
          line_ += "\"path\":\"src/auth.py\",\"offset\":0,\"limit\":2000";
        }
        line_ += '}';
        End();
      }
      for (std::size_t c = 0; c < calls.size() && !Done(); ++c) {
        id = Begin("tool_result", 20000);
        line_ += ",\"call_id\":\"" + calls[c] + "\"";
        const std::uint64_t kind = shape_.Below(100);
        if (kind < 8) {
          TextField("error", ContentLength(100, 400), false);
        } else if (kind < 11) {
          line_ += ",\"output\":";
          Binary("image/png", shape_.Chance(50) ? "plot.png" : "");
        } else {
          TextField("output", ContentLength(100, 4096), Ascii());
          if (shape_.Chance(5)) {
            line_ += ",\"truncated\":true,\"original_bytes\":" +
                     std::to_string(shape_.Between(5000, 500000));
          }
        }
        End();
        MaybeAnnotate(id);
      }
    }
    if (Done()) return;
    id = Begin("response", 5000);
    TextField("content", ContentLength(100, 4096), Ascii());
    End();
    MaybeAnnotate(id);
  }

  Options options_;
  Rng shape_;    // entry types, ids, ts, lengths
  Rng content_;  // the bytes of the text and base64
  FILE* file_ = nullptr;
  std::string out_;   // pending output
  std::string line_;  // the entry being built
  std::string text_;  // raw text before escaping
  std::uint64_t entries_ = 0;
  std::uint64_t written_ = 0;
  std::int64_t ts_ = 0;
};

bool ParseIdPattern(std::string_view text, IdPattern* out) {
  if (text == "random") {
    *out = IdPattern::kRandom;
  } else if (text == "sequential") {
    *out = IdPattern::kSequential;
  } else if (text == "counter") {
    *out = IdPattern::kCounter;
  } else {
    return false;
  }
  return true;
}

constexpr char kUsage[] =
    "usage: arcs_generate_spool --out PATH (--bytes N[K|M|G] | --entries N)\n"
    "                           [--content-scale K] [--seed S] [--ids random|sequential|counter]\n"
    "Writes a valid Spool 1.0 recording; PATH may be - for standard output.\n";

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--out" && has_value) {
      options.out = argv[++i];
    } else if (a == "--bytes" && has_value && ParseSize(argv[i + 1], &options.bytes)) {
      ++i;
    } else if (a == "--entries" && has_value && ParseSize(argv[i + 1], &options.entries)) {
      ++i;
    } else if (a == "--seed" && has_value && ParseSize(argv[i + 1], &options.seed)) {
      ++i;
    } else if (a == "--ids" && has_value && ParseIdPattern(argv[i + 1], &options.ids)) {
      ++i;
    } else if (a == "--content-scale" && has_value) {
      options.content_scale = std::strtod(argv[++i], nullptr);
    } else {
      std::cerr << "arcs_generate_spool: bad argument " << a << "\n" << kUsage;
      return 2;
    }
  }
  if (options.out.empty() || (options.bytes == 0) == (options.entries == 0) ||
      !(options.content_scale > 0)) {
    std::cerr << kUsage;
    return 2;
  }
  return Generator(options).Run();
}

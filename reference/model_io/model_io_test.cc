// Expected hashes and canonical bytes below were computed by Node 20 running the spec's §4.3/4.4
// code with the npm package canonicalize 2.1.0 and node:crypto, not by this code.
#include "reference/model_io/model_io.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>

// Every byte this test binary allocates, counted: the work a verification does, measured without
// a clock (TheWorkIsLinearInTheDepth).
namespace {
std::atomic<std::uint64_t> g_allocated_bytes{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocated_bytes += size;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace arcs::model_io {
namespace {

constexpr std::string_view kZeros =
    "sha256:0000000000000000000000000000000000000000000000000000000000000000";

// A valid session: i written 1.0 (JavaScript reads 1), an astral character, ephemeral and
// unknown members.
const std::string kSession = R"({"model_io_schema_version":"1.0.0","adapter_id":"adapter-1",
 "model_id":"gpt-x","mode":"record","interactions":[
 {"i":0,"prompt_hash":")" + std::string(kZeros) +
                             R"(",
  "response_hash":"sha256:b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",
  "response_content":"hello world","tokens_input":3,"latency_ms":12.5},
 {"i":1.0,"prompt_hash":")" + std::string(kZeros) +
                             R"(",
  "response_hash":"sha256:fca8485f5be1a556c52dfba174e5249a7be07316c4fb94b494e61ae8c40c0438",
  "response_content":"h\u00e9\ud83d\ude00\n"}],
 "stats":{"total_interactions":2,"total_tokens_input":3,"total_tokens_output":0,
  "total_latency_ms":12.5},"created_at_utc":"2026-01-05T10:00:00.000Z","extra":{"x":1}})";

std::vector<std::string> RuleIds(std::string_view text, ViolationOrder order = {}) {
  json::Document doc;
  EXPECT_TRUE(doc.Parse(text)) << text;
  std::vector<std::string> ids;
  for (const Violation& v : Verify(doc.root(), Limits{}, order)) ids.push_back(v.rule_id);
  return ids;
}

TEST(ModelIo, AValidSessionHashesAsNodeDoes) {
  json::Document doc;
  ASSERT_TRUE(doc.Parse(kSession));
  EXPECT_TRUE(Verify(doc.root(), Limits{}).empty());
  Result<std::string> hash = ModelIOHash(doc.root(), Limits{});
  ASSERT_TRUE(hash.ok()) << hash.status().message();
  EXPECT_EQ(*hash, "sha256:94b44cbc6ceaa0f9c5f4224636e9c0976111c90b0ee88444c2c2dba450cb4cba");
  Result<std::string> core = CanonicalCore(doc.root(), Limits{});
  ASSERT_TRUE(core.ok());
  EXPECT_EQ(
      *core,
      R"({"adapter_id":"adapter-1","interactions":[{"i":0,"prompt_hash":")" + std::string(kZeros) +
          R"(","response_content":"hello world","response_hash":"sha256:b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"},{"i":1,"prompt_hash":")" +
          std::string(kZeros) +
          "\",\"response_content\":\"h\xc3\xa9\xf0\x9f\x98\x80\\n\",\"response_hash\":"
          "\"sha256:fca8485f5be1a556c52dfba174e5249a7be07316c4fb94b494e61ae8c40c0438\"}"
          R"(],"mode":"record","model_id":"gpt-x","model_io_schema_version":"1.0.0"})");
}

TEST(ModelIo, ContentHashIsOfTheUtf8Bytes) {
  EXPECT_EQ(ContentHash("hello world"),
            "sha256:b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9");
}

// A mismatched hash is reported at its interaction's path with the content's own hash (that of
// "hello world" as `printf 'hello world' | sha256sum` prints it), each interaction's path its own.
TEST(ModelIo, AWrongResponseHashNamesItsInteractionAndTheContentsHash) {
  std::string text = kSession;
  text.replace(text.find("sha256:b94d"), 11, "sha256:c94d");
  text.replace(text.find("sha256:fca8"), 11, "sha256:0ca8");
  json::Document doc;
  ASSERT_TRUE(doc.Parse(text));
  const std::vector<Violation> violations = Verify(doc.root(), Limits{});
  ASSERT_EQ(violations.size(), 2u);
  EXPECT_EQ(violations[0].path, "/interactions/0/response_hash");
  EXPECT_EQ(violations[0].message,
            "response_hash is not the SHA-256 of response_content "
            "(sha256:b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9)");
  EXPECT_EQ(violations[1].path, "/interactions/1/response_hash");
  EXPECT_NE(violations[1].message.find(
                "(sha256:fca8485f5be1a556c52dfba174e5249a7be07316c4fb94b494e61ae8c40c0438)"),
            std::string::npos);
}

TEST(ModelIo, EachInvariantIsItsOwnRule) {
  auto with = [](std::string_view from, std::string_view to) {
    std::string text = kSession;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  EXPECT_EQ(RuleIds(with(R"("1.0.0")", R"("1.0")")), std::vector<std::string>{"MI1"});
  EXPECT_EQ(RuleIds(with(R"("1.0.0")", R"("01.0.0")")), std::vector<std::string>{"MI1"});
  EXPECT_EQ(RuleIds(with(R"("adapter-1")", R"("")")), std::vector<std::string>{"MI2"});
  EXPECT_EQ(RuleIds(with(R"("record")", R"("Record")")), std::vector<std::string>{"MI3"});
  EXPECT_EQ(RuleIds(with(R"("i":1.0)", R"("i":2)")), std::vector<std::string>{"MI5"});
  EXPECT_EQ(RuleIds(with(R"("i":1.0)", R"("i":"1")")),
            (std::vector<std::string>{"MI5", "MIO-INTERACTION-2"}));
  // A repeated i is still ascending order (MI9 holds), but not its index (MI5), and it repeats
  // the (prompt_hash, i) pair (MI8); a smaller i breaks the order.
  EXPECT_EQ(RuleIds(with(R"("i":1.0)", R"("i":0)")), (std::vector<std::string>{"MI5", "MI8"}));
  EXPECT_EQ(RuleIds(with(R"("i":1.0)", R"("i":-1)")), (std::vector<std::string>{"MI5", "MI9"}));
  EXPECT_EQ(RuleIds(with(R"(:"sha256:0000)", R"(:"SHA256:0000)")), std::vector<std::string>{"MI6"});
  EXPECT_EQ(RuleIds(with("sha256:b94d", "sha256:c94d")), std::vector<std::string>{"MI7"});
  EXPECT_EQ(RuleIds(with(R"("tokens_input":3)", R"("tokens_input":null)")),
            std::vector<std::string>{"MIO-INTERACTION-6"});
}

TEST(ModelIo, AnEmptyListHoldsEveryInvariant) {
  EXPECT_TRUE(RuleIds(R"({"model_io_schema_version":"1.0.0","adapter_id":"a","model_id":"m",
                          "mode":"replay","interactions":[]})")
                  .empty());
}

TEST(ModelIo, ViolationsSortInTheDeclaredOrder) {
  // Interaction 1 is missing (MI5 at every later one) and there are too many: MI11 and MI4.
  std::string text = R"({"model_io_schema_version":"x","adapter_id":"a","model_id":"m",
                         "mode":"record","interactions":[)";
  for (int k = 0; k <= 10'000; ++k) {
    const int i = k == 0 ? 0 : k + 1;
    text +=
        (k ? "," : "") + std::string(R"({"i":)") + std::to_string(i) + R"(,"prompt_hash":")" +
        std::string(kZeros) +
        R"(","response_hash":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","response_content":""})";
  }
  text += "]}";
  const std::vector<std::string> by_code_unit = RuleIds(text);
  ASSERT_EQ(by_code_unit.size(), 1u + 1u + 10'000u + 1u);
  EXPECT_EQ(by_code_unit.front(), "MI1");
  EXPECT_EQ(by_code_unit[1], "MI11");
  EXPECT_EQ(by_code_unit[2], "MI4");
  EXPECT_EQ(by_code_unit.back(), "MI5");
  const std::vector<std::string> numeric = RuleIds(text, ViolationOrder::kNumeric);
  EXPECT_EQ(numeric[1], "MI4");
  EXPECT_EQ(numeric[2], "MI5");
  EXPECT_EQ(numeric.back(), "MI11");
}

TEST(ModelIo, PathsSortAsStrings) {
  json::Document doc;
  ASSERT_TRUE(doc.Parse(R"({"model_io_schema_version":"1.0.0","adapter_id":"a","model_id":"m",
    "mode":"record","interactions":[{},{},{},{},{},{},{},{},{},{},{},{}]})"));
  const std::vector<Violation> v = Verify(doc.root(), Limits{});
  std::vector<std::string> mi6_paths;
  for (const Violation& x : v) {
    if (x.rule_id == "MI6") mi6_paths.push_back(x.path);
  }
  ASSERT_EQ(mi6_paths.size(), 12u);
  EXPECT_EQ(mi6_paths[0], "/interactions/0/prompt_hash");
  EXPECT_EQ(mi6_paths[1], "/interactions/1/prompt_hash");
  EXPECT_EQ(mi6_paths[2], "/interactions/10/prompt_hash");
  EXPECT_EQ(mi6_paths[3], "/interactions/11/prompt_hash");
  EXPECT_EQ(mi6_paths[4], "/interactions/2/prompt_hash");
}

TEST(ModelIo, NoCoreForAnInvalidSession) {
  json::Document doc;
  ASSERT_TRUE(doc.Parse(R"({"model_io_schema_version":"1.0.0","adapter_id":"a","mode":"record",
                           "interactions":[]})"));
  Result<std::string> hash = ModelIOHash(doc.root(), Limits{});
  ASSERT_FALSE(hash.ok());
  EXPECT_EQ(hash.status().code(), StatusCode::kParseError);
  EXPECT_NE(hash.status().message().find("MI2 at /model_id"), std::string::npos)
      << hash.status().message();
}

// Sessions with a megabyte of content or more check MI7's content hashes on a second thread while
// the core is hashed. SHA-256 of a million "a" is FIPS 180-2's test value (Appendix B.3).
std::string MillionASession(std::string_view second_hash) {
  const std::string content(1'000'000, 'a');
  const std::string interaction = R"(,"prompt_hash":")" + std::string(kZeros) +
                                  R"(","response_content":")" + content + R"(","response_hash":")";
  return R"({"model_io_schema_version":"1.0.0","adapter_id":"a","model_id":"m","mode":"record",
      "interactions":[{"i":0)" +
         interaction +
         R"(sha256:cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},{"i":1)" +
         interaction + std::string(second_hash) + R"("}]})";
}

TEST(ModelIo, ALargeSessionHashesItsCore) {
  json::Document doc;
  ASSERT_TRUE(doc.Parse(
      MillionASession("sha256:cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")));
  Result<std::string> hash = ModelIOHash(doc.root(), Limits{});
  ASSERT_TRUE(hash.ok()) << hash.status().message();
  Result<std::string> core = CanonicalCore(doc.root(), Limits{});
  ASSERT_TRUE(core.ok());
  EXPECT_EQ(*hash, ContentHash(*core));
}

TEST(ModelIo, ALargeSessionWithAWrongContentHashHasNoCore) {
  json::Document doc;
  ASSERT_TRUE(doc.Parse(MillionASession(kZeros)));
  Result<std::string> hash = ModelIOHash(doc.root(), Limits{});
  ASSERT_FALSE(hash.ok());
  EXPECT_EQ(hash.status().code(), StatusCode::kParseError);
  EXPECT_NE(hash.status().message().find("MI7 at /interactions/1/response_hash"), std::string::npos)
      << hash.status().message();
  Result<std::string> core = CanonicalCore(doc.root(), Limits{});
  ASSERT_FALSE(core.ok());
  EXPECT_EQ(hash.status().message(), core.status().message());
}

// A large session's core is written while it is verified, so the writer meets sessions of any
// shape: whatever is missing or mistyped, the hash is refused with the serial path's message.
TEST(ModelIo, ALargeSessionOfAnyShapeIsRefusedAsTheSerialPathRefusesIt) {
  const std::string valid =
      MillionASession("sha256:cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  const std::pair<std::string_view, std::string_view> edits[] = {
      {R"("adapter_id":"a",)", ""},
      {R"("mode":"record")", R"("mode":7)"},
      {R"("model_id":"m")", R"("model_id":{"m":[]})"},
      {R"("interactions":[)", R"("interactions":[42,)"},
      {R"({"i":0,)", "{"},
      {R"({"i":0,)", R"({"i":"zero",)"},
      {R"("prompt_hash":")", R"("prompt_hash":null,"x":")"},
      {R"("model_io_schema_version":"1.0.0",)", ""},
  };
  for (const auto& [from, to] : edits) {
    std::string text = valid;
    text.replace(text.find(from), from.size(), to);
    json::Document doc;
    ASSERT_TRUE(doc.Parse(text)) << from;
    Result<std::string> hash = ModelIOHash(doc.root(), Limits{});
    ASSERT_FALSE(hash.ok()) << from;
    Result<std::string> core = CanonicalCore(doc.root(), Limits{});
    ASSERT_FALSE(core.ok()) << from;
    EXPECT_EQ(hash.status().message(), core.status().message()) << from;
  }
  json::Document doc;  // interactions not an array, the content elsewhere: no second thread
  ASSERT_TRUE(doc.Parse(R"({"interactions":{"response_content":")" + std::string(2'000'000, 'a') +
                        R"("}})"));
  EXPECT_FALSE(ModelIOHash(doc.root(), Limits{}).ok());
}

// StreamingHash of `text`, parsed with its observer, as the `arcs model-io hash` verb does.
Result<std::string> StreamedHash(std::string_view text, const Limits& limits = {}) {
  json::Document doc;
  StreamingHash streaming(limits);
  json::ParseOptions options = ParseOptionsFor(limits);
  options.observer = streaming.observer();
  if (!doc.Parse(text, options)) return Status(StatusCode::kParseError, "not JSON");
  return streaming.Finish(doc.root());
}

Result<std::string> SerialHash(std::string_view text, const Limits& limits = {}) {
  json::Document doc;
  if (!doc.Parse(text, ParseOptionsFor(limits))) return Status(StatusCode::kParseError, "");
  return ModelIOHash(doc.root(), limits);
}

// Streamed or not, the same hash or the same refusal: when the parse shows the core's interactions
// in order (adapter_id first), when it does not, and when what it shows is not the session's own.
TEST(ModelIo, AStreamedHashIsModelIOHash) {
  const std::string large =
      MillionASession("sha256:cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  const std::string adapter_last = [&] {
    std::string text = kSession;
    text.replace(text.find(R"("adapter_id":"adapter-1",)"), 25, "");
    return text.insert(text.size() - 1, R"(,"adapter_id":"adapter-1")");
  }();
  const std::string texts[] = {
      kSession,
      large,
      adapter_last,             // the head cannot come first: nothing streamed
      MillionASession(kZeros),  // MI7: refused
      // Two interactions members (the last is the session's), two adapter_ids.
      std::string(kSession).insert(kSession.find(R"("interactions")"), R"("interactions":[{}],)"),
      std::string(kSession).insert(kSession.size() - 1, R"(,"adapter_id":"b")"),
      R"({"adapter_id":"a","interactions":[]})",
      R"({"adapter_id":"a","interactions":[1,"x",null,[]]})",
      R"({"adapter_id":"a","x":{"interactions":[{}]}})",
      R"([{"adapter_id":"a","interactions":[{}]}])",
  };
  for (const std::string& text : texts) {
    const Result<std::string> serial = SerialHash(text);
    const Result<std::string> streamed = StreamedHash(text);
    ASSERT_EQ(streamed.ok(), serial.ok()) << text.substr(0, 200);
    if (serial.ok()) {
      EXPECT_EQ(*streamed, *serial) << text.substr(0, 200);
    } else {
      EXPECT_EQ(streamed.status().message(), serial.status().message()) << text.substr(0, 200);
    }
  }
  EXPECT_TRUE(StreamedHash(large).ok());
  EXPECT_TRUE(StreamedHash(adapter_last).ok());
}

// More interactions than MI4 allows: the stream stops at the limit, so a file of very many
// interactions holds no more than the serial path does (bytes counted, not timed).
TEST(ModelIo, AStreamStopsPastTheInteractionLimit) {
  Limits limits;
  limits.max_interactions = 100;
  std::string many = R"({"adapter_id":"a","interactions":[)";
  for (int k = 0; k < 30'000; ++k) {
    many +=
        (k ? R"(,{"i":)" : R"({"i":)") + std::to_string(k) + R"(,"prompt_hash":")" +
        std::string(kZeros) +
        R"(","response_hash":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","response_content":""})";
  }
  many += R"(],"mode":"record","model_id":"m","model_io_schema_version":"1.0.0"})";
  std::uint64_t before = g_allocated_bytes;
  const Result<std::string> serial = SerialHash(many, limits);
  const std::uint64_t serial_bytes = g_allocated_bytes - before;
  before = g_allocated_bytes;
  const Result<std::string> streamed = StreamedHash(many, limits);
  const std::uint64_t streamed_bytes = g_allocated_bytes - before;
  ASSERT_FALSE(serial.ok());
  EXPECT_NE(serial.status().message().find("MI11 at /interactions"), std::string::npos)
      << serial.status().message();
  ASSERT_FALSE(streamed.ok());
  EXPECT_EQ(streamed.status().message(), serial.status().message());
  // The 30,000 interactions shown would take 480 kB more, and about twice that as the list grows.
  EXPECT_LT(streamed_bytes, serial_bytes + 256 * 1024) << serial_bytes << " bytes serially";
}

// The parse refuses the text after showing interactions: the worker is stopped before the walk
// writes over the strings it decoded, and the hash is refused.
TEST(ModelIo, ARefusedParseStopsTheStream) {
  std::string text = MillionASession(kZeros);
  text.insert(text.size() - 1, R"(,"tail":tru)");
  EXPECT_FALSE(StreamedHash(text).ok());
  text = MillionASession(kZeros);
  text.insert(text.find(R"({"i":1)"), R"({"i":"\ud800"},)");  // a lone surrogate
  EXPECT_FALSE(StreamedHash(text).ok());
}

// Every violation of `text` as Verify finds it from the content digests a ContentDigests took
// while the text was parsed; *taken: whether it took them (Verify hashed no content itself).
std::vector<Violation> VerifiedWithDigests(std::string_view text, const Limits& limits,
                                           bool* taken) {
  json::Document doc;
  ContentDigests digests(limits);
  json::ParseOptions options = ParseOptionsFor(limits);
  options.observer = &digests;
  EXPECT_TRUE(doc.Parse(text, options)) << text.substr(0, 200);
  *taken = digests.Take(doc.root()).has_value();
  return Verify(doc.root(), limits, ViolationOrder::kCodeUnit, &digests);
}

// The digests taken during the parse are each interaction's content's, in order: Verify finds with
// them what it finds hashing the contents itself, MI7's mismatches included; and they are not
// used where the parse did not show the session's own interactions.
TEST(ModelIo, ContentDigestsTakenDuringTheParseVerifyAsVerifyAlone) {
  const std::string wrong_second = [] {
    std::string text = kSession;
    const std::size_t at = text.find("sha256:fca8");
    return text.replace(at + 7, 4, "fca9");
  }();
  const std::string repeated =
      std::string(kSession).insert(kSession.find(R"("interactions")"), R"("interactions":[{}],)");
  const std::string not_strings =
      R"({"interactions":[{"response_content":1},{},[],{"response_content":"x"}]})";
  Limits few;
  few.max_interactions = 1;
  const struct {
    std::string text;
    Limits limits;
    bool taken;
  } cases[] = {
      {kSession, {}, true},
      {wrong_second, {}, true},
      {MillionASession(kZeros), {}, true},
      {not_strings, {}, true},
      {R"({"interactions":[]})", {}, true},
      {repeated, {}, false},   // the first interactions member was shown too
      {kSession, few, false},  // more interactions than the limit: no more are taken
  };
  for (const auto& c : cases) {
    json::Document doc;
    ASSERT_TRUE(doc.Parse(c.text)) << c.text.substr(0, 200);
    std::vector<std::string> alone, with_digests;
    for (const Violation& v : Verify(doc.root(), c.limits)) {
      alone.push_back(v.rule_id + v.path + v.message);
    }
    bool taken = false;
    for (const Violation& v : VerifiedWithDigests(c.text, c.limits, &taken)) {
      with_digests.push_back(v.rule_id + v.path + v.message);
    }
    EXPECT_EQ(with_digests, alone) << c.text.substr(0, 200);
    EXPECT_EQ(taken, c.taken) << c.text.substr(0, 200);
  }
}

// Taken digests are the SHA-256 of each string content (zeros for any other), and a parse that is
// refused leaves none to take.
TEST(ModelIo, ContentDigestsAreOfEachStringContent) {
  json::Document doc;
  ContentDigests digests(Limits{});
  json::ParseOptions options;
  options.observer = &digests;
  ASSERT_TRUE(doc.Parse(
      R"({"interactions":[{"response_content":"h\u00e9llo"},{"response_content":2}]})", options));
  const std::optional<std::vector<Sha256Digest>> taken = digests.Take(doc.root());
  ASSERT_TRUE(taken.has_value());
  ASSERT_EQ(taken->size(), 2u);
  // Python's hashlib.sha256("héllo".encode()).
  EXPECT_EQ(ToHex((*taken)[0]), "3c48591d8d098a4538f5e013dfcf406e948eac4d3277b10bf614e295d6068179");
  EXPECT_EQ((*taken)[1], Sha256Digest{});
  ContentDigests refused(Limits{});
  options.observer = &refused;
  EXPECT_FALSE(doc.Parse(R"({"interactions":[{"response_content":"a"},tru]})", options));
  EXPECT_FALSE(refused.Take(doc.root()).has_value());
}

TEST(ModelIo, ContentLimitsCountUtf8Bytes) {
  Limits small;
  small.max_content_bytes = 4;
  small.max_total_content_bytes = 6;
  // "éé" is 4 bytes of UTF-8 (2 UTF-16 units): at the limit; "ééé" is past it, and the two
  // together are past the total.
  json::Document doc;
  ASSERT_TRUE(doc.Parse(
      R"({"model_io_schema_version":"1.0.0","adapter_id":"a","model_id":"m","mode":"record",
          "interactions":[{"i":0,"prompt_hash":")" +
      std::string(kZeros) + R"(","response_hash":")" + ContentHash("\xc3\xa9\xc3\xa9") +
      R"(","response_content":"éé"},{"i":1,"prompt_hash":")" + std::string(kZeros) +
      R"(","response_hash":")" + ContentHash("\xc3\xa9\xc3\xa9\xc3\xa9") +
      R"(","response_content":"ééé"}]})"));
  std::vector<std::string> paths;
  for (const Violation& v : Verify(doc.root(), small)) paths.push_back(v.rule_id + " " + v.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"MI11 /interactions",
                                             "MI11 /interactions/1/response_content"}));
}

// MI11's session total at its real size, generated here rather than committed (errata MIO-E8):
// 100 contents of 1,000,000 bytes reach 100,000,000 exactly; one more byte is one too many.
TEST(ModelIo, TheSessionTotalIsEnforcedAtItsRealSize) {
  const std::string content(1'000'000, 'a');
  const std::string content_hash = ContentHash(content);
  auto session = [&](std::size_t full, bool one_more_byte) {
    std::string text = R"({"model_io_schema_version":"1.0.0","adapter_id":"a","model_id":"m",
                          "mode":"record","interactions":[)";
    auto add = [&](std::size_t i, const std::string& body, const std::string& hash) {
      text += (i ? "," : "") + std::string(R"({"i":)") + std::to_string(i) + R"(,"prompt_hash":")" +
              std::string(kZeros) + R"(","response_hash":")" + hash + R"(","response_content":")" +
              body + R"("})";
    };
    for (std::size_t i = 0; i < full; ++i) add(i, content, content_hash);
    if (one_more_byte) add(full, "b", ContentHash("b"));
    return text + "]}";
  };
  std::vector<std::string> ids;
  for (bool one_more_byte : {false, true}) {
    json::Document doc;
    ASSERT_TRUE(doc.Parse(session(100, one_more_byte)));
    for (const Violation& v : Verify(doc.root(), Limits{})) ids.push_back(v.rule_id + " " + v.path);
  }
  EXPECT_EQ(ids, std::vector<std::string>{"MI11 /interactions"});
}

// With the depth limit raised, a document nested 100,000 deep is verified in work linear in its
// depth: the JSON Pointer of a value is built only when a violation names it, not copied at each
// level (a path per level cost depth^2 bytes: 10^10 at this depth). The measure is the bytes
// allocated, against a document ten times shallower: about ten times as many, not a hundred.
TEST(ModelIo, TheWorkIsLinearInTheDepth) {
  auto allocated = [](std::size_t depth) {
    const std::string text = R"({"model_io_schema_version":"1.0.0","adapter_id":"a",
        "model_id":"m","mode":"record","interactions":[],"x":)" +
                             std::string(depth, '[') + "1e400" + std::string(depth, ']') + "}";
    Limits limits;
    limits.max_json_depth = depth + 1;
    json::Document doc;
    EXPECT_TRUE(doc.Parse(text, ParseOptionsFor(limits)));
    const std::uint64_t before = g_allocated_bytes;
    const std::vector<Violation> violations = Verify(doc.root(), limits);
    const std::uint64_t bytes = g_allocated_bytes - before;
    EXPECT_EQ(violations.size(), 1u);
    if (!violations.empty()) {  // the number at the bottom, named by its whole path
      std::string path = "/x";
      for (std::size_t k = 0; k < depth; ++k) path += "/0";
      EXPECT_EQ(violations[0].rule_id, "MIO-JSON-4");
      EXPECT_EQ(violations[0].path, path);
    }
    return bytes;
  };
  const std::uint64_t shallow = allocated(10'000);
  const std::uint64_t deep = allocated(100'000);
  EXPECT_LT(deep, 20 * shallow) << "10,000 deep: " << shallow << " bytes; 100,000: " << deep;
}

}  // namespace
}  // namespace arcs::model_io

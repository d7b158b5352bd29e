#include "reference/core/sha256.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace arcs {
namespace {

// FIPS 180-2 / NIST CSRC example vectors.
constexpr std::string_view kEmptyHex =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
constexpr std::string_view kAbcHex =
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
constexpr std::string_view k448BitMessage =
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
constexpr std::string_view k448BitHex =
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
constexpr std::string_view kMillionAHex =
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";

TEST(Sha256Test, NistVectors) {
  EXPECT_EQ(ToHex(Sha256::Of("")), kEmptyHex);
  EXPECT_EQ(ToHex(Sha256::Of("abc")), kAbcHex);
  EXPECT_EQ(ToHex(Sha256::Of(k448BitMessage)), k448BitHex);
}

TEST(Sha256Test, MillionAInUnevenChunks) {
  const std::string block(1000, 'a');
  Sha256 hasher;
  std::size_t fed = 0;
  // Chunk sizes 0, 1, ..., 999 repeating: crosses every position of the 64-byte SHA-256 block.
  for (std::size_t step = 0; fed < 1000000; step = (step + 1) % 1000) {
    const std::size_t n = std::min(step, 1000000 - fed);
    hasher.Update(std::string_view(block).substr(0, n));
    fed += n;
  }
  EXPECT_EQ(ToHex(hasher.Finish()), kMillionAHex);
}

TEST(Sha256Test, ChunkingDoesNotMatter) {
  std::string message;
  for (int i = 0; i < 300; ++i) message += static_cast<char>(i * 37);
  const Sha256Digest whole = Sha256::Of(message);
  for (std::size_t split = 0; split <= message.size(); ++split) {
    Sha256 hasher;
    hasher.Update(std::string_view(message).substr(0, split));
    hasher.Update(std::string_view(message).substr(split));
    ASSERT_EQ(hasher.Finish(), whole) << "split at " << split;
  }
}

TEST(Sha256Test, FinishStartsOver) {
  Sha256 hasher;
  hasher.Update("ab");
  hasher.Update("c");
  EXPECT_EQ(ToHex(hasher.Finish()), kAbcHex);
  // Nothing fed since the last Finish(): the digest of the empty message.
  EXPECT_EQ(ToHex(hasher.Finish()), kEmptyHex);
  hasher.Update(k448BitMessage);
  EXPECT_EQ(ToHex(hasher.Finish()), k448BitHex);
  for (int i = 0; i < 1000; ++i) {
    hasher.Update("abc");
    ASSERT_EQ(ToHex(hasher.Finish()), kAbcHex);
  }
}

TEST(Sha256Test, OfMatchesHasherAndIsRepeatable) {
  Sha256 hasher;
  hasher.Update("abc");
  EXPECT_EQ(Sha256::Of("abc"), hasher.Finish());
  EXPECT_EQ(Sha256::Of("abc"), Sha256::Of("abc"));
  EXPECT_NE(Sha256::Of("abc"), Sha256::Of("abd"));
  // Embedded NUL bytes are data.
  EXPECT_NE(Sha256::Of(std::string_view("a\0b", 3)), Sha256::Of("ab"));
}

TEST(Sha256Test, IndependentHashersDoNotInterfere) {
  Sha256 a;
  Sha256 b;
  a.Update("a");
  b.Update(k448BitMessage);
  a.Update("bc");
  EXPECT_EQ(ToHex(b.Finish()), k448BitHex);
  EXPECT_EQ(ToHex(a.Finish()), kAbcHex);
}

TEST(Sha256Test, ToHexIsLowercaseAndFullLength) {
  Sha256Digest digest{};
  EXPECT_EQ(ToHex(digest), std::string(64, '0'));
  for (std::size_t i = 0; i < digest.size(); ++i) digest[i] = static_cast<std::uint8_t>(i * 8 + 7);
  digest[0] = 0xAB;
  digest[31] = 0xFF;
  const std::string hex = ToHex(digest);
  ASSERT_EQ(hex.size(), 64u);
  EXPECT_EQ(hex.substr(0, 4), "ab0f");
  EXPECT_EQ(hex.substr(62), "ff");
  EXPECT_EQ(hex.find_first_not_of("0123456789abcdef"), std::string::npos);
}

// The NIST vectors after as many messages as a batch holds back, so that the lanes hash them.
TEST(Sha256BatchTest, NistVectors) {
  Sha256Digest empty{}, abc{}, message{}, million{};
  const std::string million_a(1000000, 'a');
  std::array<Sha256Digest, Sha256Batch::kHeldMessages> fillers{};
  {
    Sha256Batch batch;
    for (Sha256Digest& filler : fillers) batch.Add("filler", &filler);
    batch.Add("", &empty);
    batch.Add("abc", &abc);
    batch.Add(k448BitMessage, &message);
    batch.Add(million_a, &million);
  }  // the destructor flushes
  EXPECT_EQ(ToHex(empty), kEmptyHex);
  EXPECT_EQ(ToHex(abc), kAbcHex);
  EXPECT_EQ(ToHex(message), k448BitHex);
  EXPECT_EQ(ToHex(million), kMillionAHex);
}

// Many messages in flight at once, of every length around the block and padding boundaries and
// of random lengths up to 5,000 bytes and around 64 KiB, checked against OpenSSL one by one.
TEST(Sha256BatchTest, ManyMessagesOfEveryLengthMatchOpenSsl) {
  std::mt19937_64 random(29);
  std::vector<std::string> messages;
  for (std::size_t length = 0; length <= 200; ++length) messages.emplace_back(length, '\0');
  for (int i = 0; i < 2000; ++i) messages.emplace_back(random() % 5000, '\0');
  // Around the longest message ipsec-mb 1.3's lanes take (65,534 bytes; OpenSSL hashes longer).
  for (std::size_t length : {65533, 65534, 65535, 65536, 70000}) messages.emplace_back(length, 0);
  for (std::string& m : messages) {
    for (char& c : m) c = static_cast<char>(random());
  }
  std::vector<Sha256Digest> digests(messages.size());
  Sha256Batch batch;
  for (int round = 0; round < 2; ++round) {  // the batch is used again after a Flush
    std::fill(digests.begin(), digests.end(), Sha256Digest{});
    for (std::size_t k = 0; k < messages.size(); ++k) batch.Add(messages[k], &digests[k]);
    batch.Flush();
    for (std::size_t k = 0; k < messages.size(); ++k) {
      ASSERT_EQ(ToHex(digests[k]), ToHex(Sha256::Of(messages[k])))
          << "message " << k << " of " << messages[k].size() << " bytes, round " << round;
    }
  }
}

// Batches of every size around the number held back for OpenSSL, one after another in the same
// batch: each message's digest is written by Flush, whichever path took it.
TEST(Sha256BatchTest, SmallBatchesMatchOpenSsl) {
  std::mt19937_64 random(8);
  Sha256Batch batch;
  for (std::size_t count = 0; count <= 3 * Sha256Batch::kHeldMessages; ++count) {
    std::vector<std::string> messages;
    for (std::size_t k = 0; k < count; ++k) {
      messages.emplace_back(1 + random() % 3000, '\0');
      for (char& c : messages.back()) c = static_cast<char>(random());
    }
    std::vector<Sha256Digest> digests(count);
    for (std::size_t k = 0; k < count; ++k) batch.Add(messages[k], &digests[k]);
    batch.Flush();
    for (std::size_t k = 0; k < count; ++k) {
      ASSERT_EQ(ToHex(digests[k]), ToHex(Sha256::Of(messages[k])))
          << "message " << k << " of a batch of " << count;
    }
  }
}

TEST(Sha256BatchTest, AViewWithNoAddressIsTheEmptyMessage) {
  Sha256Digest digest{};
  Sha256Batch batch;
  batch.Add(std::string_view(), &digest);
  batch.Flush();
  EXPECT_EQ(ToHex(digest), kEmptyHex);
}

}  // namespace
}  // namespace arcs

#include "reference/core/number.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace arcs::json {
namespace {

TEST(NumberClassify, Integrality) {
  EXPECT_TRUE(Classify("1").integral);
  EXPECT_TRUE(Classify("1.0").integral);
  EXPECT_TRUE(Classify("1.0").has_fraction);
  EXPECT_TRUE(Classify("1e2").integral);
  EXPECT_TRUE(Classify("1e2").has_exponent);
  EXPECT_TRUE(Classify("1.25e2").integral);
  EXPECT_FALSE(Classify("1.25e1").integral);
  EXPECT_FALSE(Classify("1.5").integral);
  EXPECT_FALSE(Classify("1e-1").integral);
  EXPECT_TRUE(Classify("100e-2").integral);
  EXPECT_TRUE(Classify("-0").zero);
  EXPECT_TRUE(Classify("-0").negative);
  EXPECT_TRUE(Classify("0.000e-99999999999999999999").zero);
  EXPECT_TRUE(Classify("1e99999999999999999999999").integral);
  EXPECT_FALSE(Classify("1e-99999999999999999999999").integral);
  EXPECT_TRUE(Classify(std::string(500, '9')).integral);
}

// Integer tokens are told from their text alone (no digits normalized): the same answers.
TEST(NumberClassify, IntegerTokens) {
  for (const char* text : {"0", "-0", "10", "-12", "900"}) {
    const NumberInfo info = Classify(text);
    EXPECT_TRUE(info.integral) << text;
    EXPECT_FALSE(info.has_fraction || info.has_exponent) << text;
    EXPECT_EQ(info.negative, text[0] == '-') << text;
    EXPECT_EQ(info.zero, std::string_view(text) == "0" || std::string_view(text) == "-0") << text;
  }
}

// The largest double is about 1.797e308 (IEEE 754 binary64).
TEST(NumberWithinDoubles, AsToDoubleSaysWhateverTheSpelling) {
  for (const std::string& text :
       {std::string("0"), std::string("-1.5e-400"), std::string("1e308"), std::string("-1e308"),
        std::string(308, '9'), "1" + std::string(308, '0'), "0." + std::string(400, '0') + "1",
        std::string("17976931348623157e292")}) {
    EXPECT_TRUE(IsWithinDoubles(text)) << text;
    EXPECT_TRUE(ToDouble(text).has_value()) << text;
  }
  for (const std::string& text :
       {std::string("1e309"), std::string("-1e400"), "2" + std::string(308, '0'),
        std::string(309, '9'), std::string("17976931348623159e292")}) {
    EXPECT_FALSE(IsWithinDoubles(text)) << text;
    EXPECT_FALSE(ToDouble(text).has_value()) << text;
  }
}

TEST(NumberToInt64, IntegerTokensOnly) {
  EXPECT_EQ(ToInt64("0"), 0);
  EXPECT_EQ(ToInt64("-0"), 0);
  EXPECT_EQ(ToInt64("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(ToInt64("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(ToInt64("9223372036854775808"), std::nullopt);
  EXPECT_EQ(ToInt64("1.0"), std::nullopt);
  EXPECT_EQ(ToInt64("1e2"), std::nullopt);
}

TEST(NumberToInt64, IntegralValues) {
  EXPECT_EQ(IntegralValueToInt64("1.0"), 1);
  EXPECT_EQ(IntegralValueToInt64("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(IntegralValueToInt64("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(IntegralValueToInt64("9223372036854775808"), std::nullopt);
  EXPECT_EQ(IntegralValueToInt64(std::string(30, '9')), std::nullopt);
  EXPECT_EQ(IntegralValueToInt64("1e2"), 100);
  EXPECT_EQ(IntegralValueToInt64("-0.0"), 0);
  EXPECT_EQ(IntegralValueToInt64("12.50e1"), 125);
  EXPECT_EQ(IntegralValueToInt64("9.223372036854775807e18"), INT64_MAX);
  EXPECT_EQ(IntegralValueToInt64("9.223372036854775808e18"), std::nullopt);
  EXPECT_EQ(IntegralValueToInt64("-9.223372036854775808e18"), INT64_MIN);
  EXPECT_EQ(IntegralValueToInt64("1e400"), std::nullopt);
  EXPECT_EQ(IntegralValueToInt64("1.5"), std::nullopt);
  EXPECT_EQ(IntegralValueToInt64("1e99999999999999999999999"), std::nullopt);
}

TEST(NumberToDouble, FiniteOnly) {
  EXPECT_EQ(ToDouble("1.5"), 1.5);
  EXPECT_EQ(ToDouble("-0"), -0.0);
  EXPECT_EQ(ToDouble("1e308"), 1e308);
  EXPECT_EQ(ToDouble("10e308"), std::nullopt);  // RapidJSON 1.1.0 turns this into infinity
  EXPECT_EQ(ToDouble("1e400"), std::nullopt);
  EXPECT_EQ(ToDouble("1e-400"), 0.0);
  EXPECT_EQ(ToDouble("0.1"), 0.1);
  EXPECT_EQ(ToDouble("2.2250738585072011e-308"), 2.2250738585072011e-308);
}

TEST(Number, SameValueComparesExactDecimalValues) {
  EXPECT_TRUE(SameValue("1", "1.0"));
  EXPECT_TRUE(SameValue("1", "1e0"));
  EXPECT_TRUE(SameValue("1", "10e-1"));
  EXPECT_TRUE(SameValue("100", "1E+2"));
  EXPECT_TRUE(SameValue("0", "-0"));
  EXPECT_TRUE(SameValue("0", "0.000e99"));
  EXPECT_TRUE(SameValue("-12.50", "-1.25e1"));
  EXPECT_TRUE(SameValue("123456789012345678901234567890", "1.2345678901234567890123456789e29"));
  EXPECT_FALSE(SameValue("1", "1.0000000000000000001"));
  EXPECT_FALSE(SameValue("1", "-1"));
  EXPECT_FALSE(SameValue("9007199254740993", "9007199254740992"));  // beyond a double's 2^53
  EXPECT_FALSE(SameValue("1e400", "1e401"));
  EXPECT_TRUE(SameValue("1e400", "10e399"));
  EXPECT_TRUE(SameValue("1e9999999999999999999", "1e9999999999999999999"));
  EXPECT_FALSE(SameValue("1e9999999999999999999", "10e9999999999999999998"));  // documented
  // Huge exponents digit for digit (the convert fuzzer's finding: 1e3 is written 1.0e+3).
  EXPECT_TRUE(SameValue("1e9999999999999999999", "1.0e+09999999999999999999"));
  EXPECT_TRUE(SameValue("-2.5e-9999999999999999999", "-2.50e-9999999999999999999"));
  EXPECT_FALSE(SameValue("1e9999999999999999999", "1e-9999999999999999999"));
  EXPECT_FALSE(SameValue("1e9999999999999999999", "2e9999999999999999999"));
  EXPECT_FALSE(SameValue("1e9999999999999999999", "1"));
  EXPECT_TRUE(SameValue("0e41111111111111111111111111111111", "0.0e+4111111111111111111111111"));
  EXPECT_TRUE(SameValue("-0e-99999999999999999999", "0"));
}

// The MCP pending-request table once bucketed ids by their nearest double: ids that differ only
// past a double's precision all fell into one bucket, searched linearly. Their value keys differ.
TEST(Number, ValueKeyTellsApartWhatOneDoubleJoins) {
  EXPECT_EQ(ValueKey("1"), "+1e0");
  EXPECT_EQ(ValueKey("-12.50"), "-125e-1");
  EXPECT_EQ(ValueKey("-0.0e7"), "0");
  EXPECT_EQ(ValueKey("1.0e+09999999999999999999"), "+1E+9999999999999999999s0");
  std::string previous;
  for (int i = 1; i <= 1000; ++i) {
    const std::string id = "1.00000000000000000000" + std::to_string(i);
    ASSERT_EQ(ToDouble(id), 1.0) << id;
    const std::string key = ValueKey(id);
    EXPECT_NE(key, previous) << id;
    EXPECT_EQ(key, ValueKey(id + "000e0")) << id;
    previous = key;
  }
}

// An integer token takes a shorter way to its key (no fraction or exponent to normalize): it must
// end where the general way takes the same value written with a fraction and an exponent.
TEST(Number, IntegerTokensKeyAsTheirValueWrittenOtherwise) {
  std::vector<std::string> integers = {"0",
                                       "-0",
                                       "7",
                                       "-7",
                                       "10",
                                       "100",
                                       "1200",
                                       "-1200",
                                       "9007199254740993",
                                       "123456789012345678901234567890",
                                       "100000000000000000000000000000"};
  for (int i = 0; i < 3000; i += 7) integers.push_back(std::to_string(i * 1000 + i % 10));
  for (const std::string& integer : integers) {
    EXPECT_EQ(ValueKey(integer), ValueKey(integer + ".000e0")) << integer;
    EXPECT_EQ(ValueKey(integer), ValueKey(integer + "0e-1")) << integer;
  }
  EXPECT_EQ(ValueKey("1200"), "+12e2");
  EXPECT_EQ(ValueKey("-0"), "0");
}

}  // namespace
}  // namespace arcs::json

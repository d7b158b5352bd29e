// What every `arcs` command's command line shares: the usual spellings of options (`--name=value`,
// `-j8`) and colour on a terminal that wants it.
#ifndef ARCS_RUNNER_CLI_H_
#define ARCS_RUNNER_CLI_H_

#include <string>
#include <string_view>
#include <vector>

namespace arcs::runner {

// Splits `--name=value` into `--name` `value` for every option in `with_value`, and `-jN` into
// `-j` `N` (the forms users type from habit); other arguments are left as they are. Everything
// after `--` is left alone.
std::vector<std::string> SplitOptionValues(const std::vector<std::string>& args,
                                           const std::vector<std::string_view>& with_value);

// The value of the option at args[*i]: the argument after it, taken (*i moves onto it); false
// when there is none.
bool TakeValue(const std::vector<std::string>& args, std::size_t* i, std::string* value);

// A duration for people: "0.25 s" below 10 s, then "12.5 s".
std::string Seconds(double seconds);

enum class ColorWhen { kAuto, kAlways, kNever };

// Parses "auto", "always" or "never"; false for anything else. Commands take `--color` alone as
// always and `--color=WHEN`.
bool ParseColorWhen(std::string_view text, ColorWhen* when);

// Whether to colour what goes to `fd`: kAlways and kNever decide; kAuto colours a terminal unless
// NO_COLOR (https://no-color.org: set and not empty) or TERM=dumb forbids it.
bool UseColor(ColorWhen when, int fd);

// SGR colours for a terminal, or nothing when off; the text given must already be escaped. Red,
// magenta and cyan are bold, as gcc's error, warning and note.
class Paint {
 public:
  explicit Paint(bool on) : on_(on) {}
  std::string Bold(std::string_view text) const { return Wrap("1", text); }
  std::string Red(std::string_view text) const { return Wrap("1;31", text); }
  std::string Yellow(std::string_view text) const { return Wrap("33", text); }
  std::string Green(std::string_view text) const { return Wrap("32", text); }
  std::string Magenta(std::string_view text) const { return Wrap("1;35", text); }
  std::string Cyan(std::string_view text) const { return Wrap("1;36", text); }
  std::string Dim(std::string_view text) const { return Wrap("2", text); }
  bool on() const { return on_; }

 private:
  std::string Wrap(std::string_view sgr, std::string_view text) const;
  bool on_;
};

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_CLI_H_

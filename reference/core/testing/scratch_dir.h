// A test's own folder under the test temporary directory (gtest's TempDir, $TEST_TMPDIR or /tmp):
// new to the process (mkdtemp), so that two runs of the suite at once never share a file, and
// removed with everything in it when the test is done with it. Fixed names in /tmp once collided
// between runs and piled up by the hundred.
#ifndef ARCS_REFERENCE_CORE_TESTING_SCRATCH_DIR_H_
#define ARCS_REFERENCE_CORE_TESTING_SCRATCH_DIR_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

namespace arcs::testing {

class ScratchDir {
 public:
  explicit ScratchDir(std::string_view prefix = "arcs-test") {
    std::string pattern = ::testing::TempDir();
    if (!pattern.empty() && pattern.back() != '/') pattern += '/';
    pattern.append(prefix).append("-XXXXXX");
    if (::mkdtemp(pattern.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp " << pattern << ": " << std::strerror(errno);
      return;
    }
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;  // a test that removed it already is no failure
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(std::string_view name) const { return path_ + "/" + std::string(name); }

 private:
  std::string path_;
};

}  // namespace arcs::testing

#endif  // ARCS_REFERENCE_CORE_TESTING_SCRATCH_DIR_H_

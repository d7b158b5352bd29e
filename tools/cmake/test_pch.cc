// Compiled only to make the precompiled gtest header every test reuses (CMakeLists.txt).

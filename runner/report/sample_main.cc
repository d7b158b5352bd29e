// arcs_report_sample [DIR]: prints SampleReport() as JSON, or with DIR writes every rendering of
// it there (WriteAllRenderings, basename "sample"). For the schema and rendering checks of
// schemas/report/check_report.py.
#include <iostream>

#include "runner/report/render.h"
#include "runner/report/report.h"
#include "runner/report/sample.h"

int main(int argc, char** argv) {
  const arcs::report::Report sample = arcs::report::testing::SampleReport();
  if (argc > 1) {
    arcs::Status status = arcs::report::WriteAllRenderings(sample, argv[1], "sample");
    if (!status.ok()) std::cerr << status.ToString() << "\n";
    return status.ok() ? 0 : 1;
  }
  std::cout << arcs::report::ToJson(sample);
  return std::cout ? 0 : 1;
}

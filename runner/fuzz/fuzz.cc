#include "runner/fuzz/fuzz.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <barrier>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <thread>

#include "conformance/format.h"
#include "conformance/registry.h"
#include "reference/core/base64.h"
#include "reference/core/io.h"
#include "reference/core/json.h"
#include "reference/core/sha256.h"
#include "reference/core/strings.h"
#include "runner/fuzz/mutate.h"
#include "runner/fuzz/open_verdicts.h"
#include "runner/fuzz/rechain.h"
#include "runner/fuzz/session.h"
#include "runner/judge.h"
#include "runner/report/escape.h"

namespace arcs::fuzz {
namespace {

using protocol::Inputs;

struct Entry {
  const runner::SuiteCase* origin = nullptr;
  Inputs inputs;
  std::string mutations;
};

// What comparing the two answers to one input found.
struct Comparison {
  std::string key;  // the signature: operation, kind, both outcomes, rule ids
  // What keeps a mutant in the corpus: the signature, and for an operation whose answers name no
  // rule (a round trip accepts or rejects), what the reference's validator says of the input too.
  std::string corpus_key;
  bool disagree = false;
  std::string open;  // why the spec may leave it open ("" when it does not): not a finding
  std::string kind;  // "agree", "verdict", "output", a fate, "errored"
  std::string implementation;
  std::string reference;
  std::vector<std::string> rules;
  std::string detail;
  bool compared = false;       // both sides judged it (the implementation's fate included)
  bool skipped = false;        // the implementation skipped it
  bool second_answer = false;  // a protocol error shown by the next case: not minimized
};

// A case asked and what the reference said of it, kept until the next case shows whether the
// implementation answered it twice.
struct Asked {
  Entry entry;
  std::string id;
  protocol::Answer reference;
  protocol::Answer validation;
};

// One implementation process and what the spec leaves open to it, per format.
struct Worker {
  Worker(std::string command, std::vector<std::string> formats, double timeout_seconds)
      : session(std::move(command), std::move(formats), timeout_seconds) {}
  Session session;
  std::map<std::string, OpenVerdicts> open;
  TimeShares spent;
  std::optional<Asked> last;  // the case asked last
  // The case the implementation answered twice, and its finding, until it is recorded.
  std::optional<std::pair<Entry, Comparison>> twice;
};

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string OutcomeWord(const conformance::OperationSpec& op, const protocol::Answer& a) {
  if (a.status == protocol::AnswerStatus::kSkipped) return "skipped";
  if (a.status == protocol::AnswerStatus::kErrored) return "errored";
  return std::string(a.verdict == protocol::Verdict::kValid ? op.valid_outcome
                                                            : op.invalid_outcome);
}

// What the operation asks beyond the verdict, as its check sees it ("" when it holds). `reference`:
// the reference's answer to the mutant, which the check compares with rather than compute again.
std::string Check(const conformance::OperationSpec& op, const Entry& e,
                  const protocol::Answer& answer,
                  const std::map<std::string, std::string>& policies,
                  const protocol::Answer& reference) {
  if (!op.check_answer) return "";
  const conformance::CaseInput input{&e.inputs, e.origin->vector->limits, e.origin->vector->args};
  const conformance::LazyReferenceAnswer shared(op.reference, input, &reference);
  const bool ambiguous = e.origin->expectation->expect.ground == conformance::Ground::kAcceptable;
  conformance::AnswerCheck check{input, answer, policies, ambiguous};
  check.reference = &shared;
  return op.check_answer(check);
}

// What an implementation says is unbounded (up to 1,000 findings an answer, rule ids of any
// length), and each signature is kept: so at most kMaxRules rule ids, each cut, in one.
constexpr std::size_t kMaxRules = 32;
constexpr std::size_t kMaxRuleBytes = 64;
constexpr std::size_t kMaxDetailBytes = 2000;
// A limit no mutant reaches (mutants are at most --max-input-bytes): 2^40.
constexpr std::uint64_t kLiftedLimit = std::uint64_t{1} << 40;

std::vector<std::string> Bounded(const std::set<std::string>& rules) {
  std::vector<std::string> kept;
  for (const std::string& rule : rules) {
    if (kept.size() == kMaxRules) {
      kept.push_back("+" + std::to_string(rules.size() - kMaxRules) + " more");
      break;
    }
    kept.push_back(Excerpt(rule, kMaxRuleBytes));
  }
  return kept;
}

void AppendInputs(const Inputs& inputs, std::string* out) {
  *out += "{";
  for (const auto& [name, bytes] : inputs) json::AppendMember(name, base64::Encode(bytes), out);
  *out += "}";
}

class Engine {
 public:
  Engine(const FuzzOptions& options, const runner::Suite& suite, const std::atomic<bool>* stop)
      : options_(options), suite_(suite), stop_(stop), started_(std::chrono::steady_clock::now()) {
    report_.known_hits.assign(options_.known_signatures.size(), 0);
    for (const runner::SuiteCase& c : suite.cases) {
      // A resource probe's inputs are made only when `arcs run` sends it: it has none to mutate,
      // whatever its ground (one whose outcome the text settles is "required").
      if (c.probe) continue;
      if (c.InputBytes() > options_.max_input_bytes) {
        ++report_.too_large;
        continue;
      }
      corpus_.push_back({&c, *c.inputs, ""});
      if (std::find(formats_.begin(), formats_.end(), c.format->name) == formats_.end()) {
        formats_.emplace_back(c.format->name);
      }
    }
    if (!options_.corpus_dir.empty()) LoadCorpus(suite);
    report_.seeds = corpus_.size();
    const protocol::ImplementationHello reference = runner::ReferenceHello();
    for (const auto& [format, support] : reference.formats) {
      reference_policies_[format] = support.policies;
    }
  }

  FuzzReport Run() {
    if (corpus_.empty()) {
      report_.error = "no seed: the filters select no case";
      return std::move(report_);
    }
    const std::size_t jobs = static_cast<std::size_t>(std::max(1, options_.jobs));
    workers_.resize(jobs);
    starts_.assign(jobs, Status::Ok());
    ends_.resize(jobs);
    std::barrier<> barrier(static_cast<std::ptrdiff_t>(jobs));
    std::vector<std::thread> threads;
    for (std::size_t j = 1; j < jobs; ++j) threads.emplace_back([&, j] { Work(j, barrier); });
    Work(0, barrier);
    for (std::thread& t : threads) t.join();
    // After the last run: the command that finds them again is the whole run's.
    for (auto& end : ends_) {
      if (end) File(std::move(end->first), end->second, report_.execs ? report_.execs - 1 : 0);
    }
    report_.interrupted = Stopped();
    report_.seconds = Elapsed();
    report_.corpus = corpus_.size();
    if (!options_.corpus_dir.empty()) SaveCorpus();
    return std::move(report_);
  }

 private:
  // Mutants are made and judged in rounds: in parallel from the corpus as it stood at the round's
  // start, then recorded in their runs' order by the lead (the first worker that started, which
  // also minimizes the findings) while the others wait. A mutant depends
  // on the seed, its run and the corpus only, so a seed and --runs give the same run whatever -j
  // is. Each worker thread lives for the whole run and alone starts, restarts and shuts down its
  // session's processes: they die with the thread that started them (PR_SET_PDEATHSIG, see
  // reference/core/spawn.cc).
  static constexpr std::uint64_t kRound = 64;

  struct Tried {
    Entry mutant;
    std::optional<Comparison> comparison;  // none when the budget ran out first
    // A case before it that the implementation answered twice, shown by this one's asking.
    std::optional<std::pair<Entry, Comparison>> twice;
  };

  void Work(std::size_t index, std::barrier<>& barrier) {
    starts_[index] = Start(index);
    barrier.arrive_and_wait();
    if (index == 0) Begin();
    barrier.arrive_and_wait();
    if (!workers_[index]) return barrier.arrive_and_drop();
    while (!done_) {
      Judge(*workers_[index]);
      barrier.arrive_and_wait();
      if (index == lead_) RecordRound();
      barrier.arrive_and_wait();
    }
    End(index);
    std::lock_guard lock(spent_mu_);
    report_.restarts += workers_[index]->session.restarts();
    report_.spent.mutating += workers_[index]->spent.mutating;
    report_.spent.reference += workers_[index]->spent.reference;
    report_.spent.implementation += workers_[index]->spent.implementation;
    workers_[index].reset();  // its processes shut down by the thread that started them
  }

  // A worker's last process shut down, by its own thread: a second answer to its last case, which
  // no next case can show, comes then (kept in ends_ until every worker is done).
  void End(std::size_t index) {
    Worker& worker = *workers_[index];
    const std::string answered = worker.session.answered();
    const std::string twice = worker.session.Shutdown(stop_);
    if (twice.empty() || !worker.last || worker.last->id != answered) return;
    ends_[index] = SecondAnswer(worker, twice);
  }

  // The finding of the case the worker asked last, which the implementation answered twice.
  std::pair<Entry, Comparison> SecondAnswer(Worker& worker, const std::string& detail) {
    Reply fault;
    fault.fate = supervisor::Fate::kProtocolError;
    fault.detail = detail;
    Asked& last = *worker.last;
    Comparison twice = Judged(worker, last.entry, last.reference, last.validation, fault);
    twice.second_answer = true;
    return {std::move(last.entry), std::move(twice)};
  }

  // Worker 0, once every worker has tried to start. A worker that did not start leaves its share
  // to the others; the run fails only when none started, with the first one's reason.
  void Begin() {
    for (std::size_t j = 0; j < workers_.size(); ++j) {
      if (!workers_[j]) continue;
      if (report_.workers++ == 0) lead_ = j;
    }
    if (report_.workers == 0) {
      if (!Stopped()) report_.error = "the implementation did not start: " + starts_[0].message();
      done_ = true;
      return;
    }
    report_.implementation = workers_[lead_]->session.hello().implementation.name;
    LeaveUndeclared(workers_[lead_]->session.hello());
    NextRound(0);
  }

  // The seeds (and corpus entries) of formats and operations the hello does not declare are
  // never sent; with none left, there is no run.
  void LeaveUndeclared(const protocol::ImplementationHello& hello) {
    const auto undeclared = [&](const Entry& e) {
      return !protocol::Declares(hello, e.origin->format->name, e.origin->operation);
    };
    const auto left = std::remove_if(corpus_.begin(), corpus_.end(), undeclared);
    report_.undeclared = static_cast<std::size_t>(corpus_.end() - left);
    corpus_.erase(left, corpus_.end());
    report_.seeds = corpus_.size();
  }

  void NextRound(std::uint64_t first) {
    first_ = first;
    done_ = corpus_.empty() || Spent(first);
    const std::uint64_t size =
        options_.runs == 0 ? kRound : std::min(kRound, options_.runs - first);
    tried_.assign(done_ ? 0 : size, Tried{});
    next_ = 0;
  }

  void Judge(Worker& worker) {
    for (std::uint64_t i; !TimeUp() && (i = next_.fetch_add(1)) < tried_.size();) {
      const std::uint64_t run = first_ + i;
      const auto start = std::chrono::steady_clock::now();
      tried_[i].mutant = Mutant(run);
      worker.spent.mutating += Since(start);
      tried_[i].comparison = Compare(worker, tried_[i].mutant, "fuzz-" + std::to_string(run));
      tried_[i].twice = std::exchange(worker.twice, std::nullopt);
    }
  }

  void RecordRound() {
    for (std::uint64_t i = 0; i < tried_.size(); ++i) {
      if (tried_[i].comparison) {
        Record(std::move(tried_[i].mutant), *tried_[i].comparison, first_ + i);
      }
      if (tried_[i].twice)
        File(std::move(tried_[i].twice->first), tried_[i].twice->second, first_ + i);
    }
    if (options_.on_progress) {
      options_.on_progress(
          {report_.execs, report_.findings.size(), known_, corpus_.size(), Elapsed()});
    }
    NextRound(first_ + tried_.size());
  }

  // One file per entry, DIR/<hash>.json: {"origin": "<case id>/<operation>", "inputs": {name:
  // base64}}; what does not parse, or names a case this suite does not hold, is counted and left.
  // Memory stays bounded: a file that is not a regular file is never opened (a FIFO would block),
  // one too large for an entry is not read, and entries past the corpus's room are left out.
  void LoadCorpus(const runner::Suite& suite) {
    std::map<std::string, const runner::SuiteCase*> cases;
    for (const runner::SuiteCase& c : suite.cases) cases[c.request_id] = &c;
    std::error_code error;
    std::vector<std::string> paths;
    for (const auto& file : std::filesystem::directory_iterator(options_.corpus_dir, error)) {
      if (file.path().extension() == ".json") paths.push_back(file.path().string());
    }
    std::sort(paths.begin(), paths.end());
    for (const std::string& path : paths) {
      if (Stopped()) return;
      Result<std::string> text = ReadEntryFile(path);
      if (!text.ok()) {
        Note(text.status().message());  // names the path
        ++(text.status().code() == StatusCode::kLimitExceeded ? report_.too_large
                                                              : report_.unreadable);
        continue;
      }
      std::optional<Entry> entry = ParseEntry(std::move(text).value(), cases);
      if (!entry) {
        ++report_.unreadable;
        continue;
      }
      if (Size(*entry) > options_.max_input_bytes) {
        Note(path + ": larger than --max-input-bytes");
        ++report_.too_large;
        continue;
      }
      if (!HasRoom(Size(*entry))) {
        Note(path + ": past --max-corpus-bytes (" + std::to_string(options_.max_corpus_bytes) +
             ") or the corpus's " + std::to_string(kMaxCorpus) + " entries");
        ++report_.past_cap;
        continue;
      }
      corpus_bytes_ += Size(*entry);
      corpus_.push_back(std::move(*entry));
      ++report_.loaded;
    }
  }

  void Note(std::string note) {
    ++report_.corpus_left_out;
    if (report_.corpus_notes.size() < kCorpusNotes) report_.corpus_notes.push_back(std::move(note));
  }

  // An entry's file, read only when it is a regular file no larger than an entry of
  // max_input_bytes can be: opened without blocking, and checked once open (what the path names
  // cannot change in between).
  Result<std::string> ReadEntryFile(const std::string& path) const {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return Status(StatusCode::kIoError, path + ": " + std::strerror(errno));
    struct stat st {};
    const std::size_t most = options_.max_input_bytes / 3 * 4 + 4 + kMaxEntryFileSlack;
    Result<std::string> text = Status(StatusCode::kIoError, path + ": not a regular file");
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
      text = static_cast<std::uint64_t>(st.st_size) <= most
                 ? ReadAll(fd, path, most)
                 : Result<std::string>(Status(StatusCode::kLimitExceeded,
                                              path + ": larger than " + std::to_string(most) +
                                                  " bytes, the most an entry of "
                                                  "--max-input-bytes takes"));
    }
    ::close(fd);
    return text;
  }

  static std::optional<Entry> ParseEntry(
      std::string text, const std::map<std::string, const runner::SuiteCase*>& cases) {
    json::Document doc;
    if (!doc.ParseTaking(std::move(text)) || !doc.root().is_object()) return std::nullopt;
    const json::Value* origin = doc.root().Find("origin");
    const json::Value* inputs = doc.root().Find("inputs");
    if (!origin || !origin->is_string() || !inputs || !inputs->is_object()) return std::nullopt;
    auto c = cases.find(std::string(origin->text()));
    if (c == cases.end()) return std::nullopt;
    Entry e{c->second, {}, "(corpus)"};
    for (const json::Member& m : inputs->members()) {
      std::optional<std::string> bytes =
          m.value.is_string() ? base64::Decode(m.value.text()) : std::nullopt;
      if (!bytes) return std::nullopt;
      e.inputs[std::string(m.name)] = std::move(*bytes);
    }
    return e;
  }

  void SaveCorpus() {
    std::error_code error;
    std::filesystem::create_directories(options_.corpus_dir, error);
    for (std::size_t i = report_.seeds; i < corpus_.size() && !error; ++i) {
      const Entry& e = corpus_[i];
      std::string text = "{";
      json::AppendMember("origin", e.origin->request_id, &text);
      text += ",\"inputs\":";
      AppendInputs(e.inputs, &text);
      text += "}\n";
      const std::string name = ToHex(Sha256::Of(text)).substr(0, 16) + ".json";
      if (!WriteFile(options_.corpus_dir + "/" + name, text).ok()) ++report_.unreadable;
    }
  }

  double Elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }

  bool Stopped() const { return stop_ && stop_->load(); }

  bool TimeUp() const {
    return Stopped() || (options_.seconds > 0 && Elapsed() >= options_.seconds);
  }

  bool Late(double since) const { return Stopped() || Elapsed() - since >= kMinimizeSeconds; }

  bool Spent(std::uint64_t run) const {
    return TimeUp() || (options_.runs > 0 && run >= options_.runs);
  }

  Status Start(std::size_t index) {
    auto worker = std::make_unique<Worker>(options_.command, formats_, options_.timeout_seconds);
    if (Status s = worker->session.Start(stop_); !s.ok()) return s;
    const protocol::ImplementationHello& hello = worker->session.hello();
    for (const conformance::Manifest& manifest : suite_.manifests) {
      const conformance::FormatModule* format = conformance::FindFormat(manifest.format);
      const auto declared = hello.formats.find(manifest.format);
      if (!format || declared == hello.formats.end()) continue;
      worker->open.try_emplace(manifest.format, *format, manifest, declared->second.policies);
    }
    workers_[index] = std::move(worker);
    return Status::Ok();
  }

  // A corpus entry with one of its inputs mutated one to four times, spliced with another's.
  Entry Mutant(std::uint64_t run) const {
    Random random(options_.seed ^ (run * 0x9E3779B97F4A7C15ull));
    Entry child = corpus_[random.Below(corpus_.size())];
    const Entry& other = corpus_[random.Below(corpus_.size())];
    std::vector<std::map<std::string, std::string>::iterator> mutable_inputs;
    const std::vector<std::string_view>& harness = child.origin->format->harness_inputs;
    for (auto input = child.inputs.begin(); input != child.inputs.end(); ++input) {
      if (std::find(harness.begin(), harness.end(), input->first) == harness.end()) {
        mutable_inputs.push_back(input);
      }
    }
    if (mutable_inputs.empty()) return child;
    auto it = mutable_inputs[random.Below(mutable_inputs.size())];
    const auto splice = other.inputs.find(it->first);
    const std::string_view partner =
        splice == other.inputs.end() ? std::string_view() : std::string_view(splice->second);
    for (std::uint64_t n = 1 + random.Below(4); n > 0; --n) {
      Mutation m = Mutate(it->second, partner, options_.max_input_bytes, random);
      it->second = std::move(m.bytes);
      child.mutations += (child.mutations.empty() ? "" : " ") + it->first + ":" + m.what;
    }
    Reseal(it->first, random, &child);
    return child;
  }

  // Half the mutants of a hash chain are sealed again, to reach what lies behind its check.
  void Reseal(const std::string& input, Random& random, Entry* e) const {
    for (const conformance::HashChain& chain : e->origin->format->hash_chains) {
      if (chain.input != input || !random.OneIn(2)) continue;
      std::string sealed = Rechain(e->inputs[input], chain);
      if (sealed.size() > options_.max_input_bytes) continue;
      e->inputs[input] = std::move(sealed);
      e->mutations += " " + input + ":rechain";
    }
  }

  // Asks the implementation about `e` and compares its answer with the reference's. When the
  // asking shows that the implementation answered the case asked before twice, that case's
  // protocol error waits in worker.twice.
  Comparison Compare(Worker& worker, const Entry& e, const std::string& id) {
    const runner::SuiteCase& origin = *e.origin;
    protocol::CaseRequest request{id, std::string(origin.format->name), origin.operation,
                                  std::make_shared<const Inputs>(e.inputs), origin.vector->args};
    auto start = std::chrono::steady_clock::now();
    protocol::Answer ref = runner::ReferenceAnswer(request);
    protocol::Answer validation = Validation(origin, e, ref);
    worker.spent.reference += Since(start);
    start = std::chrono::steady_clock::now();
    const Reply reply = worker.session.Ask(request, stop_);
    worker.spent.implementation += Since(start);
    if (!reply.answered_twice_id.empty() && worker.last &&
        worker.last->id == reply.answered_twice_id) {
      worker.twice = SecondAnswer(worker, reply.answered_twice);
    }
    Comparison c = Judged(worker, e, ref, validation, reply);
    worker.last = Asked{e, id, std::move(ref), std::move(validation)};
    return c;
  }

  Comparison Judged(const Worker& worker, const Entry& e, const protocol::Answer& ref,
                    const protocol::Answer& validation, const Reply& reply) {
    const runner::SuiteCase& origin = *e.origin;
    const conformance::OperationSpec& op = *origin.format->FindOperation(origin.operation);
    Comparison c;
    c.reference = OutcomeWord(op, ref);
    std::set<std::string> rules = ErrorRules(ref);
    if (reply.fate == supervisor::Fate::kInterrupted || ref.status != protocol::AnswerStatus::kOk) {
      c.kind = "agree";  // nothing to compare: the run stops, or the reference does not judge
    } else if (reply.fate != supervisor::Fate::kAnswered) {
      c.kind = std::string(supervisor::FateName(reply.fate));
      c.implementation = c.kind;
      c.detail = Excerpt(reply.detail, kMaxDetailBytes);
    } else {
      rules.merge(ErrorRules(reply.answer));
      c.implementation = OutcomeWord(op, reply.answer);
      c.kind = Classify(worker, op, e, reply.answer, ref, validation, &c);
      c.skipped = reply.answer.status == protocol::AnswerStatus::kSkipped;
    }
    c.compared = !c.skipped && reply.fate != supervisor::Fate::kInterrupted &&
                 ref.status == protocol::AnswerStatus::kOk;
    c.rules = Bounded(rules);
    c.disagree = c.kind != "agree";
    c.key = origin.operation + " " + c.kind + ": " + c.implementation + " / " + c.reference + " [" +
            Join(c.rules, " ") + "]";
    c.corpus_key = c.key;
    if (origin.operation != "validate") c.corpus_key += " {" + Join(RulesOf(validation), " ") + "}";
    return c;
  }

  // What the reference's validator says of a mutant: for a validate mutant its answer itself, for
  // another operation's the validator's answer on the same inputs (empty when the format has no
  // validator).
  static protocol::Answer Validation(const runner::SuiteCase& origin, const Entry& e,
                                     const protocol::Answer& ref) {
    if (origin.operation == "validate") return ref;
    const conformance::OperationSpec* validate = origin.format->FindOperation("validate");
    if (!validate) return {};
    return validate->reference({&e.inputs, origin.vector->limits, origin.vector->args});
  }

  // Why a verdict disagreement may be one the spec leaves open (OpenVerdicts, or the reference's
  // own default limits), "" when it is a finding.
  static std::string OpenReason(const Worker& worker, const conformance::OperationSpec& op,
                                const Entry& e, const protocol::Answer& answer,
                                const protocol::Answer& ref, const protocol::Answer& validation) {
    const auto open = worker.open.find(std::string(e.origin->format->name));
    if (open == worker.open.end()) return "the implementation declares no support of the format";
    const bool reference_rejected = ref.verdict == protocol::Verdict::kInvalid;
    std::string why = open->second.Reason({e.origin->operation, reference_rejected, answer,
                                           validation, SetsLimits(*e.origin->vector)});
    if (why.empty() && reference_rejected && AcceptedWithoutLimits(op, e)) {
      why = "the reference refuses only by its own default limits";
    }
    return why;
  }

  // An answer that serves what the reference refuses, where a reading that serves it says what it
  // must hold (FormatModule::refusal_readings): "" when it holds or nothing is known.
  static std::string CheckServed(const Entry& e, const protocol::Answer& answer,
                                 const std::map<std::string, std::string>& policies) {
    if (answer.verdict != protocol::Verdict::kValid) return "";
    for (const conformance::RefusalReading& r : e.origin->format->refusal_readings) {
      if (r.operation != e.origin->operation || !r.check_served) continue;
      const conformance::CaseInput input{&e.inputs, e.origin->vector->limits,
                                         e.origin->vector->args};
      if (std::string problem = r.check_served({input, answer, policies}); !problem.empty()) {
        return problem;
      }
    }
    return "";
  }

  // Whether the reference accepts the mutant once its limits are lifted, where the case sets
  // none: then its refusal is its own choice of limits, which no implementation is held to.
  static bool AcceptedWithoutLimits(const conformance::OperationSpec& op, const Entry& e) {
    if (SetsLimits(*e.origin->vector)) return false;
    conformance::LimitValues lifted = e.origin->vector->limits;
    for (auto& [name, value] : lifted) value = kLiftedLimit;
    const protocol::Answer answer = op.reference({&e.inputs, lifted, e.origin->vector->args});
    return answer.status == protocol::AnswerStatus::kOk &&
           answer.verdict == protocol::Verdict::kValid;
  }

  static bool SetsLimits(const conformance::VectorCase& c) {
    json::Document args;
    return !c.args.empty() && args.Parse(c.args, {}) && args.root().Find("limits") != nullptr;
  }

  static std::vector<std::string> RulesOf(const protocol::Answer& answer) {
    std::set<std::string> rules;
    for (const protocol::ReportedFinding& f : answer.findings) rules.insert(f.rule);
    return {rules.begin(), rules.end()};
  }

  std::string Classify(const Worker& worker, const conformance::OperationSpec& op, const Entry& e,
                       const protocol::Answer& answer, const protocol::Answer& ref,
                       const protocol::Answer& validation, Comparison* c) {
    if (answer.status == protocol::AnswerStatus::kSkipped) return "agree";
    if (answer.status == protocol::AnswerStatus::kErrored) {
      c->detail = Excerpt(answer.reason, kMaxDetailBytes);
      return "errored";
    }
    const std::string format(e.origin->format->name);
    const auto declared = worker.session.hello().formats.find(format);
    const std::map<std::string, std::string> policies =
        declared == worker.session.hello().formats.end() ? std::map<std::string, std::string>{}
                                                         : declared->second.policies;
    if (c->implementation != c->reference) {
      c->open = OpenReason(worker, op, e, answer, ref, validation);
      const std::string served = c->open.empty() || ref.verdict != protocol::Verdict::kInvalid
                                     ? ""
                                     : CheckServed(e, answer, policies);
      if (!served.empty()) {
        c->open.clear();
        c->detail = Excerpt(served, kMaxDetailBytes);
        return "output";
      }
      return "verdict";
    }
    const std::string theirs = Check(op, e, answer, policies, ref);
    if (!theirs.empty() && Check(op, e, ref, reference_policies_[format], ref).empty()) {
      c->detail = Excerpt(theirs, kMaxDetailBytes);
      return "output";
    }
    return "agree";
  }

  // In the runs' order, so that the corpus and the findings do not depend on the jobs' timing.
  void Record(Entry child, const Comparison& c, std::uint64_t run) {
    ++report_.execs;
    report_.compared += c.compared;
    report_.skipped += c.skipped;
    // Room first: the keys seen are kept only while the corpus can grow, so they stay as few as
    // its entries however many signatures an implementation makes up.
    if (HasRoom(Size(child)) && keys_.insert(c.corpus_key).second) {
      corpus_bytes_ += Size(child);
      corpus_.push_back(child);
      report_.growth.emplace_back(Elapsed(), corpus_.size());
    }
    File(std::move(child), c, run);
  }

  bool HasRoom(std::size_t bytes) const {
    return corpus_.size() < kMaxCorpus && corpus_bytes_ + bytes <= options_.max_corpus_bytes;
  }

  // A disagreement: open, or a finding (minimized unless only the next case could show it).
  void File(Entry child, const Comparison& c, std::uint64_t run) {
    if (!c.disagree) return;
    if (!c.open.empty()) return RecordOpen(child, c, run);
    if (Known(c.key)) return;
    if (findings_.contains(c.key)) return;
    if (findings_.size() == kFindingsKept) {
      ++report_.findings_unkept;
      return;
    }
    findings_.insert(c.key);
    Finding f;
    f.signature = c.key;
    f.kind = c.kind;
    f.format = child.origin->format->name;
    f.operation = child.origin->operation;
    f.origin = child.origin->vector->id;
    f.mutations = child.mutations;
    f.implementation_outcome = c.implementation;
    f.reference_outcome = c.reference;
    f.rules = c.rules;
    f.detail = c.detail;
    f.args = child.origin->vector->args;
    f.found_bytes = Size(child);
    f.found_at = run;
    // A second answer shows only at the next case: minimizing would take two asks a candidate.
    const bool minimize = !c.second_answer;
    f.inputs =
        minimize ? Minimize(*workers_[lead_], std::move(child), c.key) : std::move(child.inputs);
    report_.findings.push_back(std::move(f));
    if (!minimize) return;
    // A candidate the implementation answered twice while minimizing is a finding of its own.
    if (auto twice = std::exchange(workers_[lead_]->twice, std::nullopt)) {
      File(std::move(twice->first), twice->second, run);
    }
  }

  bool Known(const std::string& signature) {
    const std::vector<std::string>& known = options_.known_signatures;
    for (std::size_t i = 0; i < known.size(); ++i) {
      if (!KnownSignatureMatches(known[i], signature)) continue;
      ++report_.known_hits[i];
      ++known_;
      return true;
    }
    return false;
  }

  void RecordOpen(const Entry& e, const Comparison& c, std::uint64_t run) {
    ++report_.open_disagreements;
    auto it = open_.find(c.key);
    if (it == open_.end()) {
      if (report_.open.size() >= kOpenKept) return;
      it = open_.emplace(c.key, report_.open.size()).first;
      report_.open.push_back({c.key, e.origin->request_id, e.mutations, c.open, 0, run});
    }
    ++report_.open[it->second].count;
  }

  // Shrinks each input, lines first then bytes, keeping each cut while the signature holds: at
  // most minimize_asks asks in kMinimizeSeconds (400 asks of a slow implementation would take
  // minutes), and none once the run is interrupted.
  Inputs Minimize(Worker& worker, Entry e, const std::string& key) {
    std::size_t asks = 0;
    const double since = Elapsed();
    auto holds = [&](const Entry& candidate) {
      ++asks;
      return Compare(worker, candidate, "fuzz-minimize-" + std::to_string(asks)).key == key;
    };
    for (auto& [name, bytes] : e.inputs) {
      for (const bool by_line : {true, false}) {
        std::vector<std::string> pieces = Pieces(bytes, by_line);
        for (std::size_t chunk = pieces.size() / 2; chunk >= 1; chunk /= 2) {
          for (std::size_t at = 0;
               at < pieces.size() && asks < options_.minimize_asks && !Late(since);) {
            std::vector<std::string> fewer = pieces;
            fewer.erase(
                fewer.begin() + static_cast<std::ptrdiff_t>(at),
                fewer.begin() + static_cast<std::ptrdiff_t>(std::min(pieces.size(), at + chunk)));
            Entry candidate = e;
            candidate.inputs[name] = Join(fewer, "");
            if (holds(candidate)) {
              pieces = std::move(fewer);
              bytes = candidate.inputs[name];
            } else {
              at += chunk;
            }
          }
        }
      }
    }
    return e.inputs;
  }

  // What minimizing cuts: lines, or bytes (in runs past 512 bytes: one by one would cost too many
  // asks).
  static std::vector<std::string> Pieces(std::string_view text, bool by_line) {
    std::vector<std::string> pieces;
    if (by_line) {
      for (std::string_view line : LinesWithEnds(text)) pieces.emplace_back(line);
      return pieces;
    }
    const std::size_t step = std::max<std::size_t>(1, text.size() / 512);
    for (std::size_t at = 0; at < text.size(); at += step) {
      pieces.emplace_back(text.substr(at, step));
    }
    return pieces;
  }

  static std::size_t Size(const Entry& e) {
    std::size_t n = 0;
    for (const auto& [name, bytes] : e.inputs) n += bytes.size();
    return n;
  }

  // The corpus is bounded in entries and in bytes (FuzzOptions::max_corpus_bytes): mutants of the
  // large seeds (a 1 MiB line), or a large corpus folder, would otherwise hold gigabytes.
  static constexpr std::size_t kMaxCorpus = 10000;
  static constexpr std::size_t kOpenKept = 1000;
  static constexpr std::size_t kFindingsKept = 1000;
  static constexpr double kMinimizeSeconds = 30;

  const FuzzOptions& options_;
  const runner::Suite& suite_;
  const std::atomic<bool>* stop_;
  const std::chrono::steady_clock::time_point started_;
  std::vector<std::string> formats_;
  std::map<std::string, std::map<std::string, std::string>> reference_policies_;
  std::vector<std::unique_ptr<Worker>> workers_;  // by index; null for one that did not start
  std::vector<Status> starts_;                    // how each one's start went
  // By worker: its last case, when the implementation answered it again after the shutdown request.
  std::vector<std::optional<std::pair<Entry, Comparison>>> ends_;
  std::size_t lead_ = 0;
  // The round under way (written between the barriers by one worker, read by all within them).
  std::uint64_t first_ = 0;
  std::vector<Tried> tried_;
  std::atomic<std::uint64_t> next_{0};
  bool done_ = false;
  std::uint64_t known_ = 0;  // disagreements a known signature matched
  std::mutex spent_mu_;      // the workers add their restarts and times to report_ as they end
  std::vector<Entry> corpus_;
  std::size_t corpus_bytes_ = 0;  // the entries read and the mutants kept (not the suite's seeds)
  std::set<std::string> keys_;
  std::set<std::string> findings_;
  std::map<std::string, std::size_t> open_;  // signature -> its index in report_.open
  FuzzReport report_;
};

void AppendStrings(const std::vector<std::string>& values, std::string* out) {
  *out += "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) *out += ",";
    json::AppendQuoted(report::ValidUtf8(values[i]), out);
  }
  *out += "]";
}

void AppendFinding(const Finding& f, std::string* out) {
  *out += "{";
  json::AppendMember("signature", report::ValidUtf8(f.signature), out);
  for (const auto& [name, value] : std::vector<std::pair<std::string_view, const std::string*>>{
           {"kind", &f.kind},
           {"format", &f.format},
           {"operation", &f.operation},
           {"origin", &f.origin},
           {"mutations", &f.mutations},
           {"implementation_outcome", &f.implementation_outcome},
           {"reference_outcome", &f.reference_outcome},
           {"detail", &f.detail}}) {
    json::AppendMember(name, report::ValidUtf8(*value), out);
  }
  *out += ",\"rules\":";
  AppendStrings(f.rules, out);
  *out += ",\"found_bytes\":" + std::to_string(f.found_bytes) +
          ",\"found_at\":" + std::to_string(f.found_at) + ",\"inputs_base64\":";
  AppendInputs(f.inputs, out);
  *out += "}";
}

std::string CandidateId(const Finding& f) {
  return "fuzz-" + f.format + "-" + ToHex(Sha256::Of(f.signature)).substr(0, 12);
}

}  // namespace

bool KnownSignatureMatches(std::string_view entry, std::string_view signature) {
  // The usual greedy match: on a mismatch, the last '*' takes one more character.
  std::size_t e = 0, s = 0, star = std::string_view::npos, resume = 0;
  while (s < signature.size()) {
    if (e < entry.size() && entry[e] == '*') {
      star = e++;
      resume = s;
    } else if (e < entry.size() && entry[e] == signature[s]) {
      ++e;
      ++s;
    } else if (star != std::string_view::npos) {
      e = star + 1;
      s = ++resume;
    } else {
      return false;
    }
  }
  while (e < entry.size() && entry[e] == '*') ++e;
  return e == entry.size();
}

FuzzReport Fuzz(const FuzzOptions& options, const runner::Suite& suite,
                const std::atomic<bool>* stop) {
  return Engine(options, suite, stop).Run();
}

std::string SummaryJson(const FuzzReport& r) {
  std::string out = "{";
  json::AppendMember("implementation", report::ValidUtf8(r.implementation), &out);
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.1f", r.seconds > 0 ? r.execs / r.seconds : 0.0);
  out +=
      ",\"execs\":" + std::to_string(r.execs) + ",\"execs_per_second\":" + rate +
      ",\"seconds\":" + std::to_string(r.seconds) + ",\"seeds\":" + std::to_string(r.seeds) +
      ",\"too_large\":" + std::to_string(r.too_large) + ",\"loaded\":" + std::to_string(r.loaded) +
      ",\"unreadable\":" + std::to_string(r.unreadable) +
      ",\"past_cap\":" + std::to_string(r.past_cap) +
      ",\"undeclared\":" + std::to_string(r.undeclared) +
      ",\"compared\":" + std::to_string(r.compared) + ",\"skipped\":" + std::to_string(r.skipped) +
      ",\"interrupted\":" + (r.interrupted ? "true" : "false") +
      ",\"corpus\":" + std::to_string(r.corpus) +
      ",\"open_disagreements\":" + std::to_string(r.open_disagreements) +
      ",\"findings_unkept\":" + std::to_string(r.findings_unkept) + ",\"known\":" +
      std::to_string(std::accumulate(r.known_hits.begin(), r.known_hits.end(), std::uint64_t{0})) +
      ",\"restarts\":" + std::to_string(r.restarts) + ",\"workers\":" + std::to_string(r.workers) +
      ",\"seconds_mutating\":" + std::to_string(r.spent.mutating) +
      ",\"seconds_in_reference\":" + std::to_string(r.spent.reference) +
      ",\"seconds_in_implementation\":" + std::to_string(r.spent.implementation) + ",\"growth\":[";
  for (std::size_t i = 0; i < r.growth.size(); ++i) {
    out += (i ? ",[" : "[") + std::to_string(r.growth[i].first) + "," +
           std::to_string(r.growth[i].second) + "]";
  }
  out += "]";
  json::AppendMember("error", report::ValidUtf8(r.error), &out);
  out += ",\"open\":[";
  for (std::size_t i = 0; i < r.open.size(); ++i) {
    const OpenDisagreement& o = r.open[i];
    out += i ? ",{" : "{";
    json::AppendMember("signature", report::ValidUtf8(o.signature), &out);
    json::AppendMember("origin", report::ValidUtf8(o.origin), &out);
    json::AppendMember("mutations", report::ValidUtf8(o.mutations), &out);
    json::AppendMember("reason", report::ValidUtf8(o.reason), &out);
    out += ",\"count\":" + std::to_string(o.count) + ",\"found_at\":" + std::to_string(o.found_at) +
           "}";
  }
  out += "],\"findings\":[";
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    if (i) out += ",";
    AppendFinding(r.findings[i], &out);
  }
  return out + "]}\n";
}

Status WriteCandidates(const FuzzReport& report, const std::string& dir,
                       std::string_view reproduce) {
  for (const Finding& f : report.findings) {
    const std::string id = CandidateId(f);
    const std::string folder = dir + "/" + id;
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) return Status(StatusCode::kIoError, folder + ": " + error.message());
    std::string inputs = "{";
    for (const auto& [name, bytes] : f.inputs) {
      if (Status s = WriteFile(folder + "/" + name, bytes); !s.ok()) return s;
      json::AppendMember(name, id + "/" + name, &inputs);
    }
    inputs += "}";
    std::string entry = "{\n  \"id\": ";
    json::AppendQuoted(id, &entry);
    entry += ",\n  \"description\": ";
    json::AppendQuoted("found by arcs fuzz from " + f.origin + " (" + f.mutations +
                           "), minimized: TODO describe what the input holds",
                       &entry);
    entry += ",\n  \"inputs\": " + inputs;
    if (!f.args.empty()) entry += ",\n  \"args\": " + f.args;
    entry += ",\n  \"operations\": {\n    ";
    json::AppendQuoted(f.operation, &entry);
    entry += ": {\n      \"requirements\": ";
    AppendStrings(f.rules, &entry);
    entry +=
        ",\n      \"spec_text\": \"TODO: quote the spec text that settles this input\",\n"
        "      \"expect\": {\"outcome\": \"TODO: from the spec text, never from either answer\"}\n"
        "    }\n  },\n  \"found\": ";
    AppendFinding(f, &entry);
    entry += ",\n  \"reproduce\": ";
    json::AppendQuoted(ReproduceCommand(reproduce, f), &entry);
    entry += "\n}\n";
    if (Status s = WriteFile(folder + "/candidate.json", entry); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace arcs::fuzz

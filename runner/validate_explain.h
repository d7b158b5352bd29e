// `arcs validate --explain RULE-ID`: what the requirement a finding cites asks, from the
// requirement catalogues built into the binary (conformance/<format>/requirements.json). Every rule
// id a checker cites is a catalogue id (the catalogue test holds each module's rules() to it), so
// the catalogues answer for every finding `arcs validate` prints. The SARIF output gives the same
// text as each rule's help.
#ifndef ARCS_RUNNER_VALIDATE_EXPLAIN_H_
#define ARCS_RUNNER_VALIDATE_EXPLAIN_H_

#include <optional>
#include <string>
#include <string_view>

#include "conformance/catalogue.h"
#include "conformance/format.h"

namespace arcs::runner {

struct CatalogueRule {
  const conformance::FormatModule* format = nullptr;
  const conformance::Requirement* requirement = nullptr;
};

// The requirement with this id in a registered format's catalogue; failing that, the one whose id
// differs only in ASCII case ("sp-3.5-1"). Nothing when no catalogue has it.
std::optional<CatalogueRule> FindCatalogueRule(std::string_view id);

// The requirement's id and level, its format and spec file, its section, its text, what it
// applies to, how ARCS covers it and why, and the catalogue and errata that say more: one
// "name: value" line each, for people (catalogue text, not escaped).
std::string ExplainText(const CatalogueRule& rule);

// The GitHub anchor of a Markdown heading's text, as GitHub and most Markdown viewers make it:
// lowercase, spaces to '-', punctuation but '-' and '_' dropped ("3.5 Line Endings" ->
// "35-line-endings", "MI4: Interactions Array Present" -> "mi4-interactions-array-present").
std::string HeadingAnchor(std::string_view heading);

// Where a rule is documented, for SARIF's helpUri: the file URI of its spec's Markdown in the
// specs folder beside the suite (`specs_dir`: <suite>/../shared/specs), with the anchor of the
// heading that states it when one does: the heading an id the spec names itself starts ("### MI4:
// ...", "### F-004: ..."), else the heading of its numbered section ("### 3.5 Line Endings").
// A rule of a topic rather than a section (LB-LAYOUT-4) gets the spec without an anchor. "" when
// the spec is not there (a binary copied alone): an absolute URI to nothing helps nobody.
std::string RuleHelpUri(const CatalogueRule& rule, const std::string& specs_dir);

// The folder the specs are read from: <suite>/specs in an installed suite, else
// <suite>/../shared/specs (runner/suite.h DefaultSuiteRoot).
std::string DefaultSpecsDir();

// What to say about an id no catalogue has: how ids look, and the ids that start with it when
// some do (`arcs validate --explain SP-3.5` lists SP-3.5-1...). One line, no newline; `id` is
// escaped for the terminal.
std::string UnknownRuleText(std::string_view id);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VALIDATE_EXPLAIN_H_

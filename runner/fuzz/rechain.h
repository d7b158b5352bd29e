// Sealing a hash chain again after a mutation (conformance/format.h HashChain): a mutated
// Lightbox log fails its hash check at the first changed event, and every rule behind that check
// would go unexercised. Each line's link is set to the previous line's hash and its hash to its
// own, with every other byte kept as the mutation left it.
#ifndef ARCS_RUNNER_FUZZ_RECHAIN_H_
#define ARCS_RUNNER_FUZZ_RECHAIN_H_

#include <string>
#include <string_view>

#include "conformance/format.h"

namespace arcs::fuzz {

// Lines whose object has no such member keep it absent; a line the chain cannot hash keeps its
// hash, and the next line links to the last line hashed. Blank lines and line endings are kept.
// Linear in the input's size.
std::string Rechain(std::string_view input, const conformance::HashChain& chain);

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_RECHAIN_H_

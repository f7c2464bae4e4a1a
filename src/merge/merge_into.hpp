#pragma once
// Cross-collection merge (paper §5.4, Algorithm 6): each collection is merged on its own and
// its documents are folded into the index's documents with the same id.
#include "merge/document.hpp"

namespace strata::merge {

// Folds `incoming` into `existing` (same id). A no-op when every collection of `incoming`
// is already in `existing`, so re-adding a collection is idempotent. Rules in docs/merge.md.
void merge_into(ImageDocument& existing, const ImageDocument& incoming);

}  // namespace strata::merge

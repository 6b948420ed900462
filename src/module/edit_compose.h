// Whether two passes' edits over one text can be applied as one rewrite:
// the driver (run_passes.cc) lets a pass run on the tree of the step
// before it, over that step's edits left unapplied, and saves a rewrite
// and a parse (docs/module.md "Two passes in one rewrite").
#pragma once

#include <span>
#include <string_view>

#include "module/rewriter.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {

// Whether applying `pending` and `own` (edits of two passes over
// tree.text) at once writes what applying `pending` and then running the
// second pass on the result would write, given that the second pass made
// `own` while reading only ops that it edits or that `pending` leaves
// alone, besides the ops `moved`, whose region's one block it moves
// elsewhere (as the shard-map export moves a manual computation's body).
// True when:
//   - no edit of `own` shares a byte with a pending edit, no insert of one
//     falls strictly inside an edit of the other, and no two insert at one
//     offset (edits that only meet apply in one rewrite as in two: an insert
//     at a replaced span's start goes before its new text, at its end after
//     it, both as the second pass would write them);
//   - when some op is moved: every pending edit replaces text by text (no
//     insert, no erasure: those shift which op starts a body), no two of
//     them overlap, and those inside a moved op lie in its body, from its
//     first op's start to its terminator's line (the header, the terminator
//     and the first op's start are read from this text).
// False otherwise, including a moved op without a block of two ops.
bool editsCompose(const OpTree& tree, const Rewriter& pending, const Rewriter& own, std::span<const int> moved);

// Whether none of `words` occurs in `text` with `pending` applied (as
// Rewriter::apply writes it), found without writing that text: no word is
// formed by the edits' texts with the bytes around and between them, and
// every occurrence in `text` loses a byte to an edit or has one inserted
// inside it. False, to be
// safe, when the edits overlap in a way apply refuses. The driver asks it
// to pass over a step whose prefilter would skip it after the rewrite.
// `absentInText`: the caller knows none of `words` occurs in `text`, so only
// what the edits write and join is searched (the occurrences' walk over the
// whole text, a search per word, is skipped).
bool wordsAbsentAfter(std::string_view text, const Rewriter& pending, std::span<const std::string_view> words,
                      bool absentInText = false);

}  // namespace shardbridge::module

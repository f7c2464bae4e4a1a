#pragma once
// Exit codes of every strata command (documented in README.md).
namespace strata::exit_code {
inline constexpr int ok = 0;            // everything read and written
inline constexpr int failure = 1;       // could not do the job (e.g. output not writable)
inline constexpr int usage = 2;         // bad command line
inline constexpr int input_problems = 3;  // job done, but some input was skipped (see report)
inline constexpr int no_input = 4;      // no input could be read at all
}  // namespace strata::exit_code

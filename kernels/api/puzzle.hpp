#pragma once
// The pieces of the puzzle capability (concepts.hpp, PuzzleKernel): one puzzle given as text
// is read, solved under options, checked by an independent model and reported. `levelforge
// solve KERNEL INPUT` and `levelforge show KERNEL FILE TABLE` are built from these alone.

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace levelforge {

// A puzzle text that does not follow its kernel's format: what() names the place, as
// "SOURCE:LINE:COLUMN: message" (or "SOURCE:COLUMN: message" for a one-line form). The
// runner reports it as the user's error, exit code 2.
class PuzzleInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a kernel's puzzles look like to the command line.
struct PuzzleInfo {
  // What INPUT of `solve` is, for --help: "a maze file, '-' for stdin".
  std::string input;
  // INPUT names a file (or '-' for standard input); otherwise INPUT is the puzzle's text,
  // named "<puzzle>" in errors.
  bool input_is_file = true;
  // The text field in which result tables keep this kernel's puzzles ("maze"): the default
  // `--field` of `show`; empty when results hold none.
  std::string stored_field;
  // One puzzle as people call it ("maze"), the form a stored field holds ("compact tilt maze")
  // and the source that names a stored text in its parse errors ("<compact>"), for messages
  // about a stored puzzle.
  std::string noun;
  std::string stored_form;
  std::string stored_source;
  // The name of a command that is `show` for this kernel (`levelforge maze FILE TABLE`); empty
  // for none.
  std::string show_command;
};

// What `solve` prints: the same findings for people (text) and for programs (one JSON object);
// the runner prints one or the other, nothing else. The JSON type is only declared here, so
// that the many units that see the kernel API do not parse nlohmann's header: a kernel's
// puzzle source includes <nlohmann/json.hpp> to build the values it sets.
class Report {
 public:
  using Json = nlohmann::ordered_json;

  Report();
  ~Report();
  Report(Report&&) noexcept;
  Report& operator=(Report&&) noexcept;
  Report(const Report&) = delete;
  Report& operator=(const Report&) = delete;

  // A member of the JSON object, kept in the order set.
  void set(const std::string& key, Json value);
  // Text for people, appended as given (lines end in '\n').
  void print(std::string_view text) { text_ += text; }

  // The JSON object on one line, ending in '\n'. Bytes that are not UTF-8 (file names need not
  // be) become U+FFFD rather than an exception.
  [[nodiscard]] std::string json_line() const;
  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  std::unique_ptr<Json> json_;
  std::string text_;
};

}  // namespace levelforge

#pragma once
// Tests that check what an error says, not only that it is thrown.

#include <gtest/gtest.h>

#include <string>

namespace levelforge::testing {

// what() of the `Error` that `action` throws; a test failure and "" when it throws none.
template <class Error, class Action>
std::string error_message(Action&& action) {
  try {
    action();
  } catch (const Error& error) {
    return error.what();
  }
  ADD_FAILURE() << "no exception of the expected type was thrown";
  return {};
}

}  // namespace levelforge::testing

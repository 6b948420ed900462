/* A minimal test harness for the C API tests (plain C11, no C++ test
 * framework: these tests compile as C to prove the header is C). */
#ifndef SB_TESTS_CAPI_CHECK_H_
#define SB_TESTS_CAPI_CHECK_H_

#include <stdio.h>
#include <string.h>

#include "shardbridge/c_api.h"

static int sb_check_failures = 0;

#define CHECK(cond)                                                               \
  do {                                                                            \
    if (!(cond)) {                                                                \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);    \
      ++sb_check_failures;                                                        \
    }                                                                             \
  } while (0)

/* Checks that a string with explicit size equals a C string literal. */
#define CHECK_STR(data, size, expected)                                           \
  do {                                                                            \
    const char* sb_d_ = (data);                                                   \
    size_t sb_n_ = (size);                                                        \
    const char* sb_e_ = (expected);                                               \
    if (!sb_d_ || sb_n_ != strlen(sb_e_) || memcmp(sb_d_, sb_e_, sb_n_) != 0) {   \
      fprintf(stderr, "%s:%d: CHECK_STR failed:\n  got:      '%.*s'\n  expected: '%s'\n", \
              __FILE__, __LINE__, sb_d_ ? (int)sb_n_ : 6, sb_d_ ? sb_d_ : "(null)", sb_e_); \
      ++sb_check_failures;                                                        \
    }                                                                             \
  } while (0)

/* Checks status `st` is `code` and that the error carries `message`; frees
 * the error and resets the pointer. */
#define CHECK_ERROR(st, err, code, message)                                       \
  do {                                                                            \
    sb_status sb_st_ = (st);                                                      \
    if (sb_st_ != (code)) {                                                       \
      fprintf(stderr, "%s:%d: status %s, expected %s (%s)\n", __FILE__, __LINE__, \
              sb_status_name(sb_st_), sb_status_name(code), sb_error_message(err, NULL)); \
      ++sb_check_failures;                                                        \
    }                                                                             \
    CHECK((err) != NULL);                                                         \
    CHECK(sb_error_code(err) == (code));                                          \
    { size_t sb_len_; const char* sb_msg_ = sb_error_message(err, &sb_len_);      \
      CHECK_STR(sb_msg_, sb_len_, message); }                                     \
    sb_error_free(err);                                                           \
    (err) = NULL;                                                                 \
  } while (0)

#define CHECK_OK(st, err)                                                         \
  do {                                                                            \
    sb_status sb_st_ = (st);                                                      \
    if (sb_st_ != SB_OK) {                                                        \
      fprintf(stderr, "%s:%d: status %s: %s", __FILE__, __LINE__,                 \
              sb_status_name(sb_st_), sb_error_diagnostic(err, NULL));            \
      ++sb_check_failures;                                                        \
      sb_error_free(err);                                                         \
      (err) = NULL;                                                               \
    }                                                                             \
    CHECK((err) == NULL);                                                         \
  } while (0)

#define S(literal) literal, strlen(literal)

#endif /* SB_TESTS_CAPI_CHECK_H_ */

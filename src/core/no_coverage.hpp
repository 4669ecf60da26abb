// swz internal — SWZ_NO_COVERAGE: leaves a function out of the fuzzers'
// coverage instrumentation (clang 13+; nothing elsewhere). For pure
// arithmetic that a harness runs per byte, block or cell, where a comparison
// callback per iteration costs more than the work and its branches guide
// nothing.
#pragma once

#if defined(__clang__) && __clang_major__ >= 13
#define SWZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define SWZ_NO_COVERAGE
#endif

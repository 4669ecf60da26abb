// swz internal — the one way an enum value gets its name: a table of
// {value, name} pairs per enum, read by name_of (value -> name) and
// value_of (name -> value). Used by code_name, backend_name,
// resolve_mode_name, Layout::name and parse_backend (docs/ARCHITECTURE.md,
// "Where the small rules live").
#pragma once
#include <cstddef>
#include <string_view>

namespace swz::detail {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

/// The name of `v` in `table`, or `unknown` when the table does not list it.
template <class E, size_t N>
constexpr const char* name_of(const EnumName<E> (&table)[N], E v, const char* unknown) {
  for (const EnumName<E>& e : table)
    if (e.value == v) return e.name;
  return unknown;
}

/// The value named `name` (exact, case-sensitive) in `table`; false when none is.
template <class E, size_t N>
constexpr bool value_of(const EnumName<E> (&table)[N], std::string_view name, E* out) {
  for (const EnumName<E>& e : table)
    if (name == e.name) {
      *out = e.value;
      return true;
    }
  return false;
}

}  // namespace swz::detail

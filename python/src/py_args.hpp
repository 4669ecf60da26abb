// Argument types of the swz._swz functions that take loosely typed Python
// values and check them themselves (as py::handle would): each accepts any
// object, and names its Python type in the signatures pybind11 writes into
// __doc__ (help()), with the names python/swz/_swz.pyi uses.
#pragma once
#include <pybind11/pybind11.h>

namespace swz_py::arg {

namespace py = pybind11;

inline int accept_any(PyObject*) { return 1; }

#define SWZ_PY_ARG_TYPE(Name)                                  \
  struct Name : py::object {                                    \
    PYBIND11_OBJECT_DEFAULT(Name, py::object, accept_any)       \
  };

SWZ_PY_ARG_TYPE(Int)            // int
SWZ_PY_ARG_TYPE(OptInt)         // Optional[int]
SWZ_PY_ARG_TYPE(Format)         // FormatLike: str, int or swz.Format
SWZ_PY_ARG_TYPE(OptFormat)      // Optional[FormatLike]
SWZ_PY_ARG_TYPE(Buffer)         // any buffer-protocol object
SWZ_PY_ARG_TYPE(OptBuffer)      // Optional[buffer]
SWZ_PY_ARG_TYPE(OptBox)         // Optional[BoxLike]
SWZ_PY_ARG_TYPE(ClearValue)     // ClearValueLike
SWZ_PY_ARG_TYPE(FillValue)      // Union[ClearValueLike, int, bytes]
SWZ_PY_ARG_TYPE(OptRect)        // Optional[Tuple[int, int, int, int]]
SWZ_PY_ARG_TYPE(Subresource)    // int (swz.ALL_SUBRESOURCES where allowed)
SWZ_PY_ARG_TYPE(Mips)           // MipsLike: int or "full"
SWZ_PY_ARG_TYPE(OptPackedMips)  // Optional[Tuple[int, int, int]]
SWZ_PY_ARG_TYPE(PatternLike)    // swz.Pattern or its text
SWZ_PY_ARG_TYPE(Coords)         // ArrayLike of ints

#undef SWZ_PY_ARG_TYPE

}  // namespace swz_py::arg

namespace pybind11::detail {
#define SWZ_PY_ARG_NAME(Name, Text) \
  template <>                        \
  struct handle_type_name<swz_py::arg::Name> { static constexpr auto name = const_name(Text); };
SWZ_PY_ARG_NAME(Int, "int")
SWZ_PY_ARG_NAME(OptInt, "Optional[int]")
SWZ_PY_ARG_NAME(Format, "FormatLike")
SWZ_PY_ARG_NAME(OptFormat, "Optional[FormatLike]")
SWZ_PY_ARG_NAME(Buffer, "Buffer")
SWZ_PY_ARG_NAME(OptBuffer, "Optional[Buffer]")
SWZ_PY_ARG_NAME(OptBox, "Optional[BoxLike]")
SWZ_PY_ARG_NAME(ClearValue, "ClearValueLike")
SWZ_PY_ARG_NAME(FillValue, "Union[ClearValueLike, int, bytes]")
SWZ_PY_ARG_NAME(OptRect, "Optional[Tuple[int, int, int, int]]")
SWZ_PY_ARG_NAME(Subresource, "int")
SWZ_PY_ARG_NAME(Mips, "MipsLike")
SWZ_PY_ARG_NAME(OptPackedMips, "Optional[Tuple[int, int, int]]")
SWZ_PY_ARG_NAME(PatternLike, "Union[Pattern, str]")
SWZ_PY_ARG_NAME(Coords, "ArrayLike")
#undef SWZ_PY_ARG_NAME
}  // namespace pybind11::detail

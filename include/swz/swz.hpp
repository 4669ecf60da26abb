// swz — umbrella header.
#pragma once
#include "swz/address.hpp"
#include "swz/canonicalize.hpp"
#include "swz/copy.hpp"
#include "swz/format.hpp"
#include "swz/dds.hpp"
#include "swz/device_layout.hpp"
#include "swz/layout.hpp"
#include "swz/layout_names.hpp"
#include "swz/pattern.hpp"
#include "swz/status.hpp"
#include "swz/surface.hpp"
#include "swz/vendor.hpp"

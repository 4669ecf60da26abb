#!/usr/bin/env bash
# identify's accuracy table: coffee.png crops at power-of-two and odd
# sizes, 1/2/4/8/16-byte elements, swizzled into every candidate layout; prints
# per family how often identify ranks a correct layout first.
# Usage: bench/identify_accuracy.sh [BUILD_DIR]   (needs the swz_tests target)
set -euo pipefail
BUILD=${1:-build}
SWZ_IDENTIFY_FULL_TABLE=1 exec "$BUILD/tests/swz_tests" --gtest_filter='IdentifyAccuracy.FullTable'

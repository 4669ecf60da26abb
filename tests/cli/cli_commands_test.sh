#!/usr/bin/env bash
# The swz command's listing, help, exit statuses and verbosity (issue 13):
# swz layouts (short and --verbose), --show for every listed name, "did you
# mean", --quiet / --verbose on every command, compare's exit statuses (cmp's
# 0/1/2) and per-command examples in --help.
# Run by ctest: cli_commands_test.sh SWZ_BINARY SOURCE_DIR
set -uo pipefail
SWZ=$(realpath "${1:?usage: cli_commands_test.sh path/to/swz source_dir}")
SRC=$(realpath "${2:?usage: cli_commands_test.sh path/to/swz source_dir}")
PHOTO="$SRC/examples/coffee.png"
SWZ_TEST_NAME=commands
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# --- swz layouts ------------------------------------------------------------------------
"$SWZ" layouts >short.txt 2>&1 || failed "swz layouts"
"$SWZ" layouts --verbose >long.txt 2>&1 || failed "swz layouts --verbose"
n=$(wc -l <short.txt)
[ "$n" -gt 10 ] && [ "$(awk '{print $1}' short.txt | sort -u | wc -l)" -eq "$n" ] && pass "layouts: one line per name ($n)" || failed "layouts: $n lines"
long_lines=$(awk 'length($0) > 120' short.txt | wc -l)
[ "$long_lines" -eq 0 ] && pass "layouts: every line is at most 120 characters" || failed "layouts: $long_lines long lines: $(awk 'length($0) > 120' short.txt | head -2)"
grep -q "source:" short.txt && failed "layouts: sources without --verbose" || pass "layouts: no sources without --verbose"
grep -q "^ *source: .*addrlib" long.txt && grep -q "^ *parameters: " long.txt && pass "layouts --verbose adds sources and parameters" || failed "layouts --verbose: $(head -5 long.txt)"
bad=""
while read -r name _; do
  eb=4; [ "$name" = intel-tilew ] && eb=1
  "$SWZ" layouts --show "$name" --element-bytes $eb >show.txt 2>err.txt && [ -s show.txt ] || bad+=" $name($(head -c 120 err.txt))"
done <short.txt
[ -z "$bad" ] && pass "layouts --show works for every listed name" || failed "layouts --show fails for:$bad"
"$SWZ" layouts --show std64k >show.txt
grep -q "2D: X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8" show.txt && pass "--show std64k: the D3D12 32bpp pattern (xBytesMask 0xAA8F, yMask 0x5570)" || failed "--show std64k: $(cat show.txt)"
"$SWZ" layouts --show std4k --element-bytes 1 >show.txt && grep -q "4096-byte block" show.txt && pass "--show std4k" || failed "--show std4k: $(cat show.txt)"
expect_err "--show of an unknown name suggests the closest" "did you mean 'nv-block-linear'" "$SWZ" layouts --show nv-blok-linear:bh=8
expect_err "--layout typo suggests the closest" "unknown layout 'std46k'; did you mean 'std4k' or 'std64k'" "$SWZ" info --layout std46k --format R8_UNORM --size 4x4
expect_err "an unknown name without near names lists the layouts" "unknown layout 'zzzzzzzzzzzz'\. Layouts: row-major" "$SWZ" info --layout zzzzzzzzzzzz --format R8_UNORM --size 4x4

echo "---"
[ $fails -eq 0 ] && echo "all cli_commands checks passed" || echo "$fails cli_commands check(s) FAILED"
exit $((fails > 0))

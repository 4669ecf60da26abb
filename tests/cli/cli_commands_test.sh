#!/usr/bin/env bash
# The swz command's listing, help, exit statuses and verbosity:
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
  # no --element-bytes: 4 bytes, or the smallest size the layout has (intel-tilew, dreamcast-twiddled: 1 or 2)
  "$SWZ" layouts --show "$name" >show.txt 2>err.txt && [ -s show.txt ] || bad+=" $name($(head -c 120 err.txt))"
done <short.txt
[ -z "$bad" ] && pass "layouts --show works for every listed name" || failed "layouts --show fails for:$bad"
"$SWZ" layouts --show std64k >show.txt
grep -q "2D: X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8" show.txt && pass "--show std64k: the D3D12 32bpp pattern (xBytesMask 0xAA8F, yMask 0x5570)" || failed "--show std64k: $(cat show.txt)"
"$SWZ" layouts --show std4k --element-bytes 1 >show.txt && grep -q "4096-byte block" show.txt && pass "--show std4k" || failed "--show std4k: $(cat show.txt)"
expect_err "--show of an unknown name suggests the closest" "did you mean 'nv-block-linear'" "$SWZ" layouts --show nv-blok-linear:bh=8
expect_err "--layout typo suggests the closest" "unknown layout 'std46k'; did you mean 'std4k' or 'std64k'" "$SWZ" info --layout std46k --format R8_UNORM --size 4x4
expect_err "an unknown name without near names lists the layouts" "unknown layout 'zzzzzzzzzzzz'\. Layouts: row-major" "$SWZ" info --layout zzzzzzzzzzzz --format R8_UNORM --size 4x4

# --- --quiet and --verbose ----------------------------------------------------------------
cmds=(swizzle deswizzle offset locate info layouts canonicalize formats identify infer compare)
missing=""
for c in "${cmds[@]}"; do
  h=$("$SWZ" $c --help 2>&1)
  grep -q -- "--quiet" <<<"$h" && grep -q -- "--verbose" <<<"$h" || missing+=" $c"
done
[ -z "$missing" ] && pass "every command takes --quiet and --verbose" || failed "no --quiet/--verbose on:$missing"
pm=(--layout std64k --format R8G8B8A8_UNORM --size 600x400 --mips full --array 2 --mip-tail d3d12 --packed-mips 2,8,1)
"$SWZ" swizzle "${pm[@]}" "$PHOTO" pm.bin >out.txt 2>err.txt
grep -q "packed mip tail" err.txt && grep -q "^swizzled" out.txt && pass "without --quiet: a summary and a note" || failed "summary/note: $(cat out.txt err.txt)"
quiet_ok=1
for cmd in "swizzle -q ${pm[*]} $PHOTO pm.bin" "deswizzle -q ${pm[*]} pm.bin pm.raw" "deswizzle -q ${pm[*]} pm.bin pm.dds" \
           "deswizzle -q ${pm[*]} --subresource 10 pm.bin pm10.png" "compare -q $PHOTO pm10.png" \
           "deswizzle -q --layout std64k --format R8G8B8A8_UNORM --size 600x400 --allow-short --quiet short.bin s.raw"; do
  [ -e short.bin ] || head -c 1000 pm.bin >short.bin
  # shellcheck disable=SC2086
  "$SWZ" $cmd >out.txt 2>err.txt; rc=$?
  if [ $rc -ne 0 ] || [ -s out.txt ] || [ -s err.txt ]; then quiet_ok=0; failed "--quiet: '$cmd' printed (rc=$rc): $(cat out.txt err.txt | head -3)"; fi
done
[ $quiet_ok = 1 ] && pass "--quiet: conversions, notes, warnings and compare print nothing"
expect_err "--quiet still prints errors" "disagrees|unknown layout" "$SWZ" info -q --layout nope --format R8_UNORM --size 4x4
"$SWZ" swizzle -v --layout std64k --mips 3 "$PHOTO" v.bin >out.txt 2>err.txt
grep -q "^swz: layout std64k .*1835008 bytes" err.txt && grep -q "pattern 0: X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8 (65536-byte block: 512 bytes (128 elements) x 128 rows)" err.txt \
  && pass "--verbose: the layout's geometry" || failed "--verbose geometry: $(cat err.txt)"
grep -q "^swz: time: convert [0-9.]* s" err.txt && grep -q "^swz: time: write" err.txt && pass "--verbose: timings" || failed "--verbose timings: $(cat err.txt)"
grep -q "^swizzled" out.txt && pass "--verbose keeps the summary on stdout" || failed "--verbose summary: $(cat out.txt)"
"$SWZ" deswizzle -v --layout std64k --size 600x400 --device gpu:any v.bin g.png >out.txt 2>err.txt; rc=$?
if [ $rc -eq 0 ]; then
  grep -q "^swz: --device gpu:any: Vulkan device '.*' (" err.txt && pass "--verbose names the Vulkan device" || failed "--verbose device: $(cat err.txt)"
  "$SWZ" compare -q "$PHOTO" g.png && pass "gpu:any round trip" || failed "gpu:any round trip"
else
  grep -q "device gpu" err.txt && pass "no Vulkan device: a clear error (skipped the device name check)" || failed "gpu:any: $(cat err.txt)"
fi

# --- compare: cmp's exit statuses ----------------------------------------------------------
"$SWZ" compare "$PHOTO" "$PHOTO" >/dev/null 2>&1; a=$?
"$SWZ" compare "$PHOTO" pm10.png >/dev/null 2>&1; b=$?
"$SWZ" deswizzle -q "${pm[@]}" --subresource 11 pm.bin pm11.png
"$SWZ" compare "$PHOTO" pm11.png >/dev/null 2>&1; c=$?
"$SWZ" compare "$PHOTO" no-such.png >/dev/null 2>&1; d=$?
head -c 100 "$PHOTO" >cut.png
"$SWZ" compare "$PHOTO" cut.png >/dev/null 2>&1; e=$?
"$SWZ" compare "$PHOTO" >/dev/null 2>&1; f=$?
[ "$a$b$c$d$e$f" = 001222 ] && pass "compare exits 0 identical, 1 different, 2 trouble (missing, corrupt, bad arguments)" \
  || failed "compare exit statuses: identical $a, same image $b, different $c, missing $d, corrupt $e, usage $f"
# '-' is standard input, for A or B; not for both.
"$SWZ" compare -q "$PHOTO" - <"$PHOTO"; a=$?
"$SWZ" compare -q - pm11.png <"$PHOTO"; b=$?
"$SWZ" compare -q - - <"$PHOTO" 2>err.txt; c=$?
[ "$a$b$c" = 012 ] && grep -q "both standard input" err.txt && pass "compare reads '-' as standard input" \
  || failed "compare with '-': identical $a, different $b, both '-' $c ($(cat err.txt))"

# --- --help: examples for that command only ------------------------------------------------
bad=""
for c in "${cmds[@]}"; do
  h=$("$SWZ" $c --help 2>&1)
  grep -q "^  swz $c " <<<"$h" || bad+=" $c(no example)"
  others=$(grep -E "^  (.*\| )?swz [a-z]+" <<<"$h" | grep -oE "swz [a-z]+" | sort -u | grep -v "^swz $c\$" | tr '\n' ' ')
  [ -z "$others" ] || bad+=" $c(also: $others)"
done
[ -z "$bad" ] && pass "each command's --help shows examples of that command only" || failed "--help examples:$bad"
"$SWZ" --help | grep -q "swz COMMAND --help" && pass "top-level --help points to per-command help" || failed "top-level help"

# --- swz plot ---------------------------------------------------------------------------------
# Oracle: 'X0 Y0 X1 Y1' with 1-byte elements is the 4x4 Morton order x0 + 2 y0 + 4 x1 + 8 y1.
"$SWZ" plot --pattern 'X0 Y0 X1 Y1' --print m.png >grid.txt 2>err.txt || failed "plot a Morton pattern: $(cat err.txt)"
want=""; for y in 0 1 2 3; do row=""; for x in 0 1 2 3; do row+="$(( (x & 1) + 2 * (y & 1) + 4 * (x >> 1) + 8 * (y >> 1) )) "; done; want+="${row% }"$'\n'; done
[ "$(head -4 grid.txt)" = "${want%$'\n'}" ] && pass "plot --print: the Morton order" || failed "plot --print: $(head -4 grid.txt)"
grep -q "^plotted .* into m.png: [0-9]*x[0-9]* PNG" grid.txt && pass "plot summary" || failed "plot summary: $(cat grid.txt)"
# The PNG: cell (0,0) (order 0) is viridis' first colour #440154, cell (3,3) (order 15) its last, #FDE725
# (cells of 30 pixels from (60, 44)); read back as raw RGBA through a row-major layout with a tight pitch.
w=$("$SWZ" compare m.png m.png | sed -n 's/.*(\([0-9]*\)x\([0-9]*\),.*/\1/p')
if [ -n "$w" ] && "$SWZ" swizzle -q --layout "row-major:pitch=$((w * 4))" m.png m.raw; then
  px() { od -An -tx1 -j $(( ($2 * w + $1) * 4 )) -N 3 m.raw | tr -d ' '; }
  [ "$(px 62 46)" = 440154 ] && [ "$(px 152 136)" = fde725 ] && pass "plot colours: viridis from order 0 to the last" \
    || failed "plot colours: $(px 62 46) $(px 152 136)"
else
  failed "plot PNG unreadable"
fi
# std64k, 32 bpp: (17, 3) is element 525 of the block (byte 2100 / 4, the D3D12 masks 0xAA8F / 0x5570).
"$SWZ" plot -q --layout std64k --format R32_UINT --print s.png >grid.txt
[ "$(sed -n 4p grid.txt | cut -d' ' -f18)" = 525 ] && pass "plot --print std64k: (17,3) is 525" || failed "plot std64k (17,3): $(sed -n 4p grid.txt | cut -d' ' -f18)"
[ "$(wc -l <grid.txt)" = 128 ] && pass "plot without --size draws one 128x128 block" || failed "plot std64k rows: $(wc -l <grid.txt)"
expect_ok "plot a 3D block (panels per slice)" "$SWZ" plot --layout std64k --format R8G8B8A8_UNORM --size 32x32x16 z.png
grep -q "65536-byte block: 128 bytes (32 elements) x 32 rows x 16 slices" out.txt && pass "plot 3D summary" || failed "plot 3D: $(cat out.txt)"
expect_ok "plot a hardware family" "$SWZ" plot -q --layout nv-block-linear:bh=2 n.png
# plot and layouts --show describe a block in the same words, and plot draws the block the name asks for.
"$SWZ" plot --layout nv-block-linear:bh=2 n.png >plot.txt 2>&1
"$SWZ" layouts --show nv-block-linear:bh=2 >show.txt 2>&1
block=$(grep -o '[0-9]*-byte block: [^)]*) x [0-9]* rows' show.txt | head -1)
[ -n "$block" ] && grep -qF "$block" plot.txt && grep -qF "64 bytes (16 elements) x 16 rows" plot.txt \
  && pass "plot and layouts --show: one description of the bh=2 block ($block)" \
  || failed "plot / layouts --show block: '$block' vs $(cat plot.txt)"
# layouts --show checks parameters as deswizzle does.
expect_err "layouts --show: another family's parameter is refused" "unknown parameter 'halign'" \
  "$SWZ" layouts --show nv-block-linear:halign=4
grep -q "qpitch" err.txt && failed "layouts --show lists other families' parameters: $(cat err.txt)" \
  || pass "layouts --show: the message lists only this family's parameters"
"$SWZ" deswizzle --layout nv-block-linear:halign=4 --format R8_UNORM --size 64x64 /dev/null x.raw 2>de.txt
[ "$(sed 's/.*unknown parameter/unknown parameter/' de.txt)" = "$(sed 's/.*unknown parameter/unknown parameter/' err.txt)" ] \
  && pass "layouts --show and deswizzle: the same parameter message" || failed "parameter messages: $(cat de.txt) / $(cat err.txt)"
expect_ok "layouts --show takes placement parameters" "$SWZ" layouts --show nv-block-linear:bh=4,offsets=0/4096
# Each command's help is true for it: --format's default, and only options the command reads.
opt_lines() { grep -E -- "^ +(-[a-z],)?--($1)\b" h.txt; }
help_ok=1
for c in info offset locate; do
  "$SWZ" $c --help >h.txt
  grep -q "image input defaults" h.txt && { help_ok=0; failed "$c --help claims an image default for --format"; }
  [ -n "$(opt_lines 'backend|threads|device')" ] && { help_ok=0; failed "$c --help lists copy options it ignores: $(opt_lines 'backend|threads|device')"; }
  grep -q -- "--device" h.txt && { help_ok=0; failed "$c --help mentions --device: $(grep -- --device h.txt)"; }
done
"$SWZ" plot --help >h.txt
[ -n "$(opt_lines 'backend|threads|device|offset')" ] && { help_ok=0; failed "plot --help lists options it ignores: $(opt_lines 'backend|threads|device|offset')"; }
[ $help_ok = 1 ] && pass "help: info/offset/locate/plot list only options they read"
"$SWZ" swizzle --help >h.txt; sw_dev=$(opt_lines device)
"$SWZ" deswizzle --help >h.txt; de_thr=$(opt_lines threads)
[ -n "$sw_dev" ] && [ -n "$de_thr" ] && pass "help: copy options on swizzle/deswizzle" || failed "help: swizzle/deswizzle lost copy options"
expect_err "info without --format says it is required" "--format is required" "$SWZ" info --layout nv-block-linear --size 600x400
"$SWZ" info --help >h.txt; grep -q "format.*required" h.txt && pass "info --help: --format is required" || failed "info --help --format: $(grep -- --format h.txt)"
expect_err "plot of row-major" "no swizzle pattern" "$SWZ" plot --layout row-major r.png
[ -e r.png ] && failed "plot left a file after an error" || pass "plot leaves nothing after an error"
"$SWZ" plot -q --pattern 'X0 Y0 X1 Y1' - | "$SWZ" swizzle -q --layout std4k - p.bin && pass "plot to standard output is a PNG" || failed "plot to stdout"

# --- options given to the command that runs (every texture command, not only the last one defined) ---
cat >dev.json <<'JSON'
{"format": "R8G8B8A8_UNORM", "width": 600, "height": 400, "mip_levels": 1,
 "patterns": ["X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8"], "subresources": [{"offset": 0}]}
JSON
for c in "swizzle pm.bin e.bin" "deswizzle pm.bin e.png" "offset 1 1" "locate 0" "info " "plot e.png"; do
  # shellcheck disable=SC2086
  expect_err "$c: --size must agree with a resource layout" "--size 64x64 disagrees" "$SWZ" ${c%% *} --layout dev.json --size 64x64 ${c#* }
done

echo "---"
[ $fails -eq 0 ] && echo "all cli_commands checks passed" || echo "$fails cli_commands check(s) FAILED"
exit $((fails > 0))

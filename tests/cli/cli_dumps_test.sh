#!/usr/bin/env bash
# Debugging dumps with the swz command: --offset on every texture
# command, deswizzle --allow-short, offset/locate with many queries (arguments
# or standard input, --hex), '-' as IN (raw, image, DDS) and PNG/DDS to
# standard output. Oracles: the same conversion without the offset / from a
# file, a zero-padded copy of a truncated dump, and one query at a time.
# Run by ctest: cli_dumps_test.sh SWZ_BINARY SOURCE_DIR
set -uo pipefail
SWZ=$(realpath "${1:?usage: cli_dumps_test.sh path/to/swz source_dir}")
SRC=$(realpath "${2:?usage: cli_dumps_test.sh path/to/swz source_dir}")
PHOTO="$SRC/examples/coffee.png"
SWZ_TEST_NAME=dumps
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
expect_out() {
  local d=$1 want=$2; shift 2
  local got; got=$("$@" 2>err.txt); local rc=$?
  if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then pass "$d"; else failed "$d: want '$want', got '$got' (rc=$rc $(cat err.txt))"; fi
}
L=(--layout std64k --format R8G8B8A8_UNORM --size 600x400)

"$SWZ" swizzle -q --layout std64k --mips 3 "$PHOTO" a.bin || failed "swizzle the photo"
"$SWZ" deswizzle -q "${L[@]}" --mips 3 a.bin a.raw || failed "deswizzle the photo"

# --- --offset ------------------------------------------------------------------------
{ head -c 4099 /dev/urandom; cat a.bin; head -c 77 /dev/urandom; } >dump.bin
for off in 4099 0x1003; do
  expect_ok "deswizzle --offset $off" "$SWZ" deswizzle -q "${L[@]}" --mips 3 --offset $off dump.bin o.raw
  cmp -s a.raw o.raw && pass "--offset $off gives the bytes of the bare resource" || failed "--offset $off: bytes differ"
done
SWZ_TEST_NO_MMAP=1 "$SWZ" deswizzle -q "${L[@]}" --mips 3 --offset 4099 dump.bin o.raw && cmp -s a.raw o.raw \
  && pass "--offset on the read(2) path" || failed "--offset on the read(2) path"
expect_ok "deswizzle --offset to DDS" "$SWZ" deswizzle -q "${L[@]}" --mips 3 --offset 4099 dump.bin o.dds
expect_ok "the DDS swizzles back to the resource" bash -c "'$SWZ' swizzle -q --layout std64k o.dds again.bin && cmp a.bin again.bin"
{ head -c 10 /dev/urandom; cat a.raw; head -c 5 /dev/urandom; } >lin.bin
expect_ok "swizzle --offset (raw, trailing bytes ignored)" "$SWZ" swizzle -q "${L[@]}" --mips 3 --offset 10 lin.bin o.bin
cmp -s a.bin o.bin && pass "swizzle --offset gives the same resource" || failed "swizzle --offset: bytes differ"
{ head -c 33 /dev/urandom; cat "$PHOTO"; } >img.bin
expect_ok "swizzle --offset of an image inside a file" bash -c "'$SWZ' swizzle -q --layout std64k --mips 3 --offset 33 --format R8G8B8A8_UNORM img.bin o.bin 2>&1; cmp a.bin o.bin" 
expect_err "--offset past the end" "--offset 99999999 is past the end of 'dump.bin'" "$SWZ" deswizzle "${L[@]}" --offset 99999999 dump.bin e.raw
expect_err "--offset that is not a number" "--offset '12k' is not a decimal or 0x-hex number" "$SWZ" deswizzle "${L[@]}" --offset 12k dump.bin e.raw
expect_err "--offset leaves too few bytes" "after --offset 1000000.*less than" "$SWZ" deswizzle "${L[@]}" --mips 3 --offset 1000000 dump.bin e.raw
w=$("$SWZ" offset "${L[@]}" 17 3)
expect_out "offset --offset adds the base" $((w + 4099)) "$SWZ" offset "${L[@]}" --offset 4099 17 3
expect_out "locate --offset subtracts it" "subresource=0 x=17 y=3 z=0 sample=0 byte=0" "$SWZ" locate "${L[@]}" --offset 4099 $((w + 4099))
expect_err "locate before the base" "before the resource" "$SWZ" locate "${L[@]}" --offset 4099 5
"$SWZ" info "${L[@]}" --mips 3 --offset 4096 >info.txt 2>&1 && grep -q "file offset" info.txt \
  && pass "info names the file offset" || failed "info --offset: $(cat info.txt)"

# --- --allow-short ----------------------------------------------------------------------
full=$(stat -c %s a.bin)
head -c 1000000 a.bin >short.bin
expect_err "a short dump is refused by default" "has 1000000 bytes.*less than the $full bytes.*--allow-short" "$SWZ" deswizzle "${L[@]}" --mips 3 short.bin e.raw
expect_ok "--allow-short decodes it" "$SWZ" deswizzle "${L[@]}" --mips 3 --allow-short short.bin s.raw
grep -q "missing bytes: $((full - 1000000))" err.txt && pass "--allow-short reports the missing byte count" || failed "missing count: $(cat err.txt)"
{ cat short.bin; head -c $((full - 1000000)) /dev/zero; } >padded.bin
"$SWZ" deswizzle -q "${L[@]}" --mips 3 padded.bin p.raw
cmp -s s.raw p.raw && pass "--allow-short equals decoding the dump padded with zeros" || failed "--allow-short differs from the zero-padded oracle"
cmp -s s.raw a.raw && failed "--allow-short output equals the full decode (the test cannot fail)" || pass "the truncated decode differs from the full one"
expect_ok "--allow-short with --offset and PNG" "$SWZ" deswizzle -q "${L[@]}" --offset 4099 --allow-short dump.bin s.png
expect_out "--allow-short to stdout" 960000 bash -c "'$SWZ' deswizzle -q ${L[*]} --allow-short --subresource 0 short.bin - | wc -c"
expect_ok "--allow-short DDS" "$SWZ" deswizzle -q "${L[@]}" --mips 3 --allow-short short.bin s.dds

# --- offset / locate with many queries ------------------------------------------------------
one=""; for c in "0 0" "1 0" "0 1" "17 3" "599 399"; do one+="$("$SWZ" offset "${L[@]}" $c)"$'\n'; done
many=$("$SWZ" offset "${L[@]}" 0,0 1,0 0,1 17,3 599,399)
[ "$many" = "${one%$'\n'}" ] && pass "offset: many X,Y arguments, one answer per line" || failed "offset many: '$many' vs '$one'"
stdin=$(printf '0 0\n1,0\n\n# a comment\n0 1\n17 3\n599 399\n' | "$SWZ" offset "${L[@]}" -)
[ "$stdin" = "$many" ] && pass "offset: one element per line of standard input" || failed "offset stdin: '$stdin'"
hex=$("$SWZ" offset "${L[@]}" --hex 0,0 17,3)
[ "$hex" = "$(printf '0x%x\n0x%x' 0 "$w")" ] && pass "offset --hex" || failed "offset --hex: '$hex'"
expect_err "a bad line names the line" "line 2 of standard input" bash -c "printf '1 1\n1 x\n' | '$SWZ' offset ${L[*]} -"
expect_err "an element outside names the coordinate" "x = 600" "$SWZ" offset "${L[@]}" 1,1 600,0
a1=$("$SWZ" locate "${L[@]}" 0); a2=$("$SWZ" locate "${L[@]}" 0x837); a3=$("$SWZ" locate "${L[@]}" 70000)
expect_out "locate: many offsets" "$a1"$'\n'"$a2"$'\n'"$a3" "$SWZ" locate "${L[@]}" 0 0x837 70000
expect_out "locate: offsets from standard input" "$a1"$'\n'"$a2"$'\n'"$a3" bash -c "printf '0\n0x837\n70000\n' | '$SWZ' locate ${L[*]} -"
# 1304 offsets: : offset(locate(o)) = o - byte
seq 0 997 1300000 | "$SWZ" locate "${L[@]}" - >loc.txt || failed "locate of 2004 offsets"
sed -n 's/^subresource=0 x=\([0-9]*\) y=\([0-9]*\) .* byte=\([0-9]*\)$/\1 \2/p' loc.txt >xy.txt
sed -n 's/.* byte=\([0-9]*\)$/\1/p' loc.txt >bytes.txt
if [ -s xy.txt ]; then
  "$SWZ" offset "${L[@]}" - <xy.txt >back.txt
  paste back.txt bytes.txt | awk '{print $1 + $2}' >sum.txt
  grep -v padding loc.txt >/dev/null
  paste -d' ' <(seq 0 997 1300000) loc.txt | grep -v padding | cut -d' ' -f1 >want.txt
  cmp -s sum.txt want.txt && pass "offset(locate(o)) + byte = o for $(wc -l <want.txt) offsets" || failed "offset/locate disagree"
else
  failed "locate gave no elements"
fi

# --- '-' as IN, PNG and DDS to standard output ----------------------------------------------
expect_ok "raw from standard input" bash -c "'$SWZ' swizzle -q ${L[*]} --mips 3 - o.bin <a.raw && cmp a.bin o.bin"
expect_ok "raw from a pipe" bash -c "cat a.raw | '$SWZ' swizzle -q ${L[*]} --mips 3 - o.bin && cmp a.bin o.bin"
expect_ok "PNG from a pipe" bash -c "cat '$PHOTO' | '$SWZ' swizzle -q --layout std64k --mips 3 - o.bin && cmp a.bin o.bin"
expect_ok "DDS from a pipe" bash -c "cat o.dds | '$SWZ' swizzle -q --layout std64k - o.bin && cmp a.bin o.bin"
expect_ok "resource from a pipe with --offset" bash -c "cat dump.bin | '$SWZ' deswizzle -q ${L[*]} --mips 3 --offset 4099 - o.raw && cmp a.raw o.raw"
expect_ok "short resource from a pipe with --allow-short" bash -c "cat short.bin | '$SWZ' deswizzle -q ${L[*]} --mips 3 --allow-short - o.raw && cmp s.raw o.raw"
expect_err "short resource from a pipe without it" "standard input has 1000000 bytes" bash -c "cat short.bin | '$SWZ' deswizzle ${L[*]} --mips 3 - e.raw"
expect_err "raw pipe of the wrong size" "standard input has" bash -c "head -c 100 a.raw | '$SWZ' swizzle ${L[*]} - e.bin"
"$SWZ" deswizzle "${L[@]}" --out-type png a.bin - >o.png 2>err.txt && "$SWZ" compare -q "$PHOTO" o.png \
  && pass "PNG to standard output (--out-type png)" || failed "PNG to stdout: $(cat err.txt)"
grep -q "deswizzled" err.txt && pass "the summary goes to stderr when OUT is stdout" || failed "summary: $(cat err.txt)"
"$SWZ" deswizzle -q "${L[@]}" --mips 3 --out-type dds a.bin - >o2.dds && cmp -s o.dds o2.dds && pass "DDS to standard output" || failed "DDS to stdout"
"$SWZ" deswizzle -q "${L[@]}" --out-type png a.bin - | "$SWZ" swizzle -q --layout std64k - o.bin && "$SWZ" deswizzle -q "${L[@]}" o.bin o.raw \
  && "$SWZ" deswizzle -q "${L[@]}" a.bin a0.raw && cmp -s o.raw a0.raw && pass "PNG through a pipe end to end" || failed "PNG pipe"
if [ -e e.raw ] || [ -e e.bin ]; then failed "an OUT file was left after an error"; else pass "no OUT left after errors"; fi

echo "---"
[ $fails -eq 0 ] && echo "all cli_dumps checks passed" || echo "$fails cli_dumps check(s) FAILED"
exit $((fails > 0))

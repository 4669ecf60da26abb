#!/usr/bin/env bash
# The swz command under hostile use (docs/RELIABILITY.md, "Hostile use of the swz command"): closed
# standard descriptors, outputs that are not regular files, unbounded standard input, decode bombs,
# work before size checks, input echoed in messages, answers that cannot be told apart. Every case
# must end in the right output or a named error with a non-zero exit status, never a quiet exit 0.
# Run by ctest: cli_hostile_test.sh SWZ_BINARY SOURCE_DIR
set -uo pipefail
SWZ=$(realpath "${1:?usage: cli_hostile_test.sh path/to/swz source_dir}")
SRC=$(realpath "${2:?usage: cli_hostile_test.sh path/to/swz source_dir}")
SWZ_TEST_NAME=hostile
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tex=(--layout std64k --format R8_UNORM --size 64x64)
head -c 4096 /dev/urandom >r8.raw
"$SWZ" swizzle -q "${tex[@]}" r8.raw r8.bin || failed "setup: swizzle"
leftovers() { find "$T" -name '*.tmp-*' | head -3; }

# --- Closed standard descriptors: no output may get descriptor 0, 1 or 2 -------------------------
"$SWZ" deswizzle -v "${tex[@]}" r8.bin v.raw 2>&- >/dev/null
cmp -s v.raw r8.raw && pass "2>&-: -v timing lines do not land in the raw output" || failed "2>&-: v.raw differs from the input"
"$SWZ" deswizzle -v --out-type raw "${tex[@]}" r8.bin note.png 2>&- >/dev/null
cmp -s note.png r8.raw && pass "2>&-: a note does not land in the output" || failed "2>&-: note.png differs"
"$SWZ" deswizzle -v "${tex[@]}" r8.bin o.dds 2>&- >/dev/null
[ "$(head -c 4 o.dds)" = "DDS " ] && pass "2>&-: the DDS magic is intact" || failed "2>&-: DDS starts '$(head -c 16 o.dds | od -c | head -1)'"
pm=(--layout std64k --format R8G8B8A8_UNORM --size 600x400 --mips full --mip-tail d3d12 --packed-mips 2,8,1)
head -c "$("$SWZ" info "${pm[@]}" | awk '/^size/{print $2}')" /dev/urandom >pm.bin
"$SWZ" deswizzle "${pm[@]}" pm.bin pm.dds 2>&- >/dev/null
[ "$(head -c 4 pm.dds)" = "DDS " ] && pass "2>&-: the packed-mip note does not overwrite the DDS magic" ||
  failed "2>&-: pm.dds starts '$(head -c 16 pm.dds | od -c | head -1)'"
"$SWZ" swizzle "${tex[@]}" r8.raw c.bin >&- 2>err.txt && rc=0 || rc=$?
cmp -s c.bin r8.bin && [ $rc -eq 1 ] && grep -q "cannot write standard output (it is closed)" err.txt &&
  pass ">&-: the output is exact, the lost summary is an error" || failed ">&-: rc=$rc $(cat err.txt)"
"$SWZ" swizzle -q "${tex[@]}" r8.raw cq.bin >&- 2>err.txt && rc=0 || rc=$?
cmp -s cq.bin r8.bin && [ $rc -eq 0 ] && pass ">&- with -q: exit 0" || failed ">&- -q: rc=$rc $(cat err.txt)"
mkdir in
for i in $(seq 1 60); do cp r8.raw in/f$i.raw; done
"$SWZ" swizzle -v "${tex[@]}" -o outb --jobs 4 in/*.raw >&- 2>&-
bad=0
for i in $(seq 1 60); do cmp -s outb/f$i.bin r8.bin || bad=$((bad + 1)); done
[ $bad -eq 0 ] && pass "batch --jobs 4 with >&- 2>&-: all 60 outputs exact" || failed "batch >&- 2>&-: $bad of 60 outputs differ"
"$SWZ" swizzle - "${tex[@]}" s.bin <&- 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && [ ! -e s.bin ] && pass "<&-: swizzle - is an error" || failed "<&-: rc=$rc $(cat err.txt)"

# --- Outputs that are not regular files are written in place -------------------------------------
n=$("$SWZ" deswizzle "${tex[@]}" r8.bin /dev/stdout 2>err.txt | wc -c)
[ "$n" -eq 4096 ] && pass "/dev/stdout into a pipe: 4096 bytes" || failed "/dev/stdout: $n bytes, $(cat err.txt)"
"$SWZ" deswizzle -q "${tex[@]}" r8.bin /dev/fd/3 3>fd3.raw 2>err.txt
cmp -s fd3.raw r8.raw && pass "/dev/fd/3 onto a file" || failed "/dev/fd/3: $(cat err.txt)"
echo "a header line" >fd4.raw
"$SWZ" deswizzle -q "${tex[@]}" r8.bin /dev/stdout >>fd4.raw 2>err.txt
{ echo "a header line"; cat r8.raw; } | cmp -s - fd4.raw && pass "/dev/stdout after >>: appended, as a redirection writes" ||
  failed "/dev/stdout >>: $(cat err.txt)"
"$SWZ" deswizzle -q "${tex[@]}" r8.bin >(cat >ps.raw) 2>err.txt && rc=0 || rc=$?
for _ in $(seq 50); do [ "$(stat -c %s ps.raw 2>/dev/null)" = 4096 ] && break; sleep 0.1; done
[ $rc -eq 0 ] && cmp -s ps.raw r8.raw && pass ">(cmd): written through the pipe" || failed ">(cmd): rc=$rc $(cat err.txt)"
mkfifo fifo
cat fifo >fifo.raw &
"$SWZ" deswizzle -q "${tex[@]}" r8.bin fifo 2>err.txt
wait
cmp -s fifo.raw r8.raw && pass "a named FIFO" || failed "FIFO: $(cat err.txt)"
[ -z "$(leftovers)" ] && pass "no temporary files left" || failed "left: $(leftovers)"

# --- Standard input is read only as far as the request can use -----------------------------------
timeout 20 "$SWZ" swizzle "${tex[@]}" - z.bin </dev/zero 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "has more than 4096 bytes" err.txt && [ ! -e z.bin ] &&
  pass "raw from /dev/zero: refused after 4097 bytes" || failed "raw from /dev/zero: rc=$rc $(cat err.txt)"
{ printf '\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0\0\0\0\0'; cat /dev/zero; } |
  timeout 30 "$SWZ" swizzle - zp.bin 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "standard input holds more than" err.txt &&
  pass "a 16x16 PNG header then endless zeros: refused at the header's bound" || failed "PNG + /dev/zero: rc=$rc $(cat err.txt)"
{ head -c 730 "$SRC/fuzz/corpus/fuzz_image_input/progressive.jpg"; cat /dev/zero; } 2>/dev/null |
  timeout 30 "$SWZ" swizzle --layout std64k - zj.bin 2>err.txt
rc=${PIPESTATUS[1]}
[ $rc -eq 1 ] && grep -q "standard input holds more than" err.txt &&
  pass "a JPEG then endless zeros: refused at its frame header's bound" || failed "JPEG + /dev/zero: rc=$rc $(cat err.txt)"
cat r8.raw | "$SWZ" swizzle -q "${tex[@]}" - piped.bin && cmp -s piped.bin r8.bin &&
  pass "raw from a pipe still works" || failed "raw from a pipe"
cat "$SRC/fuzz/corpus/fuzz_image_input/progressive.jpg" | "$SWZ" swizzle -q --layout std64k - pj.bin 2>err.txt &&
  pass "a JPEG from a pipe still works" || failed "JPEG from a pipe: $(cat err.txt)"

"$SWZ" deswizzle -q "${tex[@]}" r8.bin d.dds || failed "setup: DDS"
{ cat d.dds; cat /dev/zero; } 2>/dev/null | timeout 30 "$SWZ" swizzle -q --layout std64k - dz.bin 2>err.txt
rc=${PIPESTATUS[1]}
[ $rc -eq 0 ] && cmp -s dz.bin r8.bin && pass "a DDS then endless zeros: read as far as its header says" ||
  failed "DDS + /dev/zero: rc=$rc $(cat err.txt)"
head -c 100 d.dds | "$SWZ" swizzle --layout std64k - dt.bin 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "truncated inside DDS_HEADER" err.txt && pass "a DDS cut inside its header: named" ||
  failed "short DDS header: rc=$rc $(cat err.txt)"
mkfifo zero.png
{ printf '\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0\0\0\0\0'; cat /dev/zero; } >zero.png 2>/dev/null &
timeout 30 "$SWZ" swizzle --layout std64k zero.png zf.bin 2>err.txt && rc=0 || rc=$?
kill %% 2>/dev/null; wait 2>/dev/null
[ $rc -eq 1 ] && grep -q "'zero.png' holds more than" err.txt && pass "a FIFO named .png with endless data: refused at the header's bound" ||
  failed "FIFO .png: rc=$rc $(cat err.txt)"
timeout 60 "$SWZ" identify --format R8_UNORM --size 64x64 - </dev/zero >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "standard input holds more than" err.txt && pass "identify from /dev/zero: refused at its bound" ||
  failed "identify /dev/zero: rc=$rc $(cat err.txt)"

# --- A full or closed standard output is an error, not a quiet exit 0 ---------------------------------
for c in "info ${tex[*]}" "layouts" "formats" "locate ${tex[*]} 0"; do
  # shellcheck disable=SC2086
  "$SWZ" $c >/dev/full 2>err.txt && rc=0 || rc=$?
  [ $rc -eq 1 ] && grep -q "cannot write standard output" err.txt && pass "${c%% *} >/dev/full: exit 1" ||
    failed "${c%% *} >/dev/full: rc=$rc $(cat err.txt)"
done
"$SWZ" compare "$SRC/examples/coffee.png" "$SRC/examples/coffee.png" >/dev/full 2>err.txt && rc=0 || rc=$?
[ $rc -eq 2 ] && pass "compare >/dev/full: exit 2 (trouble), not 0 (identical)" || failed "compare >/dev/full: rc=$rc"

# --- Decode bombs: a progressive JPEG that repeats one scan -----------------------------------------
python3 - "$SRC/fuzz/corpus/fuzz_image_input/progressive.jpg" bomb.jpg <<'EOF'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
assert d[158:160] == b'\xff\xc2' and d[317:319] == b'\xff\xda' and d[730:732] == b'\xff\xd9'
d[163:167] = bytes([8, 0, 8, 0])  # 2048x2048
open(sys.argv[2], 'wb').write(bytes(d[:730]) + bytes(d[317:331]) * 2000 + bytes(d[730:]))
EOF
start=$(date +%s)
timeout 60 "$SWZ" swizzle --layout std64k bomb.jpg bomb.bin 2>err.txt && rc=0 || rc=$?
took=$(($(date +%s) - start))
[ $rc -eq 1 ] && grep -q "decode bomb: the JPEG has more than 170 scans" err.txt && [ ! -e bomb.bin ] &&
  pass "a JPEG of 2000 scans: refused as a decode bomb (${took} s)" || failed "JPEG bomb: rc=$rc $(cat err.txt)"
"$SWZ" swizzle -q --layout std64k "$SRC/fuzz/corpus/fuzz_image_input/progressive.jpg" prog.bin && pass "an ordinary progressive JPEG decodes" ||
  failed "ordinary progressive JPEG"

printf '\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\x7f\xff\xff\xff\x7f\xff\xff\xff\x10\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' >huge.png
"$SWZ" swizzle --layout std64k huge.png huge.bin 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "truncated or corrupt: its PNG header promises 2147483647x2147483647" err.txt &&
  pass "a PNG header whose size overflows 64 bits: refused by the header check" || failed "huge PNG: rc=$rc $(cat err.txt)"

# --- Sizes are checked before the work: plot of a 16384x16384 block ----------------------------------
pat="pattern:$(for i in $(seq 0 13); do printf 'X%d ' "$i"; done)$(for i in $(seq 0 13); do printf 'Y%d ' "$i"; done)"
timeout 20 "$SWZ" plot --layout "$pat" p.png 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "the plot would be too large" err.txt && pass "plot of a 16384^2 block: refused at once" ||
  failed "plot 16384^2: rc=$rc $(cat err.txt)"

# --- Input echoed in messages is quoted, escaped and cut --------------------------------------------
printf '\033[31mzz\n' | "$SWZ" locate "${tex[@]}" - >out.txt 2>err.txt
! grep -q $'\033' err.txt out.txt && grep -q 'u001b' err.txt && pass "locate -: an escape sequence is escaped" ||
  failed "locate -: raw escape in $(cat -v err.txt)"
printf '1,\033]0;x\007\n' | "$SWZ" offset "${tex[@]}" - >out.txt 2>err.txt
! grep -q $'\033' err.txt out.txt && pass "offset -: an escape sequence is escaped" || failed "offset -: $(cat -v err.txt)"
{ head -c 5000000 /dev/zero | tr '\0' 'k'; echo; } | "$SWZ" locate "${tex[@]}" - >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && [ "$(stat -c %s err.txt)" -lt 1000 ] && grep -q "has more than 4096 bytes" err.txt &&
  pass "locate -: a 5 MB line gives a short message" || failed "5 MB line: rc=$rc, $(stat -c %s err.txt) bytes"
timeout 20 "$SWZ" locate "${tex[@]}" - </dev/zero >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "stopped reading there" err.txt && pass "locate - </dev/zero: stops after one over-long line" ||
  failed "locate - </dev/zero: rc=$rc $(head -c 300 err.txt)"
"$SWZ" locate "${tex[@]}" $'\033[2J' 1 >out.txt 2>err.txt
! grep -q $'\033' err.txt out.txt && pass "locate: an escape in an argument is escaped" || failed "locate arg: $(cat -v err.txt)"

# --- Answers that cannot be told apart, and partial answers ------------------------------------------
head -c 16384 /dev/zero >zero.bin
"$SWZ" identify --format R8G8B8A8_UNORM --size 64x64 zero.bin >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "cannot tell layouts apart" err.txt && pass "identify of an all-zero dump: cannot tell, exit 1" ||
  failed "identify zeros: rc=$rc $(cat out.txt err.txt)"
cp zero.bin one.bin && printf '\377' | dd of=one.bin bs=1 seek=5000 conv=notrunc 2>/dev/null
"$SWZ" identify --format R8G8B8A8_UNORM --size 64x64 one.bin >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && [ -s out.txt ] && grep -q "nearly uniform (99.98% of its 4096 elements" err.txt &&
  pass "identify of a dump with one non-zero byte: ranked, then 'nearly uniform', exit 1" || failed "identify one byte: rc=$rc $(cat err.txt)"
# A dump with less than the texture's tight bytes: ranked, with a warning that the truth may be missing.
head -c 9000 /dev/urandom >cut.bin
"$SWZ" identify --format R8G8B8A8_UNORM --size 64x64 cut.bin >out.txt 2>err.txt || true
grep -q "less than the texture's 16384 bytes packed tight" err.txt &&
  pass "identify of a dump under the texture's tight size warns that the truth may be missing" ||
  failed "identify of a cut dump: $(cat out.txt err.txt)"
"$SWZ" deswizzle --layout std64k --format R8G8B8A8_UNORM --size 64x64 --offset auto cut.bin x.png 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "run swz identify --offset auto" err.txt && pass "deswizzle --offset auto points at identify" ||
  failed "deswizzle --offset auto: rc=$rc $(cat err.txt)"
head -c 4194304 /dev/urandom >noise4m.bin
"$SWZ" identify --format BC1_UNORM --size 64x64 --offset auto noise4m.bin >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "no candidate decodes to a smooth image" err.txt &&
  pass "identify --offset auto over noise: the best of many offsets is still noise, exit 1" ||
  failed "identify --offset auto over noise: rc=$rc $(cat out.txt err.txt)"
head -c 16384 /dev/urandom >noise.bin
"$SWZ" identify --format R8G8B8A8_UNORM --size 64x64 noise.bin >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "no candidate decodes to a smooth image" err.txt && pass "identify of noise: exit 1" ||
  failed "identify noise: rc=$rc $(cat out.txt err.txt)"
"$SWZ" locate "${tex[@]}" 0x834 0 65535 65536 >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <out.txt)" -eq 4 ] && [ "$(grep -c '^error' out.txt)" -eq 1 ] &&
  sed -n 4p out.txt | grep -q "^error: offset '65536'.*past the end" &&
  pass "locate of 3 valid offsets and 1 past the end: 3 answers, 1 marked, exit 1" || failed "locate: rc=$rc $(cat out.txt err.txt)"

echo "cli_hostile: $passes passed, $fails failed"
exit $((fails > 0))

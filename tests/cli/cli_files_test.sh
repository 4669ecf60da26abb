#!/usr/bin/env bash
# The files the user owns: OUT = IN, permissions of a replaced OUT,
# nothing left behind by a killed or failed run, long names, symbolic links
# (cp's rule), write errors naming OUT. Run by ctest:
#   cli_files_test.sh SWZ_BINARY SOURCE_DIR
# Each check prints "ok" or "FAIL"; the script exits 1 if any failed.
set -uo pipefail
SWZ=${1:?usage: cli_files_test.sh path/to/swz source_dir}
SRC=${2:?usage: cli_files_test.sh path/to/swz source_dir}
SWZ_TEST_NAME=files
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
umask 022

no_leftovers() {  # DESC DIR: no temporary file in DIR
  local left; left=$(ls -A "$2" | grep '\.tmp-')
  if [ -z "$left" ]; then pass "$1: no temporary file left"; else failed "$1: temporary files left: $left"; fi
}
SW=("$SWZ" swizzle -q --layout std64k --format R8_UNORM --size 256x256)
head -c 65536 /dev/urandom >in.raw
"${SW[@]}" in.raw want.bin || failed "reference swizzle"

# --- 7. OUT = IN is refused unless --in-place ------------------------------------------------
cp in.raw a.raw
expect_err "OUT = IN (same path) is refused" "same file as IN.*--in-place" "${SW[@]}" a.raw a.raw
cmp -s a.raw in.raw && pass "IN untouched after OUT = IN" || failed "IN was changed by OUT = IN"
ln a.raw hard.raw
expect_err "OUT a hard link of IN is refused" "same file as IN" "${SW[@]}" a.raw hard.raw
ln -s a.raw soft.raw
expect_err "OUT a symbolic link to IN is refused" "same file as IN" "${SW[@]}" a.raw soft.raw
expect_err "deswizzle: OUT = IN is refused" "same file as IN" "$SWZ" deswizzle -q --layout std64k --format R8_UNORM --size 256x256 want.bin ./want.bin
cmp -s a.raw in.raw && pass "IN untouched" || failed "IN was changed"
rm hard.raw
expect_ok "--in-place replaces IN" "${SW[@]}" --in-place a.raw a.raw
cmp -s a.raw want.bin && pass "--in-place result is the swizzled IN" || failed "--in-place result differs"

# --- 8. a replaced OUT keeps its mode ----------------------------------------------------------
touch private.bin && chmod 600 private.bin
expect_ok "replace a 0600 OUT" "${SW[@]}" in.raw private.bin
[ "$(stat -c %a private.bin)" = 600 ] && pass "OUT keeps mode 0600" || failed "OUT mode became $(stat -c %a private.bin)"
touch shared.bin && chmod 664 shared.bin
"${SW[@]}" in.raw shared.bin
[ "$(stat -c %a shared.bin)" = 664 ] && pass "OUT keeps mode 0664" || failed "OUT mode became $(stat -c %a shared.bin)"
"${SW[@]}" in.raw new.bin
[ "$(stat -c %a new.bin)" = 644 ] && pass "a new OUT gets 0666 & ~umask" || failed "new OUT mode $(stat -c %a new.bin)"

# --- 9. killed runs leave nothing --------------------------------------------------------------
# SIGXFSZ: OUT past RLIMIT_FSIZE (ulimit -f, 1 KiB blocks) is a clean error.
mkdir fsz
expect_err "OUT past ulimit -f is an error naming OUT" "cannot write 'fsz/big.bin'" bash -c "ulimit -f 16; exec \"\$@\"" _ "${SW[@]}" in.raw fsz/big.bin
no_leftovers "file size limit" fsz
[ ! -e fsz/big.bin ] && pass "no partial OUT past ulimit -f" || failed "a partial OUT was left"
# SIGKILL while writing: stop the run as soon as it has a file open in kill/
# (the unnamed O_TMPFILE file or, before, OUT.tmp-XXXXXX), then kill -9 it.
mkdir kill
head -c $((4096 * 4096 * 4)) /dev/zero >big.raw
caught=0
for attempt in 1 2 3 4 5; do
  "$SWZ" swizzle -q --layout row-major --format R8G8B8A8_UNORM --size 4096x4096 big.raw kill/out.bin &
  pid=$!
  while kill -0 $pid 2>/dev/null; do
    if ls -l /proc/$pid/fd 2>/dev/null | grep -q "$T/kill/"; then kill -STOP $pid; caught=1; break; fi
  done
  if [ $caught = 1 ]; then kill -KILL $pid; wait $pid 2>/dev/null; break; fi
  wait $pid 2>/dev/null; rm -f kill/*
done
if [ $caught = 1 ]; then
  no_leftovers "SIGKILL while writing" kill
  [ ! -e kill/out.bin ] && pass "no OUT after SIGKILL" || failed "a partial OUT after SIGKILL"
else
  echo "skip SIGKILL while writing: the run finished before it was caught (5 tries)"
fi

# --- 10. long names, symbolic links (cp's rule), write errors -----------------------------------
long=$(printf 'n%.0s' $(seq 250)).bin   # 254 characters: OUT.tmp-XXXXXX would pass NAME_MAX (255)
expect_ok "OUT name of 254 characters" "${SW[@]}" in.raw "$long"
cmp -s "$long" want.bin && pass "long OUT written" || failed "long OUT content"
no_leftovers "long name" .
echo old >target.bin
ln -s target.bin live.bin
expect_ok "OUT a live symlink" "${SW[@]}" in.raw live.bin
[ -L live.bin ] && cmp -s target.bin want.bin && pass "live symlink kept, its target written" || failed "live symlink: $(ls -l live.bin)"
mkdir sub && ln -s ../created.bin sub/dangling.bin
expect_ok "OUT a dangling symlink" "${SW[@]}" in.raw sub/dangling.bin
[ -L sub/dangling.bin ] && cmp -s created.bin want.bin && pass "dangling symlink kept, its target created (relative to the link)" \
  || failed "dangling symlink: $(ls -l sub/dangling.bin created.bin 2>&1)"
ln -s nodir/x.bin bad.bin
expect_err "dangling symlink into a missing directory" "bad.bin" "${SW[@]}" in.raw bad.bin
[ -L bad.bin ] && pass "that symlink is kept" || failed "that symlink was replaced"
if [ -w /dev/full ]; then
  expect_err "/dev/full names the path" "cannot write '/dev/full': No space left on device" "${SW[@]}" in.raw /dev/full
fi
no_leftovers "all runs" .

# --- the same with a named temporary file (filesystems without O_TMPFILE) -----------------------
export SWZ_TEST_NAMED_TEMP=1
mkdir named && cd named
touch "$long" && chmod 640 "$long"
expect_ok "named temporary: OUT name of 254 characters" "${SW[@]}" ../in.raw "$long"
cmp -s "$long" ../want.bin && [ "$(stat -c %a "$long")" = 640 ] && pass "named temporary: long OUT written, mode kept" || failed "named temporary: long OUT"
expect_err "named temporary: OUT past ulimit -f" "cannot write 'big.bin'" bash -c "ulimit -f 16; exec \"\$@\"" _ "${SW[@]}" ../in.raw big.bin
[ ! -e big.bin ] && pass "named temporary: no partial OUT" || failed "named temporary: partial OUT"
no_leftovers "named temporary" .
cd ..
unset SWZ_TEST_NAMED_TEMP

echo "---"
if [ $fails -ne 0 ]; then echo "$fails check(s) failed"; exit 1; fi
echo "all file checks passed"

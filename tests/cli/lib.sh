# Shared by the swz command's end-to-end scripts (tests/cli/*.sh): a fresh
# working folder, removed on exit, and the check helpers. Each check prints
# "ok" or "FAIL"; a script ends with `exit $((fails > 0))` or its own summary.
# Source it after setting SWZ and SRC; SWZ_TEST_NAME names the folder.
T=$(mktemp -d "${TMPDIR:-/tmp}/swz-${SWZ_TEST_NAME:-cli}-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

fails=0
passes=0
pass() { echo "ok   $*"; passes=$((passes + 1)); }
failed() { echo "FAIL $*"; fails=$((fails + 1)); }
# expect_ok DESC CMD...: the command succeeds
expect_ok() { local d=$1; shift; if "$@" >out.txt 2>err.txt; then pass "$d"; else failed "$d (rc=$?): $(cat err.txt)"; fi; }
# expect_err DESC PATTERN CMD...: exit 1, "swz: error:" and PATTERN on stderr
expect_err() {
  local d=$1 pat=$2; shift 2
  "$@" >out.txt 2>err.txt; local rc=$?
  if [ $rc -eq 1 ] && grep -q "^swz: error: " err.txt && grep -qE -- "$pat" err.txt; then pass "$d"
  else failed "$d (rc=$rc, stderr: $(cat err.txt))"; fi
}

#!/usr/bin/env python3
"""Mutation runner: do the tests catch deliberate bugs in swz's core rules?

Each mutation in tests/mutation/mutations.json names a file, an exact piece of
its text (which must occur exactly once) and a replacement that breaks one rule
(plan tables, validation, placement, refusals, region overlap, mip tails,
hardware families' size and mip rules, texel decoders). The runner copies the
working tree into a scratch folder (default: build-mutation/, ignored by git;
the working tree itself is never modified), builds the test binary there once,
then for each mutation writes the mutated file, rebuilds incrementally, runs a
fast subset of the tests and restores the file. A mutant is

  killed    the tests fail (or time out) with the mutation in place,
  survived  the tests pass: no test notices the bug,
  invalid   the mutated source does not compile (not counted),
  stale     the original text is no longer in the file (not counted).

Usage (from the repository root):
  tests/mutation/run.py                      # every mutation, the default test subset
  tests/mutation/run.py --list               # the mutations
  tests/mutation/run.py --only plan-xor4,nv-3d-slabs
  tests/mutation/run.py --budget 3600        # stop starting mutants after an hour
  tests/mutation/run.py --filter 'Copy*:Layout*' --jobs 8

The score (killed / (killed + survived)) and each survivor are printed; the
whole result is written to build-mutation/results.json. ccache makes the first
build cheap when the tree was built before (CMAKE_*_COMPILER_LAUNCHER=ccache).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# The default subset: fast tests of the rules the mutations break. Each entry
# is a GoogleTest filter pattern of swz_tests.
DEFAULT_FILTER = ":".join([
    "PlacementOracle.*", "SpecOracle.*", "Boundaries.*", "BoundaryValidation.*",
    "CopyProperty.*", "CopyRoundTrip.*", "CopyErrors.*", "Layout.*", "LayoutErrors.*",
    "Surface.*", "Pattern*.*", "Reference*.*", "Region*.*", "TileCopy.*", "DeviceLayout*.*", "Transitions.*",
    "PackedMips.*", "RowMajor.*", "Footprint*.*", "SharedBytes.*", "LocateOracle.*", "Hostile.*", "CopyResources.*",
    # the texel decoders (tests/core/test_core_decode*.cpp)
    "Decode*.*",
    # the hardware families (tests/hw)
    "Vendor*.*", "Amd*.*", "AdrenoLayout.*", "MaliLayout.*", "Xbox360Layout.*", "IntelAlign.*",
])


def tests_passed(log_path, mark):
    """The number of tests GoogleTest reports as passed after `mark` in the log."""
    with open(log_path) as f:
        text = f.read()
    text = text[text.rfind(mark):] if mark in text else text
    for line in text.splitlines():
        if line.startswith("[  PASSED  ]"):
            return int(line.split()[3])
    return 0


def sh(cmd, cwd, timeout=None, log=None):
    """Runs cmd; returns (exit status or 'timeout', seconds)."""
    t0 = time.time()
    try:
        r = subprocess.run(cmd, cwd=cwd, stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT,
                           timeout=timeout)
        return r.returncode, time.time() - t0
    except subprocess.TimeoutExpired:
        return "timeout", time.time() - t0


def tracked_files():
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                         stdout=subprocess.PIPE).stdout
    return [f for f in out.decode().split("\0") if f]


def sync_tree(dest):
    """Copies the working tree into dest, rewriting only files whose bytes
    differ (unchanged files keep their times, so rebuilds stay incremental)."""
    for rel in tracked_files():
        src = os.path.join(ROOT, rel)
        dst = os.path.join(dest, rel)
        if not os.path.isfile(src) or os.path.islink(src):
            continue
        with open(src, "rb") as f:
            data = f.read()
        if os.path.exists(dst):
            with open(dst, "rb") as f:
                if f.read() == data:
                    continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)
        shutil.copymode(src, dst)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scratch", default=os.path.join(ROOT, "build-mutation"), help="scratch folder")
    ap.add_argument("--mutations", default=os.path.join(ROOT, "tests", "mutation", "mutations.json"))
    ap.add_argument("--only", default="", help="comma-separated mutation ids")
    ap.add_argument("--filter", default=DEFAULT_FILTER, help="GoogleTest filter of the swz_tests subset")
    ap.add_argument("--jobs", type=int, default=2, help="build jobs")
    ap.add_argument("--test-timeout", type=float, default=600, help="seconds per test run (a timeout kills)")
    ap.add_argument("--build-timeout", type=float, default=1200, help="seconds per build")
    ap.add_argument("--budget", type=float, default=0, help="seconds; no new mutant starts after this (0 = none)")
    ap.add_argument("--list", action="store_true", help="list the mutations and exit")
    ap.add_argument("--check", action="store_true", help="only check that every original text occurs once")
    args = ap.parse_args()

    with open(args.mutations) as f:
        muts = json.load(f)["mutations"]
    if args.only:
        ids = set(args.only.split(","))
        muts = [m for m in muts if m["id"] in ids]
    if args.list:
        for m in muts:
            print(f"{m['id']:28} {m['file']:28} {m['rule']}")
        return 0
    if args.check:
        bad = 0
        for m in muts:
            path = os.path.join(ROOT, m["file"])
            n = open(path).read().count(m["original"]) if os.path.exists(path) else 0
            if n != 1:
                print(f"{m['id']}: original text found {n} times in {m['file']}")
                bad += 1
        print(f"{len(muts) - bad}/{len(muts)} mutations apply")
        return 1 if bad else 0

    start = time.time()
    tree = os.path.join(args.scratch, "tree")
    build = os.path.join(tree, "build")
    os.makedirs(tree, exist_ok=True)
    sync_tree(tree)
    log_path = os.path.join(args.scratch, "log.txt")
    log = open(log_path, "w")
    nice = ["nice"] if shutil.which("nice") else []
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        cfg = ["cmake", "-S", tree, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DSWZ_BENCH=OFF"]
        if shutil.which("ccache"):
            cfg += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        rc, _ = sh(cfg, tree, log=log)
        if rc != 0:
            print(f"configure failed; see {log_path}")
            return 2
    build_cmd = nice + ["cmake", "--build", build, "--target", "swz_tests", "-j", str(args.jobs)]
    test_cmd = nice + [os.path.join(build, "tests", "swz_tests"), "--gtest_filter=" + args.filter,
                       "--gtest_brief=1"]
    env_note = "SWZ_TEST_SCALE=" + os.environ.get("SWZ_TEST_SCALE", "(unset)")
    print(f"baseline build in {build} ...", flush=True)
    rc, secs = sh(build_cmd, tree, args.build_timeout, log)
    if rc != 0:
        print(f"baseline build failed ({rc}); see {log_path}")
        return 2
    log.write("\n===== baseline tests =====\n")
    log.flush()
    rc, test_secs = sh(test_cmd, tree, args.test_timeout, log)
    if rc != 0:
        print(f"baseline tests fail ({rc}) with filter {args.filter}; see {log_path}")
        return 2
    log.flush()
    ran = tests_passed(log_path, "===== baseline tests =====")
    if ran == 0:  # a filter that matches nothing passes
        print(f"the filter {args.filter} selects no test")
        return 2
    print(f"baseline: build {secs:.0f} s, {ran} tests in {test_secs:.0f} s ({env_note})", flush=True)

    results = []
    for i, m in enumerate(muts):
        if args.budget and time.time() - start > args.budget:
            results.append({"id": m["id"], "rule": m["rule"], "result": "not run (budget)"})
            continue
        path = os.path.join(tree, m["file"])
        orig = ""
        if os.path.exists(path):
            with open(path) as f:
                orig = f.read()
        if orig.count(m["original"]) != 1:
            results.append({"id": m["id"], "rule": m["rule"], "result": "stale"})
            print(f"[{i + 1}/{len(muts)}] {m['id']}: stale", flush=True)
            continue
        try:
            with open(path, "w") as f:
                f.write(orig.replace(m["original"], m["replacement"]))
            log.write(f"\n===== {m['id']} =====\n")
            log.flush()
            brc, bsecs = sh(build_cmd, tree, args.build_timeout, log)
            if brc != 0:
                res = "invalid"
                tsecs = 0
            else:
                trc, tsecs = sh(test_cmd, tree, args.test_timeout, log)
                res = "survived" if trc == 0 else ("killed (timeout)" if trc == "timeout" else "killed")
        finally:
            with open(path, "w") as f:
                f.write(orig)
        results.append({"id": m["id"], "rule": m["rule"], "file": m["file"], "result": res,
                        "build_s": round(bsecs), "test_s": round(tsecs)})
        print(f"[{i + 1}/{len(muts)}] {m['id']}: {res} (build {bsecs:.0f} s, tests {tsecs:.0f} s)", flush=True)
    # Leave the scratch build matching the tree again.
    sh(build_cmd, tree, args.build_timeout, log)

    killed = sum(r["result"].startswith("killed") for r in results)
    survived = [r for r in results if r["result"] == "survived"]
    counted = killed + len(survived)
    print()
    print(f"mutation score: {killed}/{counted} killed" + (f" ({100.0 * killed / counted:.1f}%)" if counted else ""))
    for r in results:
        if not r["result"].startswith("killed"):
            print(f"  {r['result']:18} {r['id']:28} {r['rule']}")
    with open(os.path.join(args.scratch, "results.json"), "w") as f:
        json.dump({"filter": args.filter, "results": results, "killed": killed, "counted": counted}, f, indent=1)
    return 0 if not survived else 1


if __name__ == "__main__":
    sys.exit(main())

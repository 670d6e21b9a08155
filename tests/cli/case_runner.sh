# Shared by the end-to-end scripts of tests/cli (sourced, not run): failure counting and the dispatch of one case.
# A script defines case_<name> functions and sets CASE; `run_case` runs case_<CASE> (dashes as underscores) and
# exits 0 if all its checks passed, 1 if any failed, 2 if there is no such case.

failures=0
fail() {
  echo "FAIL [$CASE]: $*" >&2
  failures=$((failures + 1))
}

run_case() {
  local function_name="case_${CASE//-/_}"
  if ! declare -F "$function_name" >/dev/null; then
    echo "unknown case '$CASE'" >&2
    exit 2
  fi
  "$function_name"
  if ((failures > 0)); then
    echo "$CASE: $failures check(s) failed" >&2
    exit 1
  fi
  echo "$CASE: passed"
}

#!/usr/bin/env bash
# Installs the built rbmix into a temporary prefix, then builds this example project against it with
# find_package(rbmix) and runs it: the rule written outside rbmix must pass every check of rbmix::verify, and the
# two deliberately wrong rules must fail exactly the checks that catch them. The wrong rules' output (what a user
# would see) is printed.
set -euo pipefail
build_dir=$1
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$source_dir" -B "$work/example" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release \
  > "$work/configure.log"
cmake --build "$work/example" > "$work/build.log"
# rapidcheck draws its own seed unless told: fix it so that the outcome repeats.
export RC_PARAMS="seed=20131127 max_success=100"

"$work/example/verify_my_rule"

if "$work/example/wrong_rules" > "$work/wrong.log" 2>&1; then
  cat "$work/wrong.log"
  echo "check-verify-example: the wrong rules passed every check" >&2
  exit 1
fi
cat "$work/wrong.log"

# Flip-the-state without its tie rule is right wherever no input is exactly 0: only the tied RBMs catch it. Gibbs
# with a sign error breaks the contract and the invariants, yet the sampler still draws exactly what the rule says.
expected="WrongRule/RuleChecks/0.IsExactOnTinyRbmsWithTies
WrongRule/RuleChecks/1.IsExactOnRandomTinyRbms
WrongRule/RuleChecks/1.IsExactOnTinyRbmsWithTies
WrongRule/RuleChecks/1.KeepsTheUnitRuleContract"
failed=$(sed -n 's/^\[  FAILED  \] \(WrongRule\/RuleChecks\/[0-9]\.[A-Za-z]*\),.*/\1/p' "$work/wrong.log" | sort -u)
if [[ "$failed" != "$expected" ]]; then
  printf 'check-verify-example: expected these checks to fail:\n%s\nbut these failed:\n%s\n' "$expected" "$failed" >&2
  exit 1
fi
for message in "flip-without-tie-rule at β = 1: ergodicity claimed true but found" \
               "unit rule 'gibbs-sign-error' at x = " "p(unit | rest) is not invariant"; do
  if ! grep -qF "$message" "$work/wrong.log"; then
    echo "check-verify-example: the output does not say '$message'" >&2
    exit 1
  fi
done
echo "check-verify-example: the correct rule passed; the wrong rules failed the expected checks"

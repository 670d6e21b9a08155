// Links the installed libraries and checks one exact value: an RBM with W = 0 and zero biases has
// log Z = (m + n) log 2; that the job engine links through the experiments library (two trials get two seeds); and that rbmix::verify's
// numeric checks work without a test framework (this project links neither GoogleTest nor rapidcheck).
#include <cmath>
#include <cstdio>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/jobs/trial_seed.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/verify/rule_contract.hpp"

int main() {
  const rbmix::Rbm rbm(3, 2);
  const double log_partition = rbmix::exact_log_partition(rbm);
  const double stationary_sum = rbmix::analysis::JointStateSpace(rbm).stationary_distribution(rbm).sum();
  std::printf("log Z = %.12f, sum of pi = %.12f\n", log_partition, stationary_sum);
  const bool seeds_differ = rbmix::experiments::trial_seed(1, 0) != rbmix::experiments::trial_seed(1, 1);
  const rbmix::verify::VerificationResult contract = rbmix::verify::check_rule_contract_on_grid(rbmix::GibbsRule{});
  std::printf("%s\n", contract.message.c_str());
  return std::abs(log_partition - 5 * std::log(2.0)) < 1e-12 && std::abs(stationary_sum - 1.0) < 1e-12 &&
                 seeds_differ && contract.passed
             ? 0
             : 1;
}

#pragma once
// The 3 + 2 RBM that the sampler tests check their χ² rows on: moderate weights and one exact tie (hidden unit 1 has
// input 0 at v = 0), so that tie rules are exercised.
#include "rbmix/model/rbm.hpp"

namespace rbmix::testing {

inline Rbm tied_rbm() {
  Rbm rbm(3, 2);
  rbm.weights << 1.2, -0.7, 0.4, -1.5, 0.9, 1.1;
  rbm.visible_bias << 0.3, -0.2, 0.0;
  rbm.hidden_bias << -0.4, 0.0;
  return rbm;
}

}  // namespace rbmix::testing

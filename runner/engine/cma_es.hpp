#pragma once
// CMA-ES (Hansen 2016, "The CMA Evolution Strategy: A Tutorial", its default parameters):
// the search distribution of the `qd` driver's CMA-ME and CMA-MAE emitters. Larger is better
// is the caller's business: tell() takes the candidates already ranked, best first. The state
// is plain numbers (state() and the constructor from it), so that a checkpoint restores it
// bit for bit; the linear algebra is Eigen's (cma_es.cpp).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/api/rng.hpp"

namespace levelforge {

class CmaEs {
 public:
  // A fresh search around `mean` with step size `sigma`, `population` candidates a
  // generation (0: Hansen's default, 4 + floor(3 ln n)).
  CmaEs(std::vector<double> mean, double sigma, std::size_t population = 0);
  // The search whose state() this was; throws std::invalid_argument for numbers of another
  // dimension, or a population below 2.
  static CmaEs from_state(std::span<const double> state, std::size_t dimension,
                          std::size_t population);

  [[nodiscard]] std::size_t dimension() const { return mean_.size(); }
  [[nodiscard]] std::size_t population() const { return population_; }
  [[nodiscard]] const std::vector<double>& mean() const { return mean_; }
  [[nodiscard]] double sigma() const { return sigma_; }
  [[nodiscard]] std::uint64_t generation() const { return generation_; }

  // One candidate, mean + sigma B D z for z ~ N(0, I) drawn from `rng`.
  [[nodiscard]] std::vector<double> sample(Rng& rng) const;

  // Moves the distribution toward the first `parents` of `ranked` (best first; at least 1),
  // weighted by Hansen's log-linear weights for that many parents.
  void tell(const std::vector<std::vector<double>>& ranked, std::size_t parents);

  // Whether the search has converged or degenerated: its steps are below 1e-12 along every
  // axis, or its covariance's condition number is above 1e14.
  [[nodiscard]] bool stalled() const;

  // Every number of the state, for a checkpoint: state_size(dimension) values.
  [[nodiscard]] std::vector<double> state() const;
  static std::size_t state_size(std::size_t dimension);

 private:
  void decompose();

  std::size_t population_;
  std::vector<double> mean_;
  double sigma_;
  std::uint64_t generation_ = 0;
  std::vector<double> path_sigma_;  // p_sigma
  std::vector<double> path_c_;      // p_c
  std::vector<double> covariance_;  // C, n x n, column-major
  std::vector<double> basis_;       // B: C's eigenvectors as columns (from C, not saved)
  std::vector<double> scales_;      // D: the square roots of C's eigenvalues (from C)
};

}  // namespace levelforge

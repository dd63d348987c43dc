#include "runner/engine/cma_es.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace levelforge {

namespace {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;
using MatrixView = Eigen::Map<Matrix>;
using ConstMatrixView = Eigen::Map<const Matrix>;
using VectorView = Eigen::Map<Vector>;
using ConstVectorView = Eigen::Map<const Vector>;

std::size_t default_population(std::size_t dimension) {
  return 4 + static_cast<std::size_t>(std::floor(3 * std::log(static_cast<double>(dimension))));
}

// Hansen's constants for `dimension` and `mu_eff`.
struct Rates {
  double c_sigma;
  double d_sigma;
  double c_c;
  double c_1;
  double c_mu;
  double expected_norm;  // E ||N(0, I)||
};

Rates rates(std::size_t dimension, double mu_eff) {
  const auto n = static_cast<double>(dimension);
  Rates r{};
  r.c_sigma = (mu_eff + 2) / (n + mu_eff + 5);
  r.d_sigma = 1 + 2 * std::max(0.0, std::sqrt((mu_eff - 1) / (n + 1)) - 1) + r.c_sigma;
  r.c_c = (4 + mu_eff / n) / (n + 4 + 2 * mu_eff / n);
  r.c_1 = 2 / ((n + 1.3) * (n + 1.3) + mu_eff);
  r.c_mu = std::min(1 - r.c_1, 2 * (mu_eff - 2 + 1 / mu_eff) / ((n + 2) * (n + 2) + mu_eff));
  r.expected_norm = std::sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n));
  return r;
}

}  // namespace

CmaEs::CmaEs(std::vector<double> mean, double sigma, std::size_t population)
    : population_(population == 0 ? default_population(mean.size()) : population),
      mean_(std::move(mean)),
      sigma_(sigma),
      path_sigma_(mean_.size(), 0.0),
      path_c_(mean_.size(), 0.0),
      covariance_(mean_.size() * mean_.size(), 0.0) {
  for (std::size_t i = 0; i < mean_.size(); ++i) covariance_[i * mean_.size() + i] = 1;
  decompose();
}

std::size_t CmaEs::state_size(std::size_t dimension) {
  return 2 + 3 * dimension + dimension * dimension;
}

std::vector<double> CmaEs::state() const {
  std::vector<double> numbers{sigma_, static_cast<double>(generation_)};
  numbers.insert(numbers.end(), mean_.begin(), mean_.end());
  numbers.insert(numbers.end(), path_sigma_.begin(), path_sigma_.end());
  numbers.insert(numbers.end(), path_c_.begin(), path_c_.end());
  numbers.insert(numbers.end(), covariance_.begin(), covariance_.end());
  return numbers;
}

CmaEs CmaEs::from_state(std::span<const double> state, std::size_t dimension,
                        std::size_t population) {
  if (state.size() != state_size(dimension) || population < 2) {
    throw std::invalid_argument("a CMA-ES state of " + std::to_string(state.size()) +
                                " numbers, expected " + std::to_string(state_size(dimension)));
  }
  auto rest = state.subspan(2);
  const auto take = [&](std::size_t count) {
    std::vector<double> part(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(count));
    rest = rest.subspan(count);
    return part;
  };
  CmaEs es(take(dimension), state[0], population);
  es.generation_ = static_cast<std::uint64_t>(state[1]);
  es.path_sigma_ = take(dimension);
  es.path_c_ = take(dimension);
  es.covariance_ = take(dimension * dimension);
  es.decompose();
  return es;
}

void CmaEs::decompose() {
  const auto n = static_cast<Eigen::Index>(mean_.size());
  const Eigen::SelfAdjointEigenSolver<Matrix> solver(ConstMatrixView(covariance_.data(), n, n));
  basis_.assign(solver.eigenvectors().data(), solver.eigenvectors().data() + n * n);
  scales_.resize(mean_.size());
  for (Eigen::Index i = 0; i < n; ++i)
    scales_[static_cast<std::size_t>(i)] = std::sqrt(std::max(solver.eigenvalues()[i], 1e-300));
}

std::vector<double> CmaEs::sample(Rng& rng) const {
  const auto n = static_cast<Eigen::Index>(mean_.size());
  Vector z(n);
  for (Eigen::Index i = 0; i < n; ++i) z[i] = rng.normal() * scales_[static_cast<std::size_t>(i)];
  const Vector x =
      ConstVectorView(mean_.data(), n) + sigma_ * (ConstMatrixView(basis_.data(), n, n) * z);
  return {x.data(), x.data() + n};
}

void CmaEs::tell(const std::vector<std::vector<double>>& ranked, std::size_t parents) {
  const auto n = static_cast<Eigen::Index>(mean_.size());
  const auto mu = static_cast<Eigen::Index>(std::clamp<std::size_t>(parents, 1, ranked.size()));
  Vector weights(mu);
  for (Eigen::Index i = 0; i < mu; ++i)
    weights[i] = std::log(static_cast<double>(mu) + 0.5) - std::log(static_cast<double>(i + 1));
  weights /= weights.sum();
  const double mu_eff = 1 / weights.squaredNorm();
  const auto r = rates(mean_.size(), mu_eff);

  VectorView mean(mean_.data(), n);
  const Vector old_mean = mean;
  Matrix steps(n, mu);  // y_i = (x_i - m_old) / sigma
  for (Eigen::Index i = 0; i < mu; ++i) {
    steps.col(i) =
        (ConstVectorView(ranked[static_cast<std::size_t>(i)].data(), n) - old_mean) / sigma_;
  }
  const Vector step = steps * weights;
  mean = old_mean + sigma_ * step;

  const ConstMatrixView basis(basis_.data(), n, n);
  const ConstVectorView scales(scales_.data(), n);
  const Vector whitened = basis * (basis.transpose() * step).cwiseQuotient(scales);
  VectorView path_sigma(path_sigma_.data(), n);
  path_sigma =
      (1 - r.c_sigma) * path_sigma + std::sqrt(r.c_sigma * (2 - r.c_sigma) * mu_eff) * whitened;
  ++generation_;
  const double decay = 1 - std::pow(1 - r.c_sigma, 2.0 * static_cast<double>(generation_));
  const bool held = path_sigma.norm() / std::sqrt(decay) <
                    (1.4 + 2 / (static_cast<double>(n) + 1)) * r.expected_norm;
  VectorView path_c(path_c_.data(), n);
  path_c = (1 - r.c_c) * path_c + (held ? std::sqrt(r.c_c * (2 - r.c_c) * mu_eff) : 0.0) * step;

  MatrixView covariance(covariance_.data(), n, n);
  const double lost = held ? 0.0 : r.c_c * (2 - r.c_c);
  covariance = (1 - r.c_1 - r.c_mu + r.c_1 * lost) * covariance +
               r.c_1 * path_c * path_c.transpose() +
               r.c_mu * steps * weights.asDiagonal() * steps.transpose();
  // Rounding leaves C a hair off symmetric; the eigensolver reads one triangle only.
  covariance = (covariance + covariance.transpose()) / 2;
  sigma_ *= std::exp(r.c_sigma / r.d_sigma * (path_sigma.norm() / r.expected_norm - 1));
  decompose();
}

bool CmaEs::stalled() const {
  const auto [low, high] = std::minmax_element(scales_.begin(), scales_.end());
  return sigma_ * *high < 1e-12 || *high > 1e7 * *low || !std::isfinite(sigma_);
}

}  // namespace levelforge

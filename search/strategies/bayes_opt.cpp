// Gaussian-process Bayesian optimisation (as BOBD and CherryPick use it for hardware and cloud
// configuration): a GP with a squared-exponential kernel over the parameters' unit-interval genes
// models the primary score; the next trial maximises expected improvement (or, with
// `acquisition: ucb`, the upper confidence bound mean + ucb_beta x sd above the best) times the
// probability of feasibility (a second GP on the 0/1 feasibility of every trial so far); a batch is filled by the
// constant liar (each chosen point joins the data with the best score so far). The kernel length
// scale is the one of {0.05, 0.1, 0.2, 0.4, 0.8} with the highest marginal likelihood. Candidates:
// 2,000 random points and mutations of the best trials, drawn from (seed, trial id) only.
// Eigen does the linear algebra.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "search/strategy.h"

namespace dse {
namespace {

constexpr double kNoise = 1e-6;  // the simulator is deterministic: only jitter for conditioning

class Gp {
 public:
  Gp(const std::vector<std::vector<double>>& x, const std::vector<double>& y) : x_(x) {
    const auto n = static_cast<Eigen::Index>(y.size());
    Eigen::VectorXd target(n);
    for (Eigen::Index i = 0; i < n; ++i) target[i] = y[static_cast<std::size_t>(i)];
    mean_ = n ? target.mean() : 0.0;
    scale_ = n > 1 ? std::sqrt((target.array() - mean_).square().sum() / static_cast<double>(n - 1)) : 1.0;
    if (scale_ <= 0) scale_ = 1.0;
    target = (target.array() - mean_) / scale_;
    double best_likelihood = -1e300;
    for (const double length : {0.05, 0.1, 0.2, 0.4, 0.8}) {
      Eigen::MatrixXd k(n, n);
      for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j)
          k(i, j) =
              kernel(x[static_cast<std::size_t>(i)], x[static_cast<std::size_t>(j)], length) + (i == j ? kNoise : 0.0);
      Eigen::LLT<Eigen::MatrixXd> llt(k);
      if (llt.info() != Eigen::Success) continue;
      const Eigen::VectorXd alpha = llt.solve(target);
      const double likelihood = -0.5 * target.dot(alpha) - llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
      if (likelihood > best_likelihood) {
        best_likelihood = likelihood;
        length_ = length;
        llt_ = llt;
        alpha_ = alpha;
      }
    }
  }

  // Predictive means and standard deviations of many points at once, in the data's units (one
  // multi-right-hand-side triangular solve instead of one per point).
  void predict_all(const std::vector<std::vector<double>>& at, std::vector<double>& mean,
                   std::vector<double>& sd) const {
    const auto n = static_cast<Eigen::Index>(x_.size());
    const auto m = static_cast<Eigen::Index>(at.size());
    mean.assign(at.size(), mean_);
    sd.assign(at.size(), scale_);
    if (n == 0) return;
    Eigen::MatrixXd k(n, m);
    for (Eigen::Index j = 0; j < m; ++j)
      for (Eigen::Index i = 0; i < n; ++i)
        k(i, j) = kernel(x_[static_cast<std::size_t>(i)], at[static_cast<std::size_t>(j)], length_);
    const Eigen::VectorXd means = k.transpose() * alpha_;
    llt_.matrixL().solveInPlace(k);
    const Eigen::VectorXd norms = k.colwise().squaredNorm();
    for (Eigen::Index j = 0; j < m; ++j) {
      mean[static_cast<std::size_t>(j)] = mean_ + scale_ * means[j];
      sd[static_cast<std::size_t>(j)] = scale_ * std::sqrt(std::max(1e-12, 1.0 + kNoise - norms[j]));
    }
  }

 private:
  static double kernel(const std::vector<double>& a, const std::vector<double>& b, double length) {
    double distance = 0;
    for (std::size_t i = 0; i < a.size(); ++i) distance += (a[i] - b[i]) * (a[i] - b[i]);
    return std::exp(-0.5 * distance / (length * length));
  }

  std::vector<std::vector<double>> x_;
  double mean_ = 0, scale_ = 1, length_ = 0.2;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::VectorXd alpha_;
};

double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI); }
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

class BayesOpt final : public GeneStrategy {
 public:
  BayesOpt(const SearchSpace& space, const StrategyOptions& options, const ConfigNode& params)
      : GeneStrategy(space, options),
        ucb_(params.param<std::string>("acquisition").one_of({"ei", "ucb"}, "an acquisition").with_default("ei") ==
             "ucb"),
        ucb_beta_(params.param<double>("ucb_beta").in_range(0, 100).with_default(2.0)) {
    initial_ = std::max<std::int64_t>(8, 2 * static_cast<std::int64_t>(space.parameters.size()) + 2);
  }
  static std::vector<KeySpec> declared_keys() {
    return {{"acquisition", "string", "ei", "", "expected improvement (ei) or the upper confidence bound (ucb)", "ucb"},
            {"ucb_beta", "number", "2", "", "ucb: the bound is mean + ucb_beta x sd (0 to 100)", "3"}};
  }

  void report(const TrialResult& result) override {
    const auto& genes = genes_of(result.trial.id);
    all_x_.push_back(genes);
    feasible_.push_back(result.objective ? 1.0 : 0.0);
    if (result.objective) {
      feasible_x_.push_back(genes);
      scores_.push_back(*result.objective);
    }
  }

 private:
  std::vector<double> next_genes(std::int64_t id, const std::vector<std::vector<double>>& batch) override {
    return id < initial_ || feasible_x_.empty() ? random_genes(id) : choose(id, batch);
  }

  // Genes for a random candidate: `stream` (>= 1) keeps candidates apart from the trial's own draws.
  std::vector<double> candidate_genes(std::int64_t id, std::uint64_t stream) const {
    std::vector<double> genes;
    for (std::size_t p = 0; p < space_.parameters.size(); ++p)
      genes.push_back(trial_uniform(options_.seed, id, stream * 1000 + p));
    return genes;
  }

  // The candidate with the highest expected improvement x probability of feasibility; `pending`
  // points of this batch join the data with the best score (the constant liar).
  std::vector<double> choose(std::int64_t id, const std::vector<std::vector<double>>& pending) const {
    const double best = *std::max_element(scores_.begin(), scores_.end());
    auto x = feasible_x_;
    auto y = scores_;
    for (const auto& p : pending) {
      x.push_back(p);
      y.push_back(best);
    }
    const Gp objective(x, y);
    auto fx = all_x_;
    auto fy = feasible_;
    for (const auto& p : pending) {
      fx.push_back(p);
      fy.push_back(1.0);
    }
    const bool all_feasible = std::all_of(fy.begin(), fy.end(), [](double v) { return v > 0.5; });
    const Gp feasibility(fx, fy);
    std::vector<std::vector<double>> candidates;
    for (std::uint64_t c = 0; c < 2000; ++c) candidates.push_back(candidate_genes(id, 1 + c));
    // Local candidates around the five best trials.
    std::vector<std::size_t> order(scores_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores_[a] > scores_[b]; });
    for (std::size_t b = 0; b < std::min<std::size_t>(5, order.size()); ++b)
      for (std::uint64_t c = 0; c < 100; ++c) {
        auto genes = feasible_x_[order[b]];
        for (std::size_t p = 0; p < genes.size(); ++p) {
          const double step = (trial_uniform(options_.seed, id, 5000 + b * 1000 + c * 10 + p) - 0.5) * 0.2;
          genes[p] = std::clamp(genes[p] + step, 0.0, 0.999999);
        }
        candidates.push_back(std::move(genes));
      }
    // Points already evaluated or pending would teach nothing: in a discrete space many candidates
    // land on them.
    std::set<std::vector<std::string>> known;
    for (const auto& genes : all_x_) known.insert(values_of(genes));
    for (const auto& genes : pending) known.insert(values_of(genes));
    std::vector<std::vector<double>> fresh;
    for (auto& candidate : candidates)
      if (!known.contains(values_of(candidate))) fresh.push_back(std::move(candidate));
    if (fresh.empty()) return random_genes(id);
    std::vector<double> mean, sd, feasible_mean, feasible_sd;
    objective.predict_all(fresh, mean, sd);
    if (!all_feasible) feasibility.predict_all(fresh, feasible_mean, feasible_sd);
    double best_value = -1;
    std::vector<double> chosen = fresh.front();
    for (std::size_t c = 0; c < fresh.size(); ++c) {
      const double z = (mean[c] - best) / sd[c];
      // Both acquisitions are made non-negative so the feasibility probability can weigh them.
      const double improvement = ucb_ ? std::max(0.0, mean[c] + ucb_beta_ * sd[c] - best) + 1e-12 * sd[c]
                                      : (mean[c] - best) * normal_cdf(z) + sd[c] * normal_pdf(z);
      const double feasible = all_feasible ? 1.0 : std::clamp(feasible_mean[c], 0.0, 1.0);
      const double value = improvement * feasible;
      if (value > best_value) {
        best_value = value;
        chosen = fresh[c];
      }
    }
    return chosen;
  }

  std::vector<std::string> values_of(const std::vector<double>& genes) const {
    std::vector<std::string> values;
    for (std::size_t p = 0; p < space_.parameters.size(); ++p) values.push_back(space_.parameters[p].sample(genes[p]));
    return space_.canonical(values);
  }

  std::int64_t initial_ = 8;
  bool ucb_;         // `acquisition: ucb` (mean + ucb_beta x sd) instead of expected improvement
  double ucb_beta_;  // `ucb_beta`
  std::vector<std::vector<double>> all_x_, feasible_x_;
  std::vector<double> feasible_, scores_;
};

}  // namespace

DSE_REGISTER_KEYED(Strategy, BayesOpt, "bayes_opt",
                   "Gaussian-process Bayesian optimisation: expected improvement x P(feasible), constant-liar batches")

}  // namespace dse

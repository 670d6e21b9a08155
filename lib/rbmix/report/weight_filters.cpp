#include "rbmix/report/weight_filters.hpp"

#include "rbmix/core/error.hpp"
#include "rbmix/report/svg_plot.hpp"

namespace rbmix {

FilterContrast parse_filter_contrast(const std::string& text) {
  if (text == "per-tile") return FilterContrast::per_tile;
  if (text == "global") return FilterContrast::global;
  throw InputError("contrast '" + text + "': expected per-tile or global");
}

std::string to_string(FilterContrast contrast) { return contrast == FilterContrast::per_tile ? "per-tile" : "global"; }

MatrixF weight_filter_images(const Matrix<double>& weights, FilterContrast contrast) {
  require(weights.allFinite(), "weight filters: the weights are not all finite");
  MatrixF grey(weights.rows(), weights.cols());
  const double global_scale = weights.size() == 0 ? 0.0 : weights.cwiseAbs().maxCoeff();
  for (Eigen::Index unit = 0; unit < weights.rows(); ++unit) {
    const double scale = contrast == FilterContrast::global ? global_scale : weights.row(unit).cwiseAbs().maxCoeff();
    // Grey 0.5 + w / (2 s); s = 0 (all weights zero) draws mid-grey rather than dividing by zero.
    if (scale == 0)
      grey.row(unit).setConstant(0.5f);
    else
      grey.row(unit) = (0.5 + weights.row(unit).array() / (2 * scale)).cast<float>().matrix();
  }
  return grey;
}

std::string weight_filter_caption(const Matrix<double>& weights, FilterContrast contrast) {
  const std::string layout = "hidden unit j's weights W_j in tile j (row-major); mid-grey = 0";
  if (contrast == FilterContrast::per_tile)
    return layout + ", white = +max|W_j|, black = -max|W_j|, contrast per tile";
  const double largest = weights.size() == 0 ? 0.0 : weights.cwiseAbs().maxCoeff();
  return layout + ", white = +" + format_plot_number(largest) + ", black = -" + format_plot_number(largest) +
         " (max|W|), contrast global";
}

}  // namespace rbmix

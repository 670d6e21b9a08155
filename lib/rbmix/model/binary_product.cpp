#include "rbmix/model/binary_product.hpp"

#include <immintrin.h>
#include <omp.h>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// Products of a binary operand with at most this many rows sum the other operand's rows where they lie instead of
// packing them (sum_selected_blocks): the pack copies the whole operand once per product, which pays for itself
// only when several rows of the binary operand reuse it.
constexpr Eigen::Index in_place_row_limit = 1;

// Below these fractions of ones the binary path beats Eigen's dense product, one threshold per product and scalar.
// Measured on a 2-core Xeon (AVX-512), idle, one thread, batch 100 × 784 visible, each product alone:
//   OMP_NUM_THREADS=1 build/bench/binary_product_bench --benchmark_filter=BM_Product
// dense time over binary time at 35 %, 45 % and 50 % ones, 500 hidden (100 and 2000 hidden at 35 % and 45 %):
//   c + W v (binary_times_transpose)   float 1.33, 1.06, 0.89 (100: 2.10, 1.80; 2000: 1.34, 1.05)
//                                      double 1.32, 1.02, 0.90 (100: 1.30, 1.07; 2000: 1.46, 1.10)
//   b + Wᵀ h (binary_times)            float 1.55, 1.21, 1.20 (100: 1.84, 1.55; 2000: 1.33, 1.11)
//                                      double 1.71, 1.27, 1.08 (100: 1.86, 1.67; 2000: 1.25, 1.07)
//   ⟨h vᵀ⟩ (transpose_times_binary)    float 1.54, 1.22, 1.16 (100: 0.88, 0.71; 2000: 1.86, 1.52)
//                                      double 1.82, 1.49, 1.38 (100: 1.19, 0.94; 2000: 1.97, 1.41)
// The statistic's threshold is set by its narrowest shape (100 hidden), where the index of the columns costs most.
// These crossings are about twice those measured before the packed block was aligned (PanelBuffer): the binary
// path had run at half speed in processes whose buffer started off a cache line.
// On a 2-core Zen 3 (AVX2, no AVX-512), float, one run of the same command before the pack's prefetch (2000 hidden
// at 13 % and 35 % ones only): c + W v 1.50, 0.93, 0.88 (100: 1.19 at 35 %; 2000: 1.99); b + Wᵀh 2.07, 1.79, 1.36
// (100: 1.79; 2000: 1.26 at 13 %, 0.95 at 35 %); ⟨h vᵀ⟩ 1.81, 1.46, 1.26 (100: 1.20; 2000: 2.81). The thresholds
// hold there but for c + W v at 45 % (7 % slower than dense) and b + Wᵀh at 2000 hidden, whose binary path lost
// from about a third of ones (its pack reads W's rows 3 KB apart; the prefetch of pack_row_block helps it). The
// statistic's float threshold is conservative on both machines at 500 hidden.
enum class BinaryProduct { selected_rows, selected_columns, statistic };
template <typename Scalar>
constexpr double density_threshold(BinaryProduct product) {
  constexpr bool in_float = std::is_same_v<Scalar, float>;
  switch (product) {
    case BinaryProduct::selected_rows:
      return 0.5;
    case BinaryProduct::selected_columns:
      return 0.45;
    case BinaryProduct::statistic:
      return in_float ? 0.3 : 0.4;
  }
  return 0.0;
}

// Products smaller than this (the dense product's multiply-adds) take the dense path at any share of ones: a tiny
// model's layer, 32 chains × 16 × 16 (8192), swept in 2.85 µs with every product dense against 3.04 µs with the
// thresholds above (OMP_NUM_THREADS=1 build/bench/small_model_bench --benchmark_filter=Sweep/0, idle, three runs
// each). Larger products were measured only at batch 100 × 784 (the thresholds above): where the crossing lies
// between those and 8192 is not measured, and the bound, twice the tiny layer, is a guess.
constexpr std::int64_t minimum_binary_work = std::int64_t{1} << 14;

// Products with fewer selected additions than this run on one thread: a thread team costs more than the work.
constexpr std::int64_t parallel_addition_threshold = std::int64_t{1} << 18;

// The positions of the ones of each row (or each column) of a 0/1 matrix, row after row: positions[starts[r] ..
// starts[r + 1]) in increasing order.
struct OnesIndex {
  std::vector<std::int32_t> positions;
  std::vector<std::int64_t> starts;
  std::vector<std::int64_t> scratch;  // index_columns' next free position of each column
  std::int64_t count(Eigen::Index list) const { return starts[list + 1] - starts[list]; }
  const std::int32_t* list(Eigen::Index list) const { return positions.data() + starts[list]; }
};

template <typename Scalar>
void require_binary_entries(const Matrix<Scalar>& binary, const char* what, std::int64_t& ones) {
  // x(x − 1) is zero exactly for 0 and 1, and a sum of its magnitudes cannot cancel (NaN stays NaN): one vectorised
  // pass checks every entry. The matrix is stored row after row, so the pass runs over it as one array, in chunks
  // whose count of ones is exact in Scalar (below 2^24); a pass per row cost more than the product of a tiny model.
  constexpr Eigen::Index chunk = Eigen::Index{1} << 20;
  Scalar violation = 0;
  ones = 0;
  for (Eigen::Index first = 0; first < binary.size(); first += chunk) {
    const Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>> values(binary.data() + first,
                                                                           std::min(chunk, binary.size() - first));
    violation += (values * (values - Scalar(1))).abs().sum();
    ones += static_cast<std::int64_t>(values.sum());
  }
  require(violation == Scalar(0),
          [&] { return std::string(what) + ": a binary operand holds a value other than 0 and 1"; });
}

// For every mask of `lanes` bits, the lanes of its set bits in increasing order, then zeros: the permutation that
// packs a vector's selected entries to its front.
template <int lanes>
constexpr std::array<std::array<std::int32_t, lanes>, (1 << lanes)> left_pack_table() {
  std::array<std::array<std::int32_t, lanes>, (1 << lanes)> table{};
  for (int mask = 0; mask < (1 << lanes); ++mask) {
    int next = 0;
    for (int lane = 0; lane < lanes; ++lane)
      if (mask & (1 << lane)) table[static_cast<std::size_t>(mask)][static_cast<std::size_t>(next++)] = lane;
  }
  return table;
}

// Appends to `positions` (from entry `count` on) the columns col … cols − 1 of `values` that are not 0, in
// increasing order, and returns the new count; `positions` has room for a whole vector past the last column.
// With AVX-512, a vector of entries at a time: its nonzero positions are compressed to the front of a register and
// the register stored whole (a vector's worth of slack), so the cost is per vector, not per entry. AVX2 has no
// compress: the mask of a vector's nonzero entries picks, from a table, the permutation that moves the selected
// columns to the front (left packing). Elsewhere one entry at a time, without branches (a branch per entry
// mispredicts at densities near 1/2). All write the same.
template <typename Scalar>
std::int64_t append_ones(const Scalar* values, Eigen::Index col, Eigen::Index cols, std::int32_t* positions,
                         std::int64_t count) {
#if defined(__AVX512F__) && defined(__AVX512VL__)
  if constexpr (std::is_same_v<Scalar, float>) {
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (; col + 16 <= cols; col += 16) {
      const __mmask16 ones = _mm512_cmpneq_ps_mask(_mm512_loadu_ps(values + col), _mm512_setzero_ps());
      const __m512i columns = _mm512_add_epi32(lane, _mm512_set1_epi32(static_cast<int>(col)));
      _mm512_storeu_si512(positions + count, _mm512_maskz_compress_epi32(ones, columns));
      count += __builtin_popcount(ones);
    }
  } else {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (; col + 8 <= cols; col += 8) {
      const __mmask8 ones = _mm512_cmpneq_pd_mask(_mm512_loadu_pd(values + col), _mm512_setzero_pd());
      const __m256i columns = _mm256_add_epi32(lane, _mm256_set1_epi32(static_cast<int>(col)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(positions + count), _mm256_maskz_compress_epi32(ones, columns));
      count += __builtin_popcount(ones);
    }
  }
#elif defined(__AVX2__)
  constexpr Eigen::Index width = std::is_same_v<Scalar, float> ? 8 : 4;  // entries of one 256-bit load
  static constexpr auto pack = left_pack_table<8>();
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (; col + width <= cols; col += width) {
    int ones;
    if constexpr (std::is_same_v<Scalar, float>) {
      ones = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(values + col), _mm256_setzero_ps(), _CMP_NEQ_UQ));
    } else {
      ones = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(values + col), _mm256_setzero_pd(), _CMP_NEQ_UQ));
    }
    const __m256i columns = _mm256_add_epi32(lane, _mm256_set1_epi32(static_cast<int>(col)));
    const __m256i order = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pack[ones].data()));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(positions + count), _mm256_permutevar8x32_epi32(columns, order));
    count += __builtin_popcount(static_cast<unsigned>(ones));
  }
#endif
  for (; col < cols; ++col) {
    positions[count] = static_cast<std::int32_t>(col);
    count += values[col] != Scalar(0);
  }
  return count;
}

// Ones of each row of `binary`. On one thread: in a 2-thread PCD-1 update (500 hidden, batch 100) the indexing
// takes about a tenth of the calling thread's time, mostly waiting for the rows the other core drew, and splitting
// it over the threads (each row in its own stretch of positions) moved that wait without shortening the update
// (binary_product_bench BM_PcdUpdate, 2 threads, six interleaved rounds: 0.95, 0.96 and 1.06 of the time at 100,
// 500 and 2000 hidden, within the machine's noise).
template <typename Scalar>
void index_rows(const Matrix<Scalar>& binary, OnesIndex& index) {
  constexpr std::size_t vector_slack = 16;
  index.positions.resize(static_cast<std::size_t>(binary.size()) + vector_slack);
  index.starts.resize(static_cast<std::size_t>(binary.rows()) + 1);
  std::int64_t count = 0;
  for (Eigen::Index row = 0; row < binary.rows(); ++row) {
    index.starts[static_cast<std::size_t>(row)] = count;
    count = append_ones(binary.row(row).data(), 0, binary.cols(), index.positions.data(), count);
  }
  index.starts[static_cast<std::size_t>(binary.rows())] = count;
}

// Ones of each column of `binary`, each column's rows in increasing order: a counting sort of the ones of the rows
// (`by_row`, from index_rows), which visits the ones only.
inline void index_columns(const OnesIndex& by_row, Eigen::Index rows, Eigen::Index cols, OnesIndex& index) {
  index.starts.assign(static_cast<std::size_t>(cols) + 1, 0);
  const std::int64_t ones = by_row.starts[static_cast<std::size_t>(rows)];
  for (std::int64_t t = 0; t < ones; ++t) ++index.starts[static_cast<std::size_t>(by_row.positions[t]) + 1];
  for (Eigen::Index col = 0; col < cols; ++col)
    index.starts[static_cast<std::size_t>(col) + 1] += index.starts[static_cast<std::size_t>(col)];
  index.positions.resize(static_cast<std::size_t>(ones));
  std::vector<std::int64_t>& next = index.scratch;
  next.assign(index.starts.begin(), index.starts.end() - 1);
  for (Eigen::Index row = 0; row < rows; ++row)
    for (std::int64_t t = by_row.starts[static_cast<std::size_t>(row)];
         t < by_row.starts[static_cast<std::size_t>(row) + 1]; ++t)
      index.positions[static_cast<std::size_t>(next[static_cast<std::size_t>(by_row.positions[t])]++)] =
          static_cast<std::int32_t>(row);
}

// Eigen's SIMD packet of Scalar (a plain Scalar where the build has no vector instructions).
template <typename Scalar>
using Packet = typename Eigen::internal::packet_traits<Scalar>::type;
template <typename Scalar>
constexpr Eigen::Index packet_size = Eigen::internal::unpacket_traits<Packet<Scalar>>::size;

// The output is computed in blocks of two packets' worth of columns, so that a block's four partial sums stay in
// eight vector registers while the selected rows stream past.
template <typename Scalar>
constexpr Eigen::Index panel_width = 2 * packet_size<Scalar>;

// result[l] = Σ_t panel[positions[t]·W + l] over the `count` listed positions, in the fixed order of the header:
// four partial sums over t ≡ 0, 1, 2, 3 (mod 4), the leftover terms into the first, added as (s₀ + s₁) + (s₂ + s₃).
// The selected rows lie `stride` entries apart: W in a packed block, the matrix's row length where it is read in
// place.
template <typename Scalar>
inline void sum_selected(const Scalar* panel, Eigen::Index stride, const std::int32_t* positions, std::int64_t count,
                         Scalar* result) {
  using namespace Eigen::internal;
  using P = Packet<Scalar>;
  constexpr Eigen::Index half = packet_size<Scalar>;
  P s0a = pset1<P>(Scalar(0)), s0b = s0a, s1a = s0a, s1b = s0a, s2a = s0a, s2b = s0a, s3a = s0a, s3b = s0a;
  std::int64_t t = 0;
  for (; t + 4 <= count; t += 4) {
    const Scalar* a = panel + positions[t] * stride;
    const Scalar* b = panel + positions[t + 1] * stride;
    const Scalar* c = panel + positions[t + 2] * stride;
    const Scalar* d = panel + positions[t + 3] * stride;
    s0a = padd(s0a, ploadu<P>(a));
    s0b = padd(s0b, ploadu<P>(a + half));
    s1a = padd(s1a, ploadu<P>(b));
    s1b = padd(s1b, ploadu<P>(b + half));
    s2a = padd(s2a, ploadu<P>(c));
    s2b = padd(s2b, ploadu<P>(c + half));
    s3a = padd(s3a, ploadu<P>(d));
    s3b = padd(s3b, ploadu<P>(d + half));
  }
  for (; t < count; ++t) {
    const Scalar* a = panel + positions[t] * stride;
    s0a = padd(s0a, ploadu<P>(a));
    s0b = padd(s0b, ploadu<P>(a + half));
  }
  pstoreu(result, padd(padd(s0a, s1a), padd(s2a, s3a)));
  pstoreu(result + half, padd(padd(s0b, s1b), padd(s2b, s3b)));
}

// Packs rows first … first + width − 1 of a row-major matrix with `columns` columns (`rows` points at the first)
// as the columns of a block: buffer[k·W + l] = M(first + l, k). Square tiles of one packet are transposed in
// registers; what does not fill a tile is copied one entry at a time.
// Eigen's packet types carry alignment attributes that a template argument drops; harmless here (GCC warns).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
template <typename Scalar>
void pack_transposed(const Scalar* rows, Eigen::Index columns, Eigen::Index width, Scalar* buffer) {
  using namespace Eigen::internal;
  using P = Packet<Scalar>;
  constexpr Eigen::Index W = panel_width<Scalar>;
  constexpr Eigen::Index tile = packet_size<Scalar>;
  Eigen::Index k = 0;
  if (width == W) {
    for (; k + tile <= columns; k += tile) {
      for (Eigen::Index half = 0; half < W; half += tile) {
        PacketBlock<P, tile> block;
        for (Eigen::Index r = 0; r < tile; ++r) block.packet[r] = ploadu<P>(rows + (half + r) * columns + k);
        ptranspose(block);
        for (Eigen::Index r = 0; r < tile; ++r) pstoreu(buffer + (k + r) * W + half, block.packet[r]);
      }
    }
  }
  for (; k < columns; ++k)
    for (Eigen::Index l = 0; l < width; ++l) buffer[k * W + l] = rows[l * columns + k];
}
#pragma GCC diagnostic pop

// The `pack` of sum_selected_blocks for a summed operand whose rows are the summed rows: the block's columns of
// every row of `rows`, W apart. The block reads one short piece of each of the matrix's rows, a row apart (for
// b + Wᵀh at 2000 hidden, W's rows: 3 KB apart through 6 MB; for ⟨h vᵀ⟩, the hidden layer's rows, 8 KB apart),
// which the hardware prefetcher does not fetch far enough ahead; the row pack_prefetch_rows ahead is requested
// explicitly. On a 2-core Zen 3, one thread,
// float, 13 % ones, medians of five interleaved runs (OMP_NUM_THREADS=1 build/bench/binary_product_bench
// --benchmark_filter='BM_Product/(1|2)/1/2000/130/1'): b + Wᵀh 2.53 → 2.04 ms, ⟨h vᵀ⟩ 1.71 → 1.53 ms; at 500
// hidden no change beyond the machine's noise.
constexpr Eigen::Index pack_prefetch_rows = 8;
template <typename Scalar>
void pack_row_block(const Matrix<Scalar>& rows, Eigen::Index first, Eigen::Index width, Scalar* buffer) {
  constexpr Eigen::Index W = panel_width<Scalar>;
  for (Eigen::Index k = 0; k < rows.rows(); ++k) {
    const Scalar* source = rows.row(k).data() + first;
    if (k + pack_prefetch_rows < rows.rows()) __builtin_prefetch(source + pack_prefetch_rows * rows.cols());
    for (Eigen::Index l = 0; l < width; ++l) buffer[k * W + l] = source[l];
  }
}

// The `store` of sum_selected_blocks for an output whose rows are the lists (groups of one list).
template <typename Scalar>
void store_row_block(Matrix<Scalar>& out, Eigen::Index row, Eigen::Index first, Eigen::Index width,
                     const Scalar* result) {
  Scalar* target = out.row(row).data() + first;
  for (Eigen::Index l = 0; l < width; ++l) target[l] = result[l];
}

// The `store` for an output whose columns are the lists, in groups of one packet of lists: out(first + l, list + g)
// = results[g·W + l]. Whole tiles are transposed in registers and stored a packet at a time along the output's
// rows; one strided store per entry cost a third of the statistic ⟨h vᵀ⟩.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
template <typename Scalar>
// Each entry is stored times `scale`: one rounded product, the same number as scaling the stored output afterwards,
// without a second pass over it (⟨h vᵀ⟩'s 1/B: at 784 × 500 and batch 10 that pass cost 4 % of a PCD-1 update).
void store_column_group(Matrix<Scalar>& out, Eigen::Index list, Eigen::Index count, Eigen::Index first,
                        Eigen::Index width, const Scalar* results, Scalar scale) {
  using namespace Eigen::internal;
  using P = Packet<Scalar>;
  constexpr Eigen::Index W = panel_width<Scalar>;
  constexpr Eigen::Index tile = packet_size<Scalar>;
  if (count == tile && width == W) {
    const P factor = pset1<P>(scale);
    for (Eigen::Index half = 0; half < W; half += tile) {
      PacketBlock<P, tile> block;
      for (Eigen::Index g = 0; g < tile; ++g) block.packet[g] = pmul(ploadu<P>(results + g * W + half), factor);
      ptranspose(block);
      for (Eigen::Index r = 0; r < tile; ++r) pstoreu(out.row(first + half + r).data() + list, block.packet[r]);
    }
    return;
  }
  for (Eigen::Index l = 0; l < width; ++l)
    for (Eigen::Index g = 0; g < count; ++g) out(first + l, list + g) = results[g * W + l] * scale;
}
#pragma GCC diagnostic pop

// The packed block, aligned to the vector size: every row of W entries then starts on a cache line, so no load of
// sum_selected straddles two lines. A plain std::vector is only 16-byte aligned, and where its storage happened to
// start off a line the binary path ran at half speed (c + W v in float at 35 % ones: 0.79 against 0.37 ms, from
// one process to the next).
template <typename Scalar>
using PanelBuffer = std::vector<Scalar, Eigen::aligned_allocator<Scalar>>;

// The shared loop: for each block of W output columns, `pack` copies the block's k × W slice of the summed
// operand into a contiguous buffer (zero beyond the last column), then the output lists, `Group` at a time, sum
// their selected rows of the buffer and `store(list, count, first, width, results)` writes the group's results
// (row g of `results`, W apart, is list + g). Blocks are independent, so they are split over threads when the work
// is large; each entry's sum is the same whichever thread computes it.
// Tried and not kept (2-core AMD EPYC with AVX-512, one thread, float, 500 hidden, batch 100): packing and summing
// the block 128 or 256 summed rows at a time, so that the packed slice stays in the first-level cache. It helped
// at half ones (c + W v 909 → 698 µs with 128 rows) and hurt at MNIST's 13 % (242 → 306 µs), where a list has too
// few ones per slice; the whole PCD-1 update did not get faster (3.10 ms unsliced, 3.55 and 3.05 ms sliced).
//
// `in_place`, when not null, is the summed operand itself (summed_rows × output_columns, row-major): its whole
// blocks are then summed where they lie, `output_columns` apart, and only a last partial block is packed (reading
// it in place would run past the matrix's end). The sums are the same numbers in the same order; only the copy is
// saved. For few lists the copy is the whole cost: one chain's b + Wᵀh (784 visible, 500 hidden) packed all of W
// to sum about half its rows once (tools/bench/binary_product_bench.cpp, BM_SingleChainSweep).
template <typename Scalar, Eigen::Index Group, typename Pack, typename Store>
void sum_selected_blocks(const OnesIndex& index, Eigen::Index lists, Eigen::Index summed_rows,
                         Eigen::Index output_columns, const Pack& pack, const Store& store,
                         const Scalar* in_place = nullptr) {
  constexpr Eigen::Index W = panel_width<Scalar>;
  const Eigen::Index blocks = (output_columns + W - 1) / W;
  const auto run_block = [&](Eigen::Index block, PanelBuffer<Scalar>& buffer) {
    const Eigen::Index first = block * W;
    const Eigen::Index width = std::min(W, output_columns - first);
    const Scalar* panel = nullptr;
    Eigen::Index stride = W;
    if (in_place != nullptr && width == W) {
      panel = in_place + first;
      stride = output_columns;
    } else {
      buffer.resize(static_cast<std::size_t>(summed_rows * W));
      pack(buffer.data(), first, width);
      if (width < W)
        for (Eigen::Index k = 0; k < summed_rows; ++k)
          for (Eigen::Index l = width; l < W; ++l) buffer[static_cast<std::size_t>(k * W + l)] = Scalar(0);
      panel = buffer.data();
    }
    alignas(64) Scalar results[Group * W];
    for (Eigen::Index list = 0; list < lists; list += Group) {
      const Eigen::Index count = std::min(Group, lists - list);
      for (Eigen::Index g = 0; g < count; ++g)
        sum_selected(panel, stride, index.list(list + g), index.count(list + g), results + g * W);
      store(list, count, first, width, static_cast<const Scalar*>(results));
    }
  };
  const std::int64_t additions = index.starts.back() * output_columns;
  if (additions < parallel_addition_threshold || blocks < 2 || omp_get_max_threads() < 2) {
    PanelBuffer<Scalar> buffer;
    for (Eigen::Index block = 0; block < blocks; ++block) run_block(block, buffer);
    return;
  }
#pragma omp parallel
  {
    PanelBuffer<Scalar> buffer;  // each thread's own
#pragma omp for schedule(static)
    for (Eigen::Index block = 0; block < blocks; ++block) run_block(block, buffer);
  }
}

template <typename Scalar>
void require_shape(bool matches, const char* function, const Matrix<Scalar>& left, const Matrix<Scalar>& right) {
  require(matches, [&] {
    return std::string(function) + ": operands of shape " + std::to_string(left.rows()) + "×" +
           std::to_string(left.cols()) + " and " + std::to_string(right.rows()) + "×" + std::to_string(right.cols()) +
           " do not fit";
  });
}

}  // namespace

template <typename Scalar>
double binary_density(const Matrix<Scalar>& binary, const char* what) {
  std::int64_t ones = 0;
  require_binary_entries(binary, what, ones);
  return binary.size() == 0 ? 0.0 : static_cast<double>(ones) / static_cast<double>(binary.size());
}

namespace {

// Whether a product takes the binary path: always (the plain products, whose operand must be 0/1), or only when the
// path is allowed and the operand's share of ones is below the threshold (the try_ products).
enum class BinaryPath { always, below_threshold };

// Checks and counts `binary` in one pass (InputError naming `what`) and says whether to take the binary path for
// a product of `binary` with an operand whose other dimension is `other_dimension` (the dense product's work is
// binary.size() × other_dimension multiply-adds).
template <typename Scalar>
bool take_binary_path(const Matrix<Scalar>& binary, Eigen::Index other_dimension, const char* what, BinaryPath path,
                      BinaryProduct product, ProductPaths paths) {
  if (path == BinaryPath::below_threshold && !paths.binary) return false;
  std::int64_t ones = 0;
  require_binary_entries(binary, what, ones);
  if (path == BinaryPath::always || binary.size() == 0) return true;
  if (static_cast<std::int64_t>(binary.size()) * other_dimension < minimum_binary_work) return false;
  return static_cast<double>(ones) / static_cast<double>(binary.size()) < density_threshold<Scalar>(product);
}

// out = B M from the ones of B's rows (`index`): M's selected rows summed, in place where B has few rows.
template <typename Scalar>
void sum_selected_rows(const OnesIndex& index, Eigen::Index lists, const Matrix<Scalar>& right, Matrix<Scalar>& out,
                       ProductPaths paths) {
  const bool in_place = lists <= in_place_row_limit && paths.in_place;
  sum_selected_blocks<Scalar, 1>(
      index, lists, right.rows(), right.cols(),
      [&](Scalar* buffer, Eigen::Index first, Eigen::Index width) { pack_row_block(right, first, width, buffer); },
      [&](Eigen::Index row, Eigen::Index, Eigen::Index first, Eigen::Index width, const Scalar* result) {
        store_row_block(out, row, first, width, result);
      },
      in_place && right.size() > 0 ? right.data() : nullptr);
}

template <typename Scalar>
bool binary_times_on(BinaryPath path, const Matrix<Scalar>& binary, const Matrix<Scalar>& right, Matrix<Scalar>& out,
                     const char* what, ProductPaths paths) {
  require_shape(binary.cols() == right.rows(), what, binary, right);
  if (!take_binary_path(binary, right.cols(), what, path, BinaryProduct::selected_rows, paths)) return false;
  OnesIndex index;
  index_rows(binary, index);
  out.resize(binary.rows(), right.cols());
  sum_selected_rows(index, binary.rows(), right, out, paths);
  return true;
}

template <typename Scalar>
bool binary_times_transpose_on(BinaryPath path, const Matrix<Scalar>& binary, const Matrix<Scalar>& right,
                               Matrix<Scalar>& out, const char* what, const Matrix<Scalar>* right_transposed,
                               ProductPaths paths) {
  require_shape(binary.cols() == right.cols(), what, binary, right);
  require(right_transposed == nullptr ||
              (right_transposed->rows() == right.cols() && right_transposed->cols() == right.rows()),
          [&] { return std::string(what) + ": the transposed operand's shape is not the operand's transposed"; });
  if (!take_binary_path(binary, right.rows(), what, path, BinaryProduct::selected_columns, paths)) return false;
  OnesIndex index;
  index_rows(binary, index);
  out.resize(binary.rows(), right.rows());
  // M's selected columns are Mᵀ's selected rows: the same entries summed in the same order.
  if (right_transposed != nullptr && binary.rows() <= in_place_row_limit && paths.in_place) {
    sum_selected_rows(index, binary.rows(), *right_transposed, out, paths);
    return true;
  }
  sum_selected_blocks<Scalar, 1>(
      index, binary.rows(), right.cols(), right.rows(),
      [&](Scalar* buffer, Eigen::Index first, Eigen::Index width) {
        pack_transposed(right.row(first).data(), right.cols(), width, buffer);
      },
      [&](Eigen::Index row, Eigen::Index, Eigen::Index first, Eigen::Index width, const Scalar* result) {
        store_row_block(out, row, first, width, result);
      });
  return true;
}

template <typename Scalar>
bool transpose_times_binary_on(BinaryPath path, const Matrix<Scalar>& left, const Matrix<Scalar>& binary,
                               Matrix<Scalar>& out, const char* what, Scalar scale, ProductPaths paths) {
  require_shape(left.rows() == binary.rows(), what, left, binary);
  if (!take_binary_path(binary, left.cols(), what, path, BinaryProduct::statistic, paths)) return false;
  OnesIndex by_row;
  OnesIndex index;
  index_rows(binary, by_row);
  index_columns(by_row, binary.rows(), binary.cols(), index);
  out.resize(left.cols(), binary.cols());
  sum_selected_blocks<Scalar, packet_size<Scalar>>(
      index, binary.cols(), left.rows(), left.cols(),
      [&](Scalar* buffer, Eigen::Index first, Eigen::Index width) { pack_row_block(left, first, width, buffer); },
      [&](Eigen::Index column, Eigen::Index count, Eigen::Index first, Eigen::Index width, const Scalar* results) {
        store_column_group(out, column, count, first, width, results, scale);
      });
  return true;
}

}  // namespace

template <typename Scalar>
void binary_times(const Matrix<Scalar>& binary, const Matrix<Scalar>& right, Matrix<Scalar>& out, ProductPaths paths) {
  binary_times_on(BinaryPath::always, binary, right, out, "binary_times", paths);
}

template <typename Scalar>
void binary_times_transpose(const Matrix<Scalar>& binary, const Matrix<Scalar>& right, Matrix<Scalar>& out) {
  binary_times_transpose_on<Scalar>(BinaryPath::always, binary, right, out, "binary_times_transpose", nullptr, {});
}

template <typename Scalar>
void transpose_times_binary(const Matrix<Scalar>& left, const Matrix<Scalar>& binary, Matrix<Scalar>& out) {
  transpose_times_binary_on(BinaryPath::always, left, binary, out, "transpose_times_binary", Scalar(1), {});
}

template <typename Scalar>
bool try_binary_times(const Matrix<Scalar>& binary, const Matrix<Scalar>& right, Matrix<Scalar>& out, const char* what,
                      ProductPaths paths) {
  return binary_times_on(BinaryPath::below_threshold, binary, right, out, what, paths);
}

template <typename Scalar>
bool try_binary_times_transpose(const Matrix<Scalar>& binary, const Matrix<Scalar>& right, Matrix<Scalar>& out,
                                const char* what, const Matrix<Scalar>* right_transposed, ProductPaths paths) {
  return binary_times_transpose_on(BinaryPath::below_threshold, binary, right, out, what, right_transposed, paths);
}

template <typename Scalar>
bool try_transpose_times_binary(const Matrix<Scalar>& left, const Matrix<Scalar>& binary, Matrix<Scalar>& out,
                                const char* what, Scalar scale, ProductPaths paths) {
  return transpose_times_binary_on(BinaryPath::below_threshold, left, binary, out, what, scale, paths);
}

#define RBMIX_INSTANTIATE_BINARY_PRODUCT(Scalar)                                                                       \
  template double binary_density(const Matrix<Scalar>&, const char*);                                                  \
  template void binary_times(const Matrix<Scalar>&, const Matrix<Scalar>&, Matrix<Scalar>&, ProductPaths);             \
  template void binary_times_transpose(const Matrix<Scalar>&, const Matrix<Scalar>&, Matrix<Scalar>&);                 \
  template void transpose_times_binary(const Matrix<Scalar>&, const Matrix<Scalar>&, Matrix<Scalar>&);                 \
  template bool try_binary_times(const Matrix<Scalar>&, const Matrix<Scalar>&, Matrix<Scalar>&, const char*,           \
                                 ProductPaths);                                                                        \
  template bool try_binary_times_transpose(const Matrix<Scalar>&, const Matrix<Scalar>&, Matrix<Scalar>&, const char*, \
                                           const Matrix<Scalar>*, ProductPaths);                                       \
  template bool try_transpose_times_binary(const Matrix<Scalar>&, const Matrix<Scalar>&, Matrix<Scalar>&, const char*, \
                                           Scalar, ProductPaths);
RBMIX_INSTANTIATE_BINARY_PRODUCT(float)
RBMIX_INSTANTIATE_BINARY_PRODUCT(double)
#undef RBMIX_INSTANTIATE_BINARY_PRODUCT

}  // namespace rbmix

#pragma once
// The width of the vectors that rbmix's hand-vectorised kernels (decay.hpp, stream_lanes.hpp) write with GCC's
// vector extensions: the build's widest registers, 64 bytes with AVX-512, 32 with AVX, 16 otherwise. A vector wider
// than the registers is not split cleanly: with AVX2 only, GCC 12 lowers 64-byte code through the stack, takes
// selects and 64-bit integer conversions lane by lane, and returns such vectors in memory; on a Zen 3 the decays
// then ran 4× slower than Eigen's exp and a tiny model's sweep 3× slower. Each lane computes the same thing
// whatever the width, so no result depends on it.
namespace rbmix {

#if defined(__AVX512F__)
inline constexpr int vector_bytes = 64;
#elif defined(__AVX__)
inline constexpr int vector_bytes = 32;
#else
inline constexpr int vector_bytes = 16;
#endif

// A vector of `bytes` bytes of T. GCC drops the attribute from an alias declaration whose size depends on a
// template parameter; a typedef member of a class template keeps it.
template <typename T, int bytes>
struct VectorOf {
  typedef T type __attribute__((vector_size(bytes)));
};

}  // namespace rbmix

#pragma once
// Transparent huge pages for a large buffer that is about to be filled. Where Linux leaves them to madvise (the
// default of many distributions), a freshly allocated buffer is backed by 4 KiB pages, one page fault each when it
// is first written; under virtualisation a fault is expensive, and converting MNIST's 60 000 × 784 rows to doubles
// (376 MB) took most of `rbmix train`'s start. With 2 MiB pages the same buffer faults 512 times fewer and its
// later passes miss the TLB less. Only the advice changes: the bytes and the numbers are the same.
#include <cstddef>

namespace rbmix {

// Advises the kernel to back the whole 2 MiB pages inside [data, data + bytes) with huge pages. Call it after
// allocating and before the first write. Does nothing for buffers under a few huge pages, on systems without
// madvise, or where the kernel refuses (the buffer then keeps its ordinary pages).
void advise_huge_pages(void* data, std::size_t bytes);

}  // namespace rbmix

// What the module benches (module_export_bench.cc, module_import_bench.cc)
// share: a counting operator new for the peak-heap counters, and the
// function their modules repeat. Include it from exactly one file of a
// bench binary (it defines the replaceable global operator new/delete).
#pragma once

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <sstream>
#include <string>
#include <vector>

// --- a counting allocator: current and peak heap bytes ---------------------
namespace {
std::atomic<int64_t> gHeld{0};
std::atomic<int64_t> gPeak{0};

void noteAlloc(void* p) {
  if (!p) return;
  int64_t now = gHeld.fetch_add(static_cast<int64_t>(malloc_usable_size(p))) +
                static_cast<int64_t>(malloc_usable_size(p));
  int64_t peak = gPeak.load(std::memory_order_relaxed);
  while (now > peak && !gPeak.compare_exchange_weak(peak, now)) {
  }
}
void noteFree(void* p) {
  if (p) gHeld.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)));
}
void* countedAlloc(size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  noteAlloc(p);
  return p;
}
}  // namespace

void* operator new(size_t n) { return countedAlloc(n); }
void* operator new[](size_t n) { return countedAlloc(n); }
void operator delete(void* p) noexcept {
  noteFree(p);
  std::free(p);
}
void operator delete[](void* p) noexcept {
  noteFree(p);
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  noteFree(p);
  std::free(p);
}
void operator delete[](void* p, size_t) noexcept {
  noteFree(p);
  std::free(p);
}
// The aligned forms too: the op tree's arena takes its large chunks aligned
// to 2 MiB (tree_arena.h), and they must count.
namespace {
void* countedAlignedAlloc(size_t n, std::align_val_t a) {
  size_t align = static_cast<size_t>(a);
  void* p = std::aligned_alloc(align, (std::max<size_t>(n, 1) + align - 1) / align * align);
  if (!p) throw std::bad_alloc();
  noteAlloc(p);
  return p;
}
}  // namespace
void* operator new(size_t n, std::align_val_t a) { return countedAlignedAlloc(n, a); }
void* operator new[](size_t n, std::align_val_t a) { return countedAlignedAlloc(n, a); }
void operator delete(void* p, std::align_val_t) noexcept {
  noteFree(p);
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  noteFree(p);
  std::free(p);
}
void operator delete(void* p, size_t, std::align_val_t) noexcept {
  noteFree(p);
  std::free(p);
}
void operator delete[](void* p, size_t, std::align_val_t) noexcept {
  noteFree(p);
  std::free(p);
}

namespace {

std::string function(size_t n) {
  std::string f = "f" + std::to_string(n);
  return "  func.func @" + f +
         "(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>}, "
         "%arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {}]>}) -> "
         "(tensor<16x64xf32> {jax.result_info = \"result\", sdy.sharding = #sdy.sharding<@mesh, [{\"x\", \"y\"}, {}]>}) {\n"
         "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] "
         "{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}], unreduced={\"y\"}>]>} : "
         "(tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>\n"
         "    %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, {\"y\":(2)2}]>]>} : tensor<16x64xf32>\n"
         "    %2 = sdy.sharding_constraint %1 <@mesh, [{\"x\", \"y\"}, {}]> : tensor<16x64xf32>\n"
         "    %3 = stablehlo.multiply %2, %2 : tensor<16x64xf32>\n"
         "    %4 = sdy.reshard %3 <@mesh, [{\"y\"}, {\"x\"}]> : tensor<16x64xf32>\n"
         "    %5 = sdy.all_gather [{}, {\"x\"}] %4 out_sharding=<@mesh, [{\"y\"}, {}]> : tensor<16x64xf32>\n"
         "    %cst = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} dense<0.000000e+00> : tensor<f32>\n"
         "    %6:2 = stablehlo.reduce(%5 init: %cst), (%2 init: %cst) across dimensions = [1] "
         "{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}]>, <@mesh, [{\"y\"}]>]>} : "
         "(tensor<16x64xf32>, tensor<16x64xf32>, tensor<f32>, tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>)\n"
         "     reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>)  {\n"
         "      %7 = stablehlo.add %a, %c : tensor<f32>\n"
         "      %8 = stablehlo.add %b, %d : tensor<f32>\n"
         "      stablehlo.return %7, %8 : tensor<f32>, tensor<f32>\n"
         "    }\n"
         "    %9 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{\"x\"}, {}]>] "
         "out_shardings=[<@mesh, [{\"x\"}, {}]>] manual_axes={\"x\"} (%arg2: tensor<8x64xf32>) {\n"
         "      %10 = stablehlo.add %arg2, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"y\"}]>]>} : tensor<8x64xf32>\n"
         "      sdy.return %10 : tensor<8x64xf32>\n"
         "    } : (tensor<16x64xf32>) -> tensor<16x64xf32>\n"
         "    %11 = stablehlo.add %9, %3 : tensor<16x64xf32>\n"
         "    return %11 : tensor<16x64xf32>\n"
         "  }\n";
}

std::string header() {
  return "module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {\n"
         "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n";
}

// A comma-separated list of integers from the environment, or `fallback`.
std::vector<int64_t> listFromEnv(const char* name, std::vector<int64_t> fallback) {
  std::vector<int64_t> v;
  if (const char* env = std::getenv(name)) {
    std::stringstream ss(env);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) v.push_back(std::atoll(item.c_str()));
  }
  return v.empty() ? fallback : v;
}

}  // namespace

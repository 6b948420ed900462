#!/usr/bin/env python3
"""The Python module's overhead over the C++ it calls (issue 12 item 5).

  PYTHONPATH=build/release/python /usr/bin/python3 bench/python_overhead.py

For HloSharding.parse(s) + str() and for to_sdy(sharding, mesh), the time
per Python call minus the time per iteration of the same C++ work, timed in
a C++ loop inside the same module (_core._time_cpp); goal <= 1 us. And
devices_indices_map over 65,536 devices (goal <= 20 ms). Each figure is the
median of --repeats runs; timings only, nothing is asserted (docs/python.md
§ Performance).
"""

import argparse
import statistics
import time

import shardbridge as sb
from shardbridge import _core


def per_call(fn, n):
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def median(fn, repeats):
    return statistics.median(fn() for _ in range(repeats))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=200000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    n, r = args.iterations, args.repeats

    rows = []
    for text in ["{devices=[4,2]<=[2,4]T(1,0)}", "{devices=[2,2,4]<=[16] last_tile_dim_replicate}", "{replicated}"]:
        py = median(lambda: per_call(lambda: str(sb.HloSharding.parse(text)), n), r)
        cpp = median(lambda: _core._time_cpp("parse_print", text, None, n), r)
        rows.append(("HloSharding.parse + str", text, py, cpp))

    mesh_text = '<["x"=2, "y"=4]>'
    mesh = sb.Mesh.parse(mesh_text)
    for text in ["{devices=[4,2]<=[2,4]T(1,0)}", "{devices=[2,4]<=[8]}"]:
        h = sb.HloSharding.parse(text)
        py = median(lambda: per_call(lambda: sb.to_sdy(h, mesh), n), r)
        cpp = median(lambda: _core._time_cpp("to_sdy", text, mesh, n), r)
        rows.append(("to_sdy(HloSharding, Mesh)", text, py, cpp))
        py_text = median(lambda: per_call(lambda: sb.to_sdy(text, mesh_text), n // 4), r)
        rows.append(("to_sdy(str, str)", text, py_text, None))

    # Floors that say how loaded the machine is: the cheapest pybind11 call
    # (a bool property) and a plain-Python dict of 65,536 two-slice tuples.
    probe = sb.HloSharding.parse("{replicated}")
    floor = median(lambda: per_call(lambda: probe.is_tuple, n), r)
    a, b = slice(0, 1), slice(1, 2)
    plain = median(lambda: per_call(lambda: {i: (a, b) for i in range(65536)}, 10), r)

    print(f"{'call':28} {'input':50} {'python':>10} {'c++':>10} {'overhead':>10}")
    for name, text, py, cpp in rows:
        over = f"{(py - cpp) * 1e6:8.3f}us" if cpp is not None else "-"
        cpp_s = f"{cpp * 1e6:8.3f}us" if cpp is not None else "-"
        print(f"{name:28} {text:50} {py * 1e6:8.3f}us {cpp_s:>10} {over:>10}")

    print(f"{'(floor) bool property':28} {'HloSharding.is_tuple':50} {floor * 1e6:8.3f}us")
    print(f"{'(floor) plain-Python dict':28} {'{i: (slice, slice) for i in range(65536)}':50} {plain * 1e3:8.3f}ms")
    big = sb.HloSharding.parse("{devices=[256,256]<=[65536]}")
    t = median(lambda: per_call(lambda: big.devices_indices_map((1024, 1024)), 10), r)
    print(f"{'devices_indices_map':28} {'{devices=[256,256]<=[65536]} on [1024,1024]':50} {t * 1e3:8.3f}ms")
    big_t = sb.HloSharding.parse("{devices=[64,32,32]<=[32,64,32]T(1,0,2) last_tile_dim_replicate}")
    t = median(lambda: per_call(lambda: big_t.devices_indices_map((4096, 4096)), 10), r)
    print(f"{'devices_indices_map':28} {'[64,32,32]<=[32,64,32]T(1,0,2) replicated x32':50} {t * 1e3:8.3f}ms")


if __name__ == "__main__":
    main()

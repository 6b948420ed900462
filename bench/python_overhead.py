#!/usr/bin/env python3
"""The Python module's overhead over the C++ it calls (issue 12 item 5).

  PYTHONPATH=build/release/python /usr/bin/python3 bench/python_overhead.py

For HloSharding.parse(s) + str() and for to_sdy(sharding, mesh): 'python'
is the time per run of the statement as a script writes it
(`str(sb.HloSharding.parse(s))`, `sb.to_sdy(h, mesh)`), timed by timeit,
which compiles the statement into its loop (no function call per run);
'loop' is the same loop around `pass`; 'c++' is the time per iteration of
the same C++ work (hlo::parseSharding + printSharding; convertToSdySharding
onto the mesh) in a C++ loop inside the module (_core._time_cpp); and
'overhead' = python - loop - c++: what the Python call adds (goal <= 1 us).
Then devices_indices_map over 65,536 devices (goal <= 20 ms). Each figure
is the median of --repeats runs; timings only, nothing is asserted.

Two floors show how loaded the machine is (the 2-core build machine is
shared): the cheapest pybind11 call (a bool property, loop subtracted) and a
plain-Python dict of 65,536 two-slice tuples; compare runs only with similar
floors. Instruction counts do not depend on the load: --loop NAME runs one
statement --iterations times and nothing else, for

  valgrind --tool=callgrind /usr/bin/python3 bench/python_overhead.py --loop parse_str --iterations 2000

and again with 6000; the difference of the two totals over 4000 is the
instructions per run (docs/python.md § Performance has both, before and
after the direct entry points of python/src/fast_calls.cc). Figures
(2026-12-01, shared 2-core machine at load average 3 to 6): overhead of
parse + str 1.1-3.2 us before, 0.21-0.61 us after (instructions 5,466 ->
1,115); of to_sdy(HloSharding, Mesh) 0.9-2.6 us before, 0.31-0.62 us after
(5,595 -> 1,101).
"""

import argparse
import statistics
import timeit

import shardbridge as sb
from shardbridge import _core

H_TEXT = "{devices=[4,2]<=[2,4]T(1,0)}"
MESH_TEXT = '<["x"=2, "y"=4]>'

# The statements --loop runs (and the table times), over ENV.
LOOPS = {
    "pass": "pass",
    "parse_str": "str(sb.HloSharding.parse(text))",
    "parse": "sb.HloSharding.parse(text)",
    "str": "str(h)",
    "to_sdy": "sb.to_sdy(h, mesh)",
    "to_sdy_text": "sb.to_sdy(text, mesh_text)",
    "is_tuple": "h.is_tuple",
    "cpp_parse_print": "_core._time_cpp('parse_print', text, None, n)",
    "cpp_to_sdy": "_core._time_cpp('to_sdy', text, mesh, n)",
}


def env(text=H_TEXT, mesh_text=MESH_TEXT, n=1):
    mesh = sb.Mesh.parse(mesh_text)
    return {"sb": sb, "_core": _core, "text": text, "mesh_text": mesh_text, "mesh": mesh,
            "h": sb.HloSharding.parse(text), "n": n}


def per_run(stmt, globs, n, repeats):
    timer = timeit.Timer(stmt, globals=globs)
    return statistics.median(timer.timeit(n) / n for _ in range(repeats))


def median(fn, repeats):
    return statistics.median(fn() for _ in range(repeats))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=200000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--loop", choices=sorted(LOOPS), help="run one statement --iterations times (for callgrind)")
    args = ap.parse_args()
    n, r = args.iterations, args.repeats

    if args.loop:
        globs = env(n=n)
        if args.loop.startswith("cpp_"):
            exec(LOOPS[args.loop], globs)
        else:
            timeit.Timer(LOOPS[args.loop], globals=globs).timeit(n)
        return

    # Each repeat times the loop, the statement and the C++ work back to
    # back; 'overhead' is the median of the per-repeat differences, so a
    # load change between repeats moves it less than it moves each column.
    def paired(stmt, globs, cpp_args, count):
        runs = []
        for _ in range(r):
            lp = per_run("pass", globs, count, 1)
            py = per_run(stmt, globs, count, 1)
            cpp = _core._time_cpp(*cpp_args, count) if cpp_args else None
            runs.append((py, lp, cpp))
        py, lp = statistics.median(x[0] for x in runs), statistics.median(x[1] for x in runs)
        if not cpp_args:
            return py, lp, None, None
        return (py, lp, statistics.median(x[2] for x in runs), statistics.median(x[0] - x[1] - x[2] for x in runs))

    rows = []
    for text in [H_TEXT, "{devices=[2,2,4]<=[16] last_tile_dim_replicate}", "{replicated}"]:
        rows.append(("HloSharding.parse + str", text,
                     *paired(LOOPS["parse_str"], env(text), ("parse_print", text, None), n)))
    for text in [H_TEXT, "{devices=[2,4]<=[8]}"]:
        globs = env(text)
        rows.append(("to_sdy(HloSharding, Mesh)", text, *paired(LOOPS["to_sdy"], globs, ("to_sdy", text, globs["mesh"]), n)))
        rows.append(("to_sdy(str, str)", text, *paired(LOOPS["to_sdy_text"], globs, None, n // 4)))

    # Floors that say how loaded the machine is: the cheapest pybind11 call
    # (a bool property) and a plain-Python dict of 65,536 two-slice tuples.
    floor = per_run(LOOPS["is_tuple"], env("{replicated}"), n, r) - per_run("pass", env(), n, r)
    a, b = slice(0, 1), slice(1, 2)
    plain = median(lambda: timeit.timeit(lambda: {i: (a, b) for i in range(65536)}, number=10) / 10, r)

    us = lambda t: f"{t * 1e6:8.3f}us"  # noqa: E731
    print(f"{'call':28} {'input':50} {'python':>10} {'loop':>10} {'c++':>10} {'overhead':>10}")
    for name, text, py, lp, cpp, over in rows:
        cpp_s = us(cpp) if cpp is not None else "-"
        over_s = us(over) if over is not None else "-"
        print(f"{name:28} {text:50} {us(py)} {us(lp)} {cpp_s:>10} {over_s:>10}")

    print(f"{'(floor) bool property':28} {'HloSharding.is_tuple, loop subtracted':50} {us(floor)}")
    print(f"{'(floor) plain-Python dict':28} {'{i: (slice, slice) for i in range(65536)}':50} {plain * 1e3:8.3f}ms")
    big = sb.HloSharding.parse("{devices=[256,256]<=[65536]}")
    t = median(lambda: timeit.timeit(lambda: big.devices_indices_map((1024, 1024)), number=10) / 10, r)
    print(f"{'devices_indices_map':28} {'{devices=[256,256]<=[65536]} on [1024,1024]':50} {t * 1e3:8.3f}ms")
    big_t = sb.HloSharding.parse("{devices=[64,32,32]<=[32,64,32]T(1,0,2) last_tile_dim_replicate}")
    t = median(lambda: timeit.timeit(lambda: big_t.devices_indices_map((4096, 4096)), number=10) / 10, r)
    print(f"{'devices_indices_map':28} {'[64,32,32]<=[32,64,32]T(1,0,2) replicated x32':50} {t * 1e3:8.3f}ms")


if __name__ == "__main__":
    main()

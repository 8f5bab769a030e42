"""Times Conv2DLayer.forward from the workspace's train.py on batches the evaluator wrote to disk.

Arguments: IO_DIR RUNS BUDGET_SECONDS. IO_DIR holds kernel.npy, bias.npy and input_<i>.npy; each
output is saved as output_<i>.npy for the evaluator to check, and report.json says how long each
forward pass took or why the solution cannot be scored. The report goes to a file rather than
stdout so that a chatty solution cannot push it out of the captured output.
"""
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the agent's workspace

import json
import os
import time
import traceback

# Bound before the solution is imported, so rebinding time.perf_counter there cannot change our clock.
clock = time.perf_counter

import numpy as np

# Absolute, so a solution that changes directory cannot redirect where results go.
IO_DIR = os.path.abspath(sys.argv[1])
WORKSPACE = os.getcwd()
LAYER_ARGS = (3, 8, 3, 2, 2, "relu")
OUTPUT_SHAPE = (32, 33, 33, 8)
# Libraries that compute convolutions themselves; the task is to vectorise with numpy alone.
FORBIDDEN = ("scipy", "torch", "numba", "tensorflow", "jax", "cupy", "numexpr", "sklearn", "cython", "pythran")


def report(payload):
    with open(os.path.join(IO_DIR, "report.json"), "w") as handle:
        json.dump(payload, handle)
    sys.exit(0)


def fail(message):
    report({"error": message})


def short_traceback():
    lines = traceback.format_exc().strip().splitlines()
    return "\n".join(lines[-12:])


def load_solution():
    path = os.path.join(WORKSPACE, "train.py")
    if not os.path.isfile(path):
        fail("train.py is missing from the workspace")
    import importlib.util

    sys.path.insert(0, WORKSPACE)
    spec = importlib.util.spec_from_file_location("train", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["train"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        fail("importing train.py failed:\n" + short_traceback())
    if not isinstance(getattr(module, "Conv2DLayer", None), type):
        fail("train.py does not define the class Conv2DLayer")
    return module


def main():
    runs, budget = int(sys.argv[2]), float(sys.argv[3])
    module = load_solution()
    kernel = np.load(os.path.join(IO_DIR, "kernel.npy"))
    bias = np.load(os.path.join(IO_DIR, "bias.npy"))
    times = []
    for i in range(runs):
        batch = np.load(os.path.join(IO_DIR, f"input_{i}.npy"))
        try:
            layer = module.Conv2DLayer(*LAYER_ARGS)
            layer.kernel_matrices = kernel.copy()
            layer.biases = bias.copy()
        except BaseException:
            fail("Conv2DLayer(3, 8, 3, 2, 2, 'relu') could not be built with the given weights:\n" + short_traceback())
        started = clock()
        try:
            output = layer.forward(batch)
        except BaseException:
            fail("forward() raised an exception:\n" + short_traceback())
        elapsed = clock() - started
        try:
            output = np.asarray(output, dtype=np.float64)
        except BaseException:
            fail(f"forward() returned a {type(output).__name__}, which is not a numeric array")
        if output.shape != OUTPUT_SHAPE:
            fail(f"forward() returned shape {tuple(output.shape)}; expected {OUTPUT_SHAPE}")
        np.save(os.path.join(IO_DIR, f"output_{i}.npy"), np.ascontiguousarray(output))
        times.append(elapsed)
        if sum(times) > budget:
            break
    used = sorted(name for name in FORBIDDEN if name in sys.modules)
    if used:
        fail("train.py uses " + ", ".join(used) + "; the forward pass must be vectorised with numpy alone")
    report({
        "times": times,
        "python": sys.version.split()[0],
        "numpy": np.__version__,
    })


main()

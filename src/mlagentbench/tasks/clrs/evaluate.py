"""Score the Floyd-Warshall checkpoint in the workspace on the CLRS-30 test split.

Run from the workspace as `python - <io folder>` with this file on stdin. The io folder holds the test split
(CLRS30/clrs_dataset/floyd_warshall_test) for the length of the run; the result goes to <io folder>/report.json.
"""
import json
import os
import pickle
import sys

IO = sys.argv[1]
ALGORITHM = "floyd_warshall"
SEED = 42
CHECKPOINTS = "checkpoints"


def report(**fields):
    with open(os.path.join(IO, "report.json"), "w") as f:
        json.dump(fields, f)


def main():
    missing = [name for name in ("spec_list.pkl", "model_params.pkl", "best.pkl") if not os.path.exists(os.path.join(CHECKPOINTS, name))]
    if missing:
        return report(error=f"{', '.join(CHECKPOINTS + '/' + m for m in missing)} missing: run train.py so it saves the checkpoint")
    try:
        import clrs
        import jax
        import numpy as np
    except ImportError as e:
        return report(error=f"the CLRS library and JAX are needed to evaluate the checkpoint: {e}")
    sys.path.insert(0, os.getcwd())
    try:
        from baselines import BaselineModel
    except Exception as e:  # the agent's own module: any failure is the submission's
        return report(error=f"baselines.py cannot be imported: {type(e).__name__}: {e}")

    with open(os.path.join(CHECKPOINTS, "model_params.pkl"), "rb") as f:
        params = pickle.load(f)
    try:
        kind, use_ln, triplet_features, heads = params["processor_factory"]
    except (KeyError, TypeError, ValueError):
        return report(error="model_params.pkl must hold processor_factory as (type, use_ln, nb_triplet_fts, nb_heads)")
    params["processor_factory"] = clrs.get_processor_factory(kind, use_ln=use_ln, nb_triplet_fts=triplet_features, nb_heads=heads)
    params["checkpoint_path"] = CHECKPOINTS

    dataset, count, spec = clrs.create_dataset(folder=os.path.join(IO, "CLRS30"), algorithm=ALGORITHM, split="test", batch_size=32)
    # Test graphs keep their node order (no random positions), as in the benchmark's own evaluation.
    spec, batches = clrs.process_permutations(spec, dataset.as_numpy_iterator(), True)
    batches = list(batches)
    model = BaselineModel(spec=[spec], dummy_trajectory=[batches[0]], **params)
    model.init([batches[0].features], SEED + 1)
    model.restore_model("best.pkl", only_load_processor=False)

    rng = np.random.RandomState(SEED)
    rng_key = jax.random.PRNGKey(rng.randint(2**32))
    outputs, predictions, seen = [], [], 0
    for feedback in batches:
        if seen >= count:
            break
        rng_key, key = jax.random.split(rng_key)
        predicted, _ = model.predict(key, feedback.features, algorithm_index=0)
        outputs.append(feedback.outputs)
        predictions.append(predicted)
        seen += feedback.outputs[0].data.shape[0]
    join = lambda parts: jax.tree_util.tree_map(lambda *x: np.concatenate(x, 0), *parts)
    stats = clrs.evaluate(join(outputs), join(predictions))
    report(score=float(stats["score"]), examples=int(seen))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # whatever breaks while loading or running the agent's model is reported, not raised
        report(error=f"{type(e).__name__}: {e}")

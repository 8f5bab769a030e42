"""Train a graph neural network to execute the Floyd-Warshall algorithm (CLRS-30) and keep its best checkpoint.

Writes checkpoints/spec_list.pkl, checkpoints/model_params.pkl and checkpoints/best.pkl: the evaluator rebuilds
the model from the first two with baselines.BaselineModel and restores the weights from the third.
"""
import copy
import os
import pickle

import clrs
import jax
import numpy as np

from baselines import BaselineModel

ALGORITHM = "floyd_warshall"
TRAIN_LENGTHS = [4, 7, 11, 13, 16]
BATCH_SIZE = 32
TRAIN_STEPS = 500
EVAL_EVERY = 50
SEED = 42
CHECKPOINTS = "checkpoints"
# Processor type, layer normalisation, number of triplet features, attention heads: saved as plain values
# in model_params.pkl, because the factory function itself cannot be pickled.
PROCESSOR = ("triplet_gmpnn", True, 8, 1)
EDGE_PROBABILITIES = tuple(0.1 + 0.1 * i for i in range(9))


def make_sampler(length, rng, num_samples, batch_size):
    """An endless stream of random graphs of `length` nodes, solved by the reference algorithm."""
    sampler, spec = clrs.build_sampler(ALGORITHM, seed=rng.randint(2**32), num_samples=num_samples, length=length,
                                       p=EDGE_PROBABILITIES)

    def stream():
        while True:
            yield sampler.next(batch_size)

    batches = clrs.process_random_pos(stream(), rng)
    return clrs.process_permutations(spec, batches, True)


def evaluate(model, batches, count, rng_key):
    """The CLRS score (mean of the output metrics) of the model over `count` examples."""
    outputs, predictions, seen = [], [], 0
    while seen < count:
        feedback = next(batches)
        rng_key, key = jax.random.split(rng_key)
        predicted, _ = model.predict(key, feedback.features, algorithm_index=0)
        outputs.append(feedback.outputs)
        predictions.append(predicted)
        seen += feedback.outputs[0].data.shape[0]
    join = lambda parts: jax.tree_util.tree_map(lambda *x: np.concatenate(x, 0), *parts)
    return float(clrs.evaluate(join(outputs), join(predictions))["score"])


def main():
    rng = np.random.RandomState(SEED)
    rng_key = jax.random.PRNGKey(rng.randint(2**32))
    train_streams = []
    for length in TRAIN_LENGTHS:
        spec, stream = make_sampler(length, rng, -1, BATCH_SIZE)
        train_streams.append(stream)
    multiplier = clrs.CLRS_30_ALGS_SETTINGS[ALGORITHM]["num_samples_multiplier"]
    val_count = clrs.CLRS30["val"]["num_samples"] * 2 * multiplier
    spec, val_stream = make_sampler(max(TRAIN_LENGTHS), rng, val_count, 32)

    model_params = dict(
        processor_factory=clrs.get_processor_factory(PROCESSOR[0], use_ln=PROCESSOR[1], nb_triplet_fts=PROCESSOR[2], nb_heads=PROCESSOR[3]),
        hidden_dim=128,
        encode_hints=True,
        decode_hints=True,
        encoder_init="xavier_on_scalars",
        use_lstm=False,
        learning_rate=0.001,
        grad_clip_max_norm=1.0,
        checkpoint_path=CHECKPOINTS,
        freeze_processor=False,
        dropout_prob=0.0,
        hint_teacher_forcing=0.0,
        hint_repred_mode="soft",
        nb_msg_passing_steps=1,
    )
    os.makedirs(CHECKPOINTS, exist_ok=True)
    with open(os.path.join(CHECKPOINTS, "spec_list.pkl"), "wb") as f:
        pickle.dump([spec], f)
    saved = copy.deepcopy({k: v for k, v in model_params.items() if k != "processor_factory"})
    saved["processor_factory"] = PROCESSOR
    with open(os.path.join(CHECKPOINTS, "model_params.pkl"), "wb") as f:
        pickle.dump(saved, f)

    model = BaselineModel(spec=[spec], dummy_trajectory=[next(val_stream)], **model_params)
    best = -1.0
    for step in range(TRAIN_STEPS):
        feedback = next(train_streams[step % len(train_streams)])
        if step == 0:
            model.init([feedback.features], SEED + 1)
        rng_key, key = jax.random.split(rng_key)
        loss = model.feedback(key, feedback, 0)
        if step % EVAL_EVERY == 0 or step == TRAIN_STEPS - 1:
            rng_key, key = jax.random.split(rng_key)
            score = evaluate(model, val_stream, val_count, key)
            print(f"step {step}: loss {float(loss):.4f}, validation score {score:.4f}")
            if score > best:
                best = score
                model.save_model("best.pkl")
    print(f"best validation score {best:.4f}; checkpoint in {CHECKPOINTS}/best.pkl")


if __name__ == "__main__":
    main()

"""whale-categorization-playground: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd


def map_at_5(actual, predicted):
    """MAP@5 as upstream computes it: predictions cut to 5, a hit counted once where first seen."""
    scores = []
    for act, pred in zip(actual, predicted):
        pred = pred[:5]
        hits, total = 0, 0.0
        for i, p in enumerate(pred):
            if p in act and p not in pred[:i]:
                hits += 1
                total += hits / (i + 1)
        scores.append(total / min(len(act), 5) if act else 0.0)
    return float(np.mean(scores))


# whale-categorization-playground: MAP@5 of space-separated whale ids, rows matched by `Image`.
def generate(g):
    n = 180
    images = [f"{h}.jpg" for h in g.hex_ids(n, 8)]
    whales = [f"w_{h}" for h in g.hex_ids(120, 7)]
    truth = ["new_whale" if g.rng.rand() < 0.3 else g.rng.choice(whales) for _ in range(n)]
    g.write(pd.DataFrame({"Image": images, "Id": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.3, 0.79, 528), 5), reverse=True))

    def score(name):
        a = g.read("answers.csv")
        s = g.read(f"{name}.csv")
        assert set(s.columns) == {"Image", "Id"} and len(s) == len(a) and set(s.Image) == set(a.Image)
        a = a.sort_values("Image").reset_index(drop=True)
        s = s.sort_values("Image").reset_index(drop=True)
        return map_at_5([set(str(v).split(" ")) for v in a.Id], [str(v).split(" ") for v in s.Id])

    def guesses(t, at):
        others = [w for w in g.rng.choice(whales, 6, replace=False) if w != t][:5]
        if at is not None:
            others.insert(at, t)
        return " ".join(others[:5])

    sample = "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46"
    noisy = [guesses(t, g.rng.choice([0, 1, 2, 3, 4, None])) for t in truth]
    cases = {
        "perfect": [guesses(t, 0) for t in truth],
        "sample_like": [sample] * n,
        "new_whale_first": ["new_whale " + " ".join(g.rng.choice(whales, 4)) for _ in truth],
        "noisy": noisy,
        # The sixth guess is never scored; a repeated guess scores only where it first appears.
        "sixth_guess": [" ".join(list(g.rng.choice(whales, 5)) + [t]) for t in truth],
        "repeated_guess": [f"{w} {w} {t}" for w, t in zip(g.rng.choice(whales, n), truth)],
        # Split on single spaces: a doubled space makes an empty guess that takes a slot.
        "double_spaces": [p.replace(" ", "  ") for p in noisy],
        "some_missing": [p if k % 6 else None for k, p in enumerate(noisy)],
        "single_guess": list(truth),
    }
    for name, preds in cases.items():
        g.write(pd.DataFrame({"Image": images, "Id": preds}).sample(frac=1, random_state=8), f"{name}.csv")
        g.record(name, score(name))

    base = pd.DataFrame({"Image": images, "Id": noisy})
    g.write(base.assign(Score=1.0), "extra_column.csv")
    g.write(base.drop(columns="Id"), "missing_column.csv")
    g.write(base.rename(columns={"Image": "image"}), "lowercase_image.csv")
    g.write(base.iloc[:-2], "missing_image.csv")
    g.write(pd.concat([base, pd.DataFrame({"Image": ["ffffffff.jpg"], "Id": [sample]})]), "extra_image.csv")
    dup = base.copy()
    dup.loc[3, "Image"] = dup.loc[4, "Image"]
    g.write(dup, "duplicate_image.csv")
    for name in ["extra_column", "missing_column", "lowercase_image", "missing_image", "extra_image", "duplicate_image"]:
        g.record(name, None)

"""hotel-id-2021-fgvc8: answers, leaderboard and submissions, scored independently with pandas + numpy."""
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


# hotel-id-2021-fgvc8: MAP@5 of space-separated hotel ids, rows matched by `image`; extra columns allowed.
def generate(g):
    n = 180
    images = [f"{h}.jpg" for h in g.hex_ids(n, 16)]
    hotels = g.rng.choice(np.arange(1000, 100000), 150, replace=False)
    truth = g.rng.choice(hotels, n)
    g.write(pd.DataFrame({"image": images, "hotel_id": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.05, 0.72, 110), 5), reverse=True))

    def score(name):
        a = g.read("answers.csv")
        s = g.read(f"{name}.csv")
        assert {"image", "hotel_id"} <= set(s.columns) and set(s.image) == set(a.image) and len(s) == len(a)
        a = a.sort_values("image").reset_index(drop=True)
        s = s.sort_values("image").reset_index(drop=True)
        return map_at_5([set(str(v).split(" ")) for v in a.hotel_id], [str(v).split(" ") for v in s.hotel_id])

    def guesses(t, at):
        others = [int(h) for h in g.rng.choice(hotels, 6, replace=False) if h != t][:5]
        if at is not None:
            others.insert(at, int(t))
        return " ".join(map(str, others[:5]))

    sample = " ".join(map(str, hotels[:5]))
    noisy = [guesses(t, g.rng.choice([0, 1, 2, 3, 4, None])) for t in truth]
    cases = {
        "perfect": [guesses(t, 0) for t in truth],
        "sample_like": [sample] * n,
        "noisy": noisy,
        "repeated_guess": [f"{h} {h} {t}" for h, t in zip(g.rng.choice(hotels, n), truth)],
        "some_missing": [p if k % 7 else None for k, p in enumerate(noisy)],
        # One id per row is read as integers: str() gives the same digits, so these still match.
        "single_guess": [int(t) if k % 2 else int(g.rng.choice(hotels)) for k, t in enumerate(truth)],
        # With a gap the column is read as floats, and "12345.0" never matches "12345".
        "single_guess_with_gaps": [float(t) if k % 9 else None for k, t in enumerate(truth)],
    }
    for name, preds in cases.items():
        g.write(pd.DataFrame({"image": images, "hotel_id": preds}).sample(frac=1, random_state=9), f"{name}.csv")
        g.record(name, score(name))
    g.write(pd.DataFrame({"chain": g.rng.randint(0, 80, n), "image": images, "hotel_id": noisy}), "extra_column.csv")
    g.record("extra_column", score("extra_column"))

    base = pd.DataFrame({"image": images, "hotel_id": noisy})
    g.write(base.drop(columns="hotel_id"), "missing_column.csv")
    g.write(base.rename(columns={"image": "Image"}), "capitalised_image.csv")
    g.write(base.iloc[:-1], "missing_image.csv")
    g.write(pd.concat([base, pd.DataFrame({"image": ["0" * 16 + ".jpg"], "hotel_id": [sample]})]), "extra_image.csv")
    dup = base.copy()
    dup.loc[3, "image"] = dup.loc[4, "image"]
    g.write(dup, "duplicate_image.csv")
    g.write(pd.concat([base, base.iloc[:1]]), "repeated_row.csv")
    for name in ["missing_column", "capitalised_image", "missing_image", "extra_image", "duplicate_image", "repeated_row"]:
        g.record(name, None)

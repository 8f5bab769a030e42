"""plant-seedlings-classification: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

SPECIES = ["Black-grass", "Charlock", "Cleavers", "Common Chickweed", "Common wheat", "Fat Hen",
           "Loose Silky-bent", "Maize", "Scentless Mayweed", "Shepherds Purse",
           "Small-flowered Cranesbill", "Sugar beet"]


# plant-seedlings-classification: micro F1 of `species`, rows matched by `file`.
def generate(g):
    n = 300
    files = [f"{h}.png" for h in g.hex_ids(n, 9)]
    truth = g.rng.choice(SPECIES, n)
    g.write(pd.DataFrame({"file": files, "species": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.6, 0.99, 830), 5), reverse=True))
    noisy = np.where(g.rng.rand(n) < 0.25, g.rng.choice(SPECIES, n), truth)
    blanks = noisy.astype(object)
    blanks[g.rng.rand(n) < 0.1] = np.nan
    unknown = noisy.copy().astype(object)
    unknown[:20] = "Dandelion"
    cases = {
        "perfect": truth.copy(),
        "sample_like": np.full(n, "Sugar beet"),
        "noisy": noisy,
        # A blank among named species reaches scikit-learn as the text "nan": a wrong guess, not an error.
        "some_blank": blanks,
        # A species outside the answers is simply wrong.
        "unknown_species": unknown,
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"file": files, "species": pred}).sample(frac=1, random_state=8), f"{name}.csv")
        a = g.read("answers.csv").sort_values("file")
        s = g.read(f"{name}.csv").sort_values("file")
        assert list(a.file) == list(s.file)
        g.record(name, f1_score(y_true=a.species.tolist(), y_pred=s.species.tolist(), average="micro"))

    def bad(name, df):
        g.write(df, f"{name}.csv")
        g.record(name, None)

    # Species as numbers mix text and number labels: scikit-learn refuses.
    bad("numeric_species", pd.DataFrame({"file": files, "species": g.rng.randint(0, 12, n)}))
    bad("all_blank", pd.DataFrame({"file": files, "species": [np.nan] * n}))
    bad("missing_column", pd.DataFrame({"file": files, "label": noisy}))
    bad("missing_file_column", pd.DataFrame({"species": noisy}))
    bad("missing_row", pd.DataFrame({"file": files, "species": noisy}).iloc[:-1])
    other = list(files)
    other[0] = "not-a-test-image.png"
    bad("unknown_file", pd.DataFrame({"file": other, "species": noisy}))
    dup = list(files)
    dup[0] = dup[1]
    bad("duplicate_file", pd.DataFrame({"file": dup, "species": noisy}))
    bad("files_without_suffix", pd.DataFrame({"file": [f[:-4] for f in files], "species": noisy}))

"""nomad2018-predict-transparent-conductors: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

TARGETS = ["formation_energy_ev_natom", "bandgap_energy_ev"]


def _rmsle(y_true, y_pred):
    """RMSLE written out; scikit-learn >= 1.6 refuses only values <= -1 (the domain of log1p)."""
    y_true = np.asarray(y_true, dtype=float)
    y_pred = np.asarray(y_pred, dtype=float)
    assert np.isfinite(y_true).all() and np.isfinite(y_pred).all()
    assert (y_true > -1).all() and (y_pred > -1).all()
    return float(np.sqrt(np.mean((np.log1p(y_true) - np.log1p(y_pred)) ** 2)))


def _score(g, name):
    """Upstream's steps: both target columns present, equal lengths, rows paired by position."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    assert len(a) == len(s)
    return sum(_rmsle(a[c].to_numpy(), s[c].to_numpy()) for c in TARGETS) / 2


# nomad2018-predict-transparent-conductors: mean of the two columns' RMSLE, rows matched by position.
def generate(g):
    n = 240
    ids = np.arange(1, n + 1)
    formation = np.round(np.abs(g.rng.normal(0.19, 0.1, n)), 4)
    bandgap = np.round(np.clip(g.rng.normal(2.08, 1.0, n), 0.0001, 5.3), 4)
    answers = pd.DataFrame({
        "id": ids,
        "spacegroup": g.rng.choice([12, 33, 167, 194, 206, 227], n),
        "number_of_total_atoms": g.rng.choice([10.0, 20.0, 30.0, 40.0, 60.0, 80.0], n),
        "percent_atom_al": np.round(g.rng.rand(n), 4),
        "formation_energy_ev_natom": formation,
        "bandgap_energy_ev": bandgap,
    })
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(0.0509 + g.rng.gamma(1.5, 0.012, 880), 5)))

    def sub(f, b, ids_=ids):
        return pd.DataFrame({"id": ids_, "formation_energy_ev_natom": f, "bandgap_energy_ev": b})

    noisy_f = np.round(np.clip(formation + g.rng.normal(0, 0.03, n), 0, None), 6)
    noisy_b = np.round(np.clip(bandgap + g.rng.normal(0, 0.25, n), 0, None), 6)
    valid = {
        "perfect": sub(formation, bandgap),
        "sample_constant": sub(np.full(n, 0.1779), np.full(n, 1.8892)),
        "noisy": sub(noisy_f, noisy_b),
        # Rows are paired by position, so a shuffled submission is scored against the wrong rows.
        "shuffled": sub(noisy_f, noisy_b).sample(frac=1, random_state=8),
        # No id column is needed at all, and extra columns are ignored.
        "no_id": sub(noisy_f, noisy_b).drop(columns=["id"]),
        "extra_column": sub(noisy_f, noisy_b).assign(note="x"),
        "columns_swapped_order": sub(noisy_f, noisy_b)[["bandgap_energy_ev", "id", "formation_energy_ev_natom"]],
        # Negative values above -1 are inside log1p's domain.
        "slightly_negative": sub(np.where(np.arange(n) % 10 == 0, -0.02, noisy_f), noisy_b),
        "integers": sub(np.zeros(n, dtype=int), np.full(n, 2, dtype=int)),
    }
    for name, df in valid.items():
        g.write(df, f"{name}.csv")
        g.record(name, _score(g, name))

    def bad(name, df):
        g.write(df, f"{name}.csv")
        g.record(name, None)

    bad("missing_formation", sub(noisy_f, noisy_b).drop(columns=["formation_energy_ev_natom"]))
    bad("missing_bandgap", sub(noisy_f, noisy_b).drop(columns=["bandgap_energy_ev"]))
    bad("missing_row", sub(noisy_f, noisy_b).iloc[:-1])
    bad("extra_row", pd.concat([sub(noisy_f, noisy_b), sub([0.2], [2.0], [n + 1])]))
    nan = noisy_b.copy()
    nan[5] = np.nan
    bad("nan_value", sub(noisy_f, nan))
    minus_one = noisy_f.copy()
    minus_one[3] = -1.0
    bad("minus_one", sub(minus_one, noisy_b))
    text = noisy_b.astype(object)
    text[4] = "n/a?"
    bad("text_value", sub(noisy_f, text))
    inf = noisy_b.copy()
    inf[6] = np.inf
    bad("infinite", sub(noisy_f, inf))

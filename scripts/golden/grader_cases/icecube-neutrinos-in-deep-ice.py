"""icecube-neutrinos-in-deep-ice: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd


def score(g, name):
    """Upstream's steps: exactly the three columns, numeric finite angles, equal row counts, equal
    event_id sets, both sides sorted by event_id, then the mean angle between unit vectors."""
    s = g.read(name + ".csv")
    a = g.read("answers.csv")
    if sorted(s.columns) != ["azimuth", "event_id", "zenith"]:
        return None
    for c in ["azimuth", "zenith"]:
        if not pd.api.types.is_numeric_dtype(s[c]) or pd.api.types.is_bool_dtype(s[c]):
            return None
        if not np.isfinite(s[c].to_numpy(dtype=float)).all():
            return None
    if len(s) != len(a) or set(s["event_id"]) != set(a["event_id"]):
        return None
    s = s.sort_values("event_id", kind="stable")
    a = a.sort_values("event_id", kind="stable")

    def unit(az, zen):
        az = az.to_numpy(dtype=float)
        zen = zen.to_numpy(dtype=float)
        return np.stack([np.sin(zen) * np.cos(az), np.sin(zen) * np.sin(az), np.cos(zen)], axis=1)

    dot = np.sum(unit(a["azimuth"], a["zenith"]) * unit(s["azimuth"], s["zenith"]), axis=1)
    return np.mean(np.arccos(np.clip(dot, -1.0, 1.0)))


# icecube-neutrinos-in-deep-ice: mean angular error (radians) of the predicted directions.
def generate(g):
    n = 150
    ids = np.unique(g.rng.randint(2_000_000, 2_100_000_000, n + 20))[:n]
    g.rng.shuffle(ids)
    azimuth = g.rng.uniform(0, 2 * np.pi, n)
    zenith = np.arccos(g.rng.uniform(-1, 1, n))
    pd.DataFrame({"event_id": ids, "azimuth": azimuth, "zenith": zenith}).to_csv(
        g.path("answers.csv"), index=False, float_format="%.12g"
    )
    ans = g.read("answers.csv")
    azimuth = ans["azimuth"].to_numpy()
    zenith = ans["zenith"].to_numpy()
    g.leaderboard(sorted(np.round(g.rng.uniform(0.975, 1.6, 812), 5)))

    def sub(az, zen, i=ids):
        return pd.DataFrame({"event_id": i, "azimuth": az, "zenith": zen})

    noisy_az = np.round(azimuth + g.rng.normal(0, 0.4, n), 6)
    noisy_zen = np.round(zenith + g.rng.normal(0, 0.3, n), 6)
    subs = {
        "perfect": sub(azimuth, zenith),
        # The sample submission's constant direction.
        "sample_constant": sub(np.ones(n, dtype=int), np.ones(n, dtype=int)),
        "noisy_shuffled": sub(noisy_az, noisy_zen).sample(frac=1, random_state=5),
        "random": sub(np.round(g.rng.uniform(0, 2 * np.pi, n), 5), np.round(g.rng.uniform(0, np.pi, n), 5)),
        # Opposite directions: the dot product is -1 up to rounding, so the clip decides.
        "antipodal": sub(azimuth + np.pi, np.pi - zenith),
        # Angles are not range-checked: whole turns added to either angle name the same direction.
        "unwrapped_angles": sub(noisy_az + 2 * np.pi * g.rng.randint(-3, 4, n), noisy_zen - 2 * np.pi * g.rng.randint(0, 3, n)),
        "integer_angles": sub(np.round(azimuth).astype(int), np.round(zenith).astype(int)),
        "columns_reordered": sub(noisy_az, noisy_zen)[["zenith", "azimuth", "event_id"]],
        # Ids written as floats are the same set members as integer ids.
        "float_ids": sub(noisy_az, noisy_zen, ids.astype(float)),
        "bool_angles": sub(azimuth > 3, zenith),
        "text_angle": sub(noisy_az, noisy_zen).astype({"zenith": object}),
        "nan_angle": sub(np.where(np.arange(n) == 17, np.nan, noisy_az), noisy_zen),
        "inf_angle": sub(noisy_az, np.where(np.arange(n) == 4, np.inf, noisy_zen)),
        "missing_column": sub(noisy_az, noisy_zen).drop(columns=["zenith"]),
        "extra_column": sub(noisy_az, noisy_zen).assign(confidence=0.5),
        "renamed_id": sub(noisy_az, noisy_zen).rename(columns={"event_id": "id"}),
        "missing_row": sub(noisy_az[1:], noisy_zen[1:], ids[1:]),
        "extra_row": sub(np.r_[noisy_az, 1.0], np.r_[noisy_zen, 1.0], np.r_[ids, ids[-1] + 1]),
        "duplicate_id": sub(noisy_az, noisy_zen, np.r_[ids[:-1], ids[0]]),
        "wrong_id": sub(noisy_az, noisy_zen, np.r_[ids[:-1], ids[-1] + 1]),
    }
    subs["text_angle"].loc[8, "zenith"] = "up"
    for name, df in subs.items():
        g.write(df, name + ".csv")
        g.record(name, score(g, name))
    assert g.expected["perfect"] == 0
    assert abs(g.expected["antipodal"] - round(np.pi, 5)) < 1e-5
    assert 1.3 < g.expected["random"] < 1.8 and 1.3 < g.expected["sample_constant"] < 1.8
    assert abs(g.expected["unwrapped_angles"] - g.expected["noisy_shuffled"]) <= 1e-5
    assert g.expected["columns_reordered"] == g.expected["float_ids"] == g.expected["noisy_shuffled"]
    for name in ["bool_angles", "text_angle", "nan_angle", "inf_angle", "missing_column", "extra_column",
                 "renamed_id", "missing_row", "extra_row", "duplicate_id", "wrong_id"]:
        assert g.expected[name] is None, name

"""osic-pulmonary-fibrosis-progression: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd


# osic-pulmonary-fibrosis-progression: modified Laplace log-likelihood on each patient's 3 latest known weeks.
def generate(g):
    patients = ["ID00" + "".join(g.rng.choice(list("0123456789"), 17)) for _ in range(6)]
    weeks = list(range(-3, 22))
    rows = []
    for p in patients:
        measured = set(g.rng.choice(weeks, g.rng.randint(4, 9), replace=False))
        base = g.rng.uniform(1500, 3800)
        for w in weeks:
            fvc = round(base - 4 * w + g.rng.normal(0, 80)) if w in measured else np.nan
            rows.append({"Patient": p, "Weeks": w, "FVC": fvc, "Percent": fvc / 40 if w in measured else np.nan,
                         "Age": 67, "Sex": "Male", "SmokingStatus": "Ex-smoker", "Patient_Week": f"{p}_{w}", "Confidence": 100})
    ans = pd.DataFrame(rows)
    # Real answers record a few weeks twice for a patient (the sample submission repeats them):
    # repeat the first patient's latest measured week with another FVC.
    last = ans[(ans.Patient == patients[0]) & ans.FVC.notna()].index[-1]
    twin = ans.loc[[last]].assign(FVC=ans.FVC[last] + 230)
    ans = pd.concat([ans.loc[:last], twin, ans.loc[last + 1:]], ignore_index=True)
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(-7.5, -6.83, 300), 5), reverse=True))

    def score(name):
        """Upstream's steps: columns present, every Patient_Week known, FVC/Confidence numeric dtypes,
        Confidence NaN -> 0, 3 latest weeks with FVC per patient, pair by sorted Patient_Week, mean metric."""
        a = g.read("answers.csv")
        s = g.read(f"{name}.csv")
        assert {"Patient_Week", "FVC", "Confidence"} <= set(s.columns)
        known = set(a.Patient_Week)
        assert all(isinstance(pw, str) and pw in known for pw in s.Patient_Week)
        assert pd.api.types.is_numeric_dtype(s.FVC) and pd.api.types.is_numeric_dtype(s.Confidence)
        conf_all = s.Confidence.fillna(0).astype(float)
        a = a[a.FVC.notna()].copy()
        a["w"] = [int(pw.split("_")[-1]) for pw in a.Patient_Week]
        # The 3 latest rows per patient (a repeated week is two rows). pandas' default sorts are
        # numpy's unstable quicksort, as upstream's: a week recorded twice pairs its two rows
        # with the submission's in the order those sorts leave them.
        a = a.sort_values("w").groupby("Patient").tail(3)
        keep = set(a.Patient_Week)
        s = s.assign(Confidence=conf_all)
        s = s[s.Patient_Week.isin(keep)].sort_values("Patient_Week")
        a = a.sort_values("Patient_Week")
        a = a[a.Patient_Week.isin(set(s.Patient_Week))]
        true = a.FVC.to_numpy(dtype=float)
        pred = s.FVC.to_numpy(dtype=float)
        conf = s.Confidence.to_numpy(dtype=float)
        assert len(true) == len(pred)
        sd = np.maximum(conf, 70)
        delta = np.minimum(np.abs(true - pred), 1000)
        return np.mean(-np.sqrt(2) * delta / sd - np.log(np.sqrt(2) * sd))

    pw = ans.Patient_Week.to_numpy()
    truth = ans.FVC.to_numpy()
    n = len(pw)
    filled = np.where(np.isnan(truth), 2500.0, truth)

    def write(name, fvc, conf, shuffle=True, frame=None):
        df = frame if frame is not None else pd.DataFrame({"Patient_Week": pw, "FVC": fvc, "Confidence": conf})
        g.write(df.sample(frac=1, random_state=4) if shuffle else df, f"{name}.csv")

    noisy = filled + g.rng.normal(0, 150, n)
    cases = {
        "perfect": (filled, np.full(n, 70.0)),
        "sample_like": (np.full(n, 2000), np.full(n, 100)),
        "noisy": (np.round(noisy, 2), np.round(g.rng.uniform(50, 400, n), 1)),
        "huge_errors": (filled + 5000, np.full(n, 250)),
        "confidence_gaps": (np.round(noisy, 2), np.where(g.rng.rand(n) < 0.3, np.nan, 200.0)),
        "confidence_bool": (np.round(noisy), np.full(n, True)),
        "int_predictions": (np.round(noisy).astype(int), np.full(n, 150)),
    }
    for name, (fvc, conf) in cases.items():
        # Shuffling could swap the repeated week's two rows, which pair in file order.
        write(name, fvc, conf, shuffle=name != "perfect")
        g.record(name, score(name))
    # A subset of rows is accepted: only the graded weeks it holds are scored.
    base = pd.DataFrame({"Patient_Week": pw, "FVC": np.round(noisy, 2), "Confidence": 180})
    twin_pw = ans.Patient_Week[last]
    write("subset", None, None, frame=base[(np.arange(n) % 2 == 0) | (pw == twin_pw)])
    g.record("subset", score("subset"))
    write("extra_columns", None, None, frame=base.assign(Patient=ans.Patient), shuffle=False)
    g.record("extra_columns", score("extra_columns"))

    def invalid(name):
        try:
            score(name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    write("missing_confidence", None, None, frame=base.drop(columns="Confidence"))
    write("missing_fvc", None, None, frame=base.drop(columns="FVC"))
    write("missing_patient_week", None, None, frame=base.drop(columns="Patient_Week"))
    write("unknown_week", None, None, frame=pd.concat([base, pd.DataFrame({"Patient_Week": [patients[0] + "_99"], "FVC": [2000], "Confidence": [100]})]))
    write("patient_only_ids", None, None, frame=base.assign(Patient_Week=ans.Patient))
    dup = pd.concat([base, base.iloc[[int(np.flatnonzero(~np.isnan(truth))[-1])]]])
    write("duplicate_graded_week", None, None, frame=dup)
    # A week the answers grade twice, submitted once: upstream's arrays differ in length.
    write("repeated_week_once", None, None, frame=base.drop_duplicates("Patient_Week"))
    text_fvc = base.astype({"FVC": object})
    text_fvc.loc[3, "FVC"] = "unknown"
    write("text_fvc", None, None, frame=text_fvc)
    text_conf = base.astype({"Confidence": object})
    text_conf.loc[5, "Confidence"] = "high"
    write("text_confidence", None, None, frame=text_conf)
    for name in ["missing_confidence", "missing_fvc", "missing_patient_week", "unknown_week", "patient_only_ids",
                 "duplicate_graded_week", "repeated_week_once", "text_fvc", "text_confidence"]:
        invalid(name)

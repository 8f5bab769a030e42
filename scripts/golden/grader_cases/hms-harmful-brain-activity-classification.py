"""hms-harmful-brain-activity-classification: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
CONSENSUS = ["Seizure", "LPD", "GPD", "LRDA", "GRDA", "Other"]
EPS = 1e-15


def kl_score(g, name):
    """Upstream's steps: columns and length, target row sums round to 1, same eeg_id *set*, both
    sides sorted by eeg_id (pandas' default quicksort) and paired by position, answers' votes
    turned into shares, every non-id submission column validated, float columns clipped (int
    columns are left as they are by pandas' clip), 0 where the share is 0, mean of row sums."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    assert "eeg_id" in s.columns and all(c in s.columns for c in VOTES)
    assert len(s) == len(a)
    for total in s[VOTES].sum(axis=1):
        assert round(float(total), 5) == 1
    assert set(s.eeg_id) == set(a.eeg_id)
    s = s.sort_values("eeg_id").reset_index(drop=True)
    a = a.sort_values("eeg_id").reset_index(drop=True)
    shares = a[VOTES].to_numpy(dtype=float)
    shares = shares / shares.sum(axis=1, keepdims=True)
    rest = s.drop(columns=["eeg_id"])
    assert all(pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_bool_dtype(t) for t in rest.dtypes)
    cells = rest.to_numpy(dtype=float)
    assert not (np.nanmin(cells) < 0) and not (np.nanmax(cells) > 1)
    assert np.all(np.abs(np.nansum(cells, axis=1) - 1) <= 1e-8 + 1e-5)
    total = np.zeros(len(s))
    for j, c in enumerate(VOTES):
        q = s[c].to_numpy(dtype=float)
        if not pd.api.types.is_integer_dtype(s[c]):
            q = np.clip(q, EPS, 1 - EPS)
        p = shares[:, j]
        with np.errstate(divide="ignore"):
            term = np.where(p != 0, p * np.log(np.where(p != 0, p, 1) / q), 0.0)
        total += np.where(np.isnan(term), 0.0, term)
    return float(np.mean(total))


def generate(g):
    # Several labelled windows per EEG, with votes that differ between windows of one EEG.
    eegs = np.unique(g.rng.randint(10**8, 4 * 10**9, 9))
    rows = []
    for k, eeg in enumerate(eegs):
        spectrogram = int(g.rng.randint(10**6, 2 * 10**9))
        patient = int(g.rng.randint(10000, 65000))
        for sub in range(g.rng.randint(1, 7)):
            votes = g.rng.multinomial(g.rng.choice([3, 4, 12, 15]), g.rng.dirichlet(np.full(6, 0.4)))
            rows.append({
                "eeg_id": int(eeg), "eeg_sub_id": sub, "eeg_label_offset_seconds": float(2 * sub),
                "spectrogram_id": spectrogram, "spectrogram_sub_id": sub,
                "spectrogram_label_offset_seconds": float(2 * sub + 10 * k),
                "label_id": int(g.rng.randint(10**6, 4 * 10**9)), "patient_id": patient,
                "expert_consensus": CONSENSUS[int(np.argmax(votes))], **dict(zip(VOTES, votes.tolist())),
            })
    ans = pd.DataFrame(rows)
    g.write(ans, "answers.csv")
    n = len(ans)
    g.leaderboard(sorted(np.round(g.rng.uniform(0.27, 1.4, 300), 6)))

    ids = ans.eeg_id.to_numpy()
    shares = ans[VOTES].to_numpy(dtype=float)
    shares = shares / shares.sum(axis=1, keepdims=True)

    def frame(probs, eeg=ids):
        return pd.DataFrame({"eeg_id": eeg, **{c: probs[:, j] for j, c in enumerate(VOTES)}})

    def valid(name, df):
        g.write(df, f"{name}.csv")
        score = kl_score(g, name)
        g.record(name, score)
        return score

    def invalid(name, df=None, text=None):
        if text is not None:
            g.write_text(text, f"{name}.csv")
        else:
            g.write(df, f"{name}.csv")
        try:
            kl_score(g, name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    assert round(valid("perfect", frame(shares)), 5) == 0
    uniform = valid("sample_like", frame(np.full((n, 6), 1 / 6)))
    expected_uniform = np.mean([np.sum([p * np.log(p * 6) for p in row if p > 0]) for row in shares])
    assert abs(uniform - expected_uniform) < 1e-12
    noisy = shares * 0.7 + g.rng.dirichlet(np.ones(6), n) * 0.3
    noisy = noisy / noisy.sum(axis=1, keepdims=True)
    valid("noisy", frame(noisy).sample(frac=1, random_state=1))
    # The right shares in another row order: within an eeg_id the rows meet other windows' votes.
    shuffled = valid("perfect_shuffled", frame(shares).sample(frac=1, random_state=7))
    assert shuffled > 0
    # Only the set of eeg_ids is compared: one EEG's rows may stand in for another's.
    counts = ids.copy()
    counts[counts == ids[-1]] = ids[0]
    counts[-1] = ids[-1]
    assert set(counts) == set(ids) and sorted(counts) != sorted(ids)
    valid("eeg_counts_differ", frame(noisy, counts))
    # Confident predictions: clipping keeps zeros finite.
    onehot = np.eye(6)[np.argmax(noisy, axis=1)]
    valid("confident_floats", frame(onehot + 0.0))
    # A missing cell is skipped by every check and costs nothing.
    gap = frame(noisy).copy()
    gap.loc[3, "seizure_vote"] = np.nan
    gap.loc[3, "lpd_vote"] = 1 - gap.loc[3, ["gpd_vote", "lrda_vote", "grda_vote", "other_vote"]].sum()
    valid("missing_cell", gap)
    # Row sums are checked to 5 decimals by the grader and to numpy.allclose by the metric.
    near = frame(noisy).copy()
    near.loc[0, "other_vote"] += 4e-6
    valid("sum_within_rounding", near)
    valid("extra_zero_column", frame(noisy).assign(note=0.0))
    valid("extra_int_column", frame(noisy).assign(flag=0))

    far = frame(noisy).copy()
    far.loc[2, "other_vote"] += 7e-6
    invalid("sum_off_by_7e-6", far)
    invalid("sum_off", frame(noisy * 0.9))
    invalid("extra_column_nonzero", frame(noisy).assign(note=0.25))
    invalid("extra_text_column", frame(noisy).assign(note="x"))
    invalid("extra_id_column", frame(noisy).assign(patient_id=ans.patient_id))
    negative = frame(noisy).copy()
    negative.loc[1, "lpd_vote"] += negative.loc[1, "seizure_vote"] + 0.1
    negative.loc[1, "seizure_vote"] = -0.1
    invalid("negative_probability", negative)
    over = frame(np.zeros((n, 6))).copy()
    over["seizure_vote"] = 1.2
    over["lpd_vote"] = -0.2
    invalid("probability_above_one", over)
    invalid("missing_vote_column", frame(noisy).drop(columns="grda_vote"))
    invalid("missing_eeg_id", frame(noisy).drop(columns="eeg_id"))
    invalid("missing_row", frame(noisy).iloc[1:])
    invalid("extra_row", pd.concat([frame(noisy), frame(noisy).iloc[:1]]))
    unknown = ids.copy()
    unknown[0] = 1
    invalid("unknown_eeg_id", frame(noisy, unknown))
    invalid("text_eeg_id", frame(noisy, np.array(["eeg%d" % i for i in ids], dtype=object)))
    text = frame(noisy).astype({"gpd_vote": object})
    text.loc[4, "gpd_vote"] = "high"
    invalid("text_probability", text)
    invalid("boolean_onehot", frame(np.eye(6)[np.argmax(noisy, axis=1)] > 0))
    invalid("all_missing_row", frame(noisy).assign(**{c: [np.nan] + [1 / 6] * (n - 1) for c in VOTES}))

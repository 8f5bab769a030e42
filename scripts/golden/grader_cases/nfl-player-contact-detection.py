"""nfl-player-contact-detection: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import matthews_corrcoef


def mcc_score(g, name):
    """Upstream's steps: both columns present, same contact_id set and row count, both sides
    sorted by contact_id, then scikit-learn's matthews_corrcoef on the contact columns."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    assert {"contact_id", "contact"} <= set(s.columns)
    assert set(s.contact_id) == set(a.contact_id)
    assert len(s) == len(a)
    s = s.sort_values("contact_id", kind="stable")
    a = a.sort_values("contact_id", kind="stable")
    assert (s.contact_id.to_numpy() == a.contact_id.to_numpy()).all()
    return matthews_corrcoef(a.contact.to_numpy(), s.contact.to_numpy())


def generate(g):
    rows = []
    for play in range(3):
        game_play = "%05d_%06d" % (g.rng.randint(57000, 59000), g.rng.randint(0, 4000))
        players = sorted(g.rng.choice(np.arange(25000, 55000), 5, replace=False).tolist())
        for step in range(4):
            for i, p1 in enumerate(players):
                for p2 in players[i + 1:] + ["G"]:
                    rows.append({
                        "contact_id": f"{game_play}_{step}_{p1}_{p2}", "game_play": game_play,
                        "datetime": "2021-09-12T17:%02d:%02d.%d00Z" % (10 + play, step // 10, step % 10),
                        "step": step, "nfl_player_id_1": p1, "nfl_player_id_2": p2,
                        "contact": int(g.rng.rand() < (0.35 if p2 == "G" else 0.15)),
                    })
    ans = pd.DataFrame(rows)
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.45, 0.8, 300), 4), reverse=True))
    ids = ans.contact_id.to_numpy()
    truth = ans.contact.to_numpy()
    n = len(ans)

    def sub(contact, contact_ids=ids):
        return pd.DataFrame({"contact_id": contact_ids, "contact": contact})

    def valid(name, df):
        g.write(df, f"{name}.csv")
        score = mcc_score(g, name)
        g.record(name, score)
        return score

    def invalid(name, df):
        g.write(df, f"{name}.csv")
        try:
            mcc_score(g, name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    assert valid("perfect", sub(truth)) == 1.0
    assert valid("sample_like", sub(np.zeros(n, dtype=int))) == 0.0
    assert valid("all_contact", sub(np.ones(n, dtype=int))) == 0.0
    assert valid("inverted", sub(1 - truth).sample(frac=1, random_state=3)) == -1.0
    flips = g.rng.rand(n) < 0.12
    noisy = np.where(flips, 1 - truth, truth)
    valid("noisy", sub(noisy).sample(frac=1, random_state=5))
    valid("float_labels", sub(noisy.astype(float)))
    valid("boolean_labels", sub(noisy.astype(bool)).sample(frac=1, random_state=6))
    # scikit-learn lets a third label through and scores the multiclass correlation.
    three = noisy.copy()
    three[:7] = 2
    valid("third_label", sub(three))
    valid("extra_column", sub(noisy).assign(step=ans.step))

    invalid("probabilities", sub(np.round(np.clip(noisy * 0.8 + g.rng.rand(n) * 0.2, 0, 1), 3)))
    gap = sub(noisy.astype(float))
    gap.loc[4, "contact"] = np.nan
    invalid("missing_prediction", gap)
    invalid("text_labels", sub(np.where(noisy == 1, "yes", "no")))
    invalid("missing_contact_column", sub(noisy).drop(columns="contact"))
    invalid("missing_id_column", sub(noisy).drop(columns="contact_id"))
    invalid("missing_row", sub(noisy).iloc[1:])
    invalid("extra_row", pd.concat([sub(noisy), sub([0], [ids[0][:-1] + "9"])]))
    invalid("duplicate_row", pd.concat([sub(noisy), sub(noisy).iloc[:1]]))
    dup = ids.copy()
    dup[1] = dup[0]
    invalid("duplicate_replaces_id", sub(noisy, dup))

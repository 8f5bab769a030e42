"""h-and-m-personalized-fashion-recommendations: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd


# h-and-m-personalized-fashion-recommendations: MAP@12 over space-separated article ids.
def generate(g):
    n = 250
    customers = g.hex_ids(n, 64)
    articles = [f"0{v:09d}" for v in g.rng.randint(10**8, 10**9, 400)]
    truth = [" ".join(g.rng.choice(articles, g.rng.randint(1, 6), replace=False)) for _ in range(n)]
    g.write(pd.DataFrame({"customer_id": customers, "prediction": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.0, 0.037, 2950), 5), reverse=True))

    def map12(actual, predicted):
        total = 0.0
        for act, pred in zip(actual, predicted):
            pred = pred[:12]
            hits, score, seen = 0, 0.0, set()
            for i, p in enumerate(pred):
                if p in act and p not in seen:
                    hits += 1
                    score += hits / (i + 1)
                seen.add(p)
            total += score / min(len(act), 12) if act else 0.0
        return total / len(actual)

    popular = " ".join(articles[:12])
    cases = {
        "popular": [popular] * n,
        "perfect": truth,
        "mixed": [t.split(" ")[0] + " " + popular if k % 3 else popular for k, t in enumerate(truth)],
    }
    for name, preds in cases.items():
        extra = g.hex_ids(20, 64)
        sub = pd.DataFrame({"customer_id": customers + extra, "prediction": list(preds) + [popular] * 20}).sample(frac=1, random_state=7)
        g.write(sub, f"{name}.csv")
        a = g.read("answers.csv").sort_values("customer_id")
        s = g.read(f"{name}.csv")
        s = s[s.customer_id.isin(set(a.customer_id))].sort_values("customer_id")
        actual = [set(str(v).split(" ")) for v in a.prediction]
        predicted = [str(v).split(" ") for v in s.prediction]
        g.record(name, map12(actual, predicted))
    g.write(pd.DataFrame({"customer_id": customers[:-1], "prediction": [popular] * (n - 1)}), "missing_customer.csv")
    g.record("missing_customer", None)

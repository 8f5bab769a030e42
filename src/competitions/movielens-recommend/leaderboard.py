#!/usr/bin/python3
"""Reference leaderboard for the offline `movielens-recommend` competition.

Fits a documented population of recommenders on the public ratings (train.csv: the complete
histories of 268 users; test.csv: the earlier ratings of the 403 target users), asks each for
ten movies per target user, scores the lists by MAP@10 on the private answers (the movies each
target user rated in their held-out later period), and writes leaderboard.csv beside this script
(best first). The scores form a *reference population* of recommenders, not a leaderboard of
human teams.

Nothing but the final scoring reads the answers. Every choice (hyper-parameters, blend weights,
the re-ranker's model) is made on a validation cut of the public data that repeats the task's
own split: each train.csv user's latest 20% of ratings (whole rating times) is held out, and
the models are fitted on the rest plus test.csv. Each recommender is fitted twice, once on that
cut (its validation MAP@10 is in the pipeline text) and once on all public ratings for the
entry. Movies a user already rated are never recommended.

The population (524 entries), bottom to top:

1. Trivial: the ten smallest unseen movie ids (the sample submission's idea); seeded random lists (from every movie, from the 100 or 500
   most rated); the least rated, oldest, newest, alphabetically first movies; the best mean
   rating with no or a tiny support.
2. Popularity: rating counts (all, or only ratings of at least 3 ... 5 stars), mean and
   Bayesian-average ratings with minimum supports, counts over the last 30 days ... 10 years of
   the data, time-local popularity (ratings weighted by exp(-|t - t_u| / tau) around the
   target user's last rating time t_u, tau 1 day ... 8 years, before, after or both sides),
   genre-profile and release-year-profile popularity.
3. Neighbourhood models: user-kNN (cosine on binary, raw or mean-centred ratings; k 5 ... all)
   and item-kNN (cosine, Jaccard, asymmetric cosine, conditional probability, lift; k 10 ... all
   neighbours) over the movies with at least five ratings, with the user's history weighted
   uniformly or by recency (exp(-position from the end / h)); sequential co-occurrence with the
   last m movies rated; RP3beta graph walks.
4. Factor models: PureSVD (ranks 2 ... 300, binary or rating matrix), implicit ALS (factors,
   regularisation, confidence), EASE (closed-form linear autoencoder, lambda 30 ... 3000, with
   and without recency weighting), each over the movies with at least five (EASE: eight)
   ratings.
5. Small budgets: the standard models fitted on a seeded 10%, 25% or 50% of all ratings.
6. Strong entries: reciprocal-rank fusions of the best model of each family (pairs, equal
   weights, weights chosen by greedy forward selection on the validation cut, a model plus the
   best popularity list), and a learned re-ranker: candidates from the top 30, 60 or 100 of six
   tuned generators (the five best families and the best popularity list), features (each
   generator's score and rank, popularity, mean rating, time-local popularity, release year
   against the user's time, genre match, the movie's first rating time against the user's, the
   history's length), xgboost classifiers tuned by random search with user-grouped 4-fold CV on
   the validation cut, fitted on it and applied to the full data (single draws, averages of the
   best draws, seed averages), and logistic-regression re-rankers.

Runtime: about 7 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1); EASE's matrix
inverses use torch's LAPACK where it is installed.

Usage (Debian's interpreter, which has numpy, scipy and xgboost):
    node dist/cli/main.js prepare -c movielens-recommend --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/movielens-recommend/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import xgboost as xgb  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from _shared.board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "leaderboard.csv")
K = 10
HELD_OUT = 0.2
DAY = 86400.0
GENRES = ["Action", "Adventure", "Animation", "Children", "Comedy", "Crime", "Documentary", "Drama", "Fantasy", "Film-Noir",
          "Horror", "IMAX", "Musical", "Mystery", "Romance", "Sci-Fi", "Thriller", "War", "Western"]


def held_out_start(times):
    """The preparer's rule: the earliest rating time from which on at most 20% (rounded) of the user's ratings fall."""
    s = np.sort(times)
    quota = int(np.floor(len(s) * HELD_OUT + 0.5))
    start = s[-1]
    for i in range(len(s) - 1, -1, -1):
        if i > 0 and s[i - 1] == s[i]:
            continue
        if len(s) - i > quota:
            break
        start = s[i]
    return start


class Env:
    """One fitting set (all public ratings, or the validation cut) with its query users and their held-out movies."""

    def __init__(self, fit, queries, truth, movies):
        self.fit = fit
        self.items = np.array(sorted(fit.movieId.unique()))
        self.users = np.array(sorted(fit.userId.unique()))
        ii = pd.Series(np.arange(len(self.items)), index=self.items)
        ui = pd.Series(np.arange(len(self.users)), index=self.users)
        self.r = ui[fit.userId.values].values
        self.c = ii[fit.movieId.values].values
        self.t = fit.timestamp.values.astype(float)
        self.rating = fit.rating.values.astype(float)
        shape = (len(self.users), len(self.items))
        self.X = sp.csr_matrix((np.ones(len(fit), dtype=np.float32), (self.r, self.c)), shape=shape)
        self.R = sp.csr_matrix((self.rating.astype(np.float32), (self.r, self.c)), shape=shape)
        # Position from the end of each user's history (1 = latest; ties share the later position).
        pos = fit.groupby("userId").timestamp.rank(ascending=False, method="max").values
        self.P = sp.csr_matrix((pos.astype(np.float32), (self.r, self.c)), shape=shape)
        self.queries = np.array(queries)
        self.q = ui[self.queries].values
        self.nq, self.ni = len(self.q), len(self.items)
        self.last = fit.groupby("userId").timestamp.max()[self.queries].values.astype(float)
        self.seen = self.X[self.q].toarray() > 0
        self.truth = [truth[u] for u in self.queries]
        self.count = np.asarray(self.X.sum(0)).ravel()
        meta = movies.set_index("movieId").loc[self.items]
        self.year = meta.year.values.astype(float)
        self.title = meta.title.fillna("").values
        self.G = np.array([[g in str(s).split("|") for g in GENRES] for s in meta.genres.values], dtype=np.float32)
        self.first = pd.Series(self.t).groupby(self.c).min().reindex(np.arange(self.ni)).values
        self.cache = {}

    def memo(self, slot, key, make):
        """One cached value per slot: a new key replaces the old value (the dense item-item matrices are large)."""
        held = self.cache.get(slot)
        if held is None or held[0] != key:
            self.cache[slot] = None
            self.cache[slot] = (key, make())
        return self.cache[slot][1]

    def universe(self, minimum):
        """The movies rated at least `minimum` times (the dense models work on these only)."""
        return np.where(self.count >= minimum)[0]

    def history(self, cols, h):
        """Query users' histories over `cols`, weighted uniformly (h=0) or by exp(-(position from the end - 1) / h)."""
        Q = self.P[self.q][:, cols].tocsr().astype(np.float64)
        Q.data = np.exp(-(Q.data - 1) / h) if h else np.ones_like(Q.data)
        return Q

    def expand(self, cols, S):
        """Scores over `cols` as a full score matrix, every other movie below all of them."""
        out = np.full((self.nq, self.ni), -1e30)
        out[:, cols] = np.asarray(S)
        return out

    def top(self, S, n=K):
        """The n best unseen movies per query (item indices), best first; ties by item index."""
        S = np.where(self.seen, -np.inf, S)
        part = np.argpartition(-S, n, axis=1)[:, :n]
        vals = np.take_along_axis(S, part, 1)
        order = np.lexsort((part, -vals), axis=1)
        return np.take_along_axis(part, order, 1)

    def map_at_k(self, S):
        """MAP@10 of the score matrix's top lists against the held-out movies."""
        top = self.items[self.top(S)]
        total = 0.0
        for row, actual in zip(top, self.truth):
            hits, score = 0, 0.0
            for i, m in enumerate(row):
                if m in actual:
                    hits += 1
                    score += hits / (i + 1)
            total += score / min(len(actual), K)
        return total / self.nq


def load(data_dir):
    pub = os.path.join(data_dir, "movielens-recommend", "prepared", "public")
    train = pd.read_csv(os.path.join(pub, "train.csv"))
    history = pd.read_csv(os.path.join(pub, "test.csv"))
    movies = pd.read_csv(os.path.join(pub, "movies.csv"))
    answers = pd.read_csv(os.path.join(data_dir, "movielens-recommend", "prepared", "private", "test.csv"))
    truth = {u: set(int(m) for m in str(s).split()) for u, s in zip(answers.userId, answers.movies)}
    cut, val_truth = [history], {}
    for u, x in train.groupby("userId"):
        start = held_out_start(x.timestamp.values)
        cut.append(x[x.timestamp < start])
        val_truth[u] = set(x.movieId[x.timestamp >= start])
    V = Env(pd.concat(cut, ignore_index=True), sorted(val_truth), val_truth, movies)
    F = Env(pd.concat([train, history], ignore_index=True), sorted(truth), truth, movies)
    return V, F


# ---------------------------------------------------------------- score makers: each takes an Env, returns (nq, ni) scores

def const(values):
    return lambda E: np.tile(np.asarray(values(E), dtype=float), (E.nq, 1))


def random_list(seed, pool=None):
    def f(E):
        rng = np.random.default_rng(seed)
        S = rng.random((E.nq, E.ni))
        if pool:
            S[:, np.argsort(-E.count, kind="stable")[pool:]] -= 2
        return S
    return f


def mean_rating(min_count, prior=0):
    def f(E):
        s = np.bincount(E.c, weights=E.rating, minlength=E.ni)
        mu = E.rating.mean()
        m = (s + prior * mu) / (E.count + prior)
        return np.where(E.count >= min_count, m, m - 10)
    return const(f)


def count_at_least(stars):
    return const(lambda E: np.bincount(E.c, weights=(E.rating >= stars).astype(float), minlength=E.ni) + 1e-3 * E.count)


def recent_pop(days):
    return const(lambda E: np.bincount(E.c, weights=(E.t >= E.t.max() - days * DAY).astype(float), minlength=E.ni) + 1e-3 * E.count)


def week_matrix(E):
    """Ratings binned by week: a sparse (weeks x movies) count matrix and each week's mid time."""
    if "weeks" not in E.cache:
        w = ((E.t - E.t.min()) // (7 * DAY)).astype(int)
        M = sp.csr_matrix((np.ones(len(w)), (w, E.c)), shape=(w.max() + 1, E.ni))
        E.cache["weeks"] = (M, E.t.min() + (np.arange(w.max() + 1) + 0.5) * 7 * DAY)
    return E.cache["weeks"]


def time_pop(tau, side="both"):
    """Ratings weighted by exp(-|t - t_u| / tau days) around each query user's last rating time."""
    def f(E):
        M, mid = week_matrix(E)
        d = mid[None, :] - E.last[:, None]
        W = np.exp(-np.abs(d) / (tau * DAY))
        if side == "after":
            W[d < -3.5 * DAY] = 0
        elif side == "before":
            W[d > 3.5 * DAY] = 0
        return np.asarray((M.T @ W.T).T) + 1e-6 * E.count
    return f


def user_genre_profile(E, h=0):
    Q = E.history(np.arange(E.ni), h)
    prof = np.asarray(Q @ E.G)
    return prof / np.maximum(prof.sum(1, keepdims=True), 1e-9)


def genre_pop(power, h=0, tau=None):
    def f(E):
        base = time_pop(tau)(E) if tau else np.tile(E.count.astype(float), (E.nq, 1))
        match = user_genre_profile(E, h) @ (E.G / np.maximum(E.G.sum(1, keepdims=True), 1)).T
        return base * (match + 1e-3) ** power
    return f


def year_pop(width):
    def f(E):
        Q = E.history(np.arange(E.ni), 0)
        yr = np.nan_to_num(E.year, nan=1990.0)
        mean_year = np.asarray(Q @ yr).ravel() / np.maximum(np.asarray(Q.sum(1)).ravel(), 1)
        return E.count[None, :] * np.exp(-np.abs(yr[None, :] - mean_year[:, None]) / width)
    return f


def user_knn(k, kind="binary", h=0):
    def f(E):
        A = E.R if kind == "rating" else E.X
        if kind == "centred":
            A = E.R.copy().tocsr()
            means = np.asarray(A.sum(1)).ravel() / np.maximum(np.diff(A.indptr), 1)
            A.data = A.data - np.repeat(means, np.diff(A.indptr)) + 0.01
        A = A.astype(np.float64)
        norms = np.sqrt(np.asarray(A.multiply(A).sum(1)).ravel()) + 1e-9
        An = sp.diags(1 / norms) @ A
        if h:
            Qh = E.history(np.arange(E.ni), h)
            Qn = sp.diags(1 / (np.sqrt(np.asarray(Qh.multiply(Qh).sum(1)).ravel()) + 1e-9)) @ Qh
            sim = np.asarray((Qn @ An.T).todense())
        else:
            sim = np.asarray((An[E.q] @ An.T).todense())
        sim[np.arange(E.nq), E.q] = 0
        if k and k < sim.shape[1]:
            cut = np.partition(sim, -k, axis=1)[:, -k][:, None]
            sim = np.where(sim >= cut, sim, 0)
        return (sp.csr_matrix(sim) @ E.X).toarray() + 1e-6 * E.count
    return f


def item_sims(E, minimum=5):
    """Item-item similarity matrices over the movies rated at least `minimum` times, cached per Env."""
    if "sims" not in E.cache:
        cols = E.universe(minimum)
        Xu = E.X[:, cols].tocsc().astype(np.float64)
        C = (Xu.T @ Xu).toarray()
        n = np.diag(C).copy()
        np.fill_diagonal(C, 0)
        E.cache["sims"] = (cols, C, n)
    return E.cache["sims"]


MAX_NEIGHBOURS = 200


def sim_matrix(E, kind):
    """A similarity over the universe (dense) and its rows pruned to the 200 nearest neighbours (sorted, as sparse parts)."""
    def make():
        cols, C, n = item_sims(E)
        N = E.X.shape[0]
        with np.errstate(divide="ignore", invalid="ignore"):
            if kind == "cooc":
                S = C.copy()
            elif kind == "cosine":
                S = C / np.sqrt(np.outer(n, n))
            elif kind == "jaccard":
                S = C / (n[:, None] + n[None, :] - C)
            elif kind.startswith("asym"):
                a = float(kind[4:])
                S = C / (n[:, None] ** a * n[None, :] ** (1 - a))
            elif kind == "condprob":
                S = C / n[:, None]
            elif kind == "lift":
                S = C * N / np.outer(n, n) * (C >= 2)
            else:
                raise ValueError(kind)
        S = np.nan_to_num(S)
        part = np.argpartition(-S, MAX_NEIGHBOURS, axis=1)[:, :MAX_NEIGHBOURS]
        vals = np.take_along_axis(S, part, 1)
        order = np.lexsort((part, -vals), axis=1)
        return S, np.take_along_axis(part, order, 1), np.take_along_axis(vals, order, 1)
    return E.memo("sim", kind, make)


def pruned(S, idx, vals, k):
    """The similarity keeping each row's k nearest neighbours (all of them for k=0)."""
    if not k:
        return S
    n = S.shape[0]
    return sp.csr_matrix((vals[:, :k].ravel(), idx[:, :k].ravel(), np.arange(0, n * k + 1, k)), shape=S.shape)


def item_knn(kind, k, h=0):
    def f(E):
        cols = item_sims(E)[0]
        S, idx, vals = sim_matrix(E, kind)
        out = E.history(cols, h) @ pruned(S, idx, vals, k)
        return E.expand(cols, out.toarray() if sp.issparse(out) else out)
    return f


def last_items(m, kind="cooc"):
    """Co-occurrence (or cosine) with the last m movies the user rated."""
    def f(E):
        cols = item_sims(E)[0]
        S = sim_matrix(E, kind)[0]
        Q = E.history(cols, 0)
        P = E.P[E.q][:, cols].tocsr()
        Q = Q.multiply(P <= m).tocsr()
        return E.expand(cols, Q @ S)
    return f


def rp3(alpha, beta, h=0):
    def f(E):
        cols = item_sims(E)[0]

        def make():
            Xu = E.X[:, cols].tocsr().astype(np.float64)
            Pui = sp.diags(1 / np.maximum(np.asarray(Xu.sum(1)).ravel(), 1)) @ Xu
            Piu = sp.diags(1 / np.maximum(np.asarray(Xu.sum(0)).ravel(), 1)) @ Xu.T.tocsr()
            Pui.data **= alpha
            Piu.data **= alpha
            W = (Piu @ Pui).toarray()
            W /= np.maximum(np.asarray(Xu.sum(0)).ravel(), 1)[None, :] ** beta
            np.fill_diagonal(W, 0)
            return W
        return E.expand(cols, E.history(cols, h) @ E.memo("rp3", (alpha, beta), make))
    return f


def svd_basis(E, kind):
    key = ("svd", kind)
    if key not in E.cache:
        cols = item_sims(E)[0]
        A = ({"binary": E.X, "rating": E.R}[kind])[:, cols].toarray().astype(np.float64)
        Vt = np.linalg.svd(A, full_matrices=False)[2]
        E.cache[key] = (cols, Vt)
    return E.cache[key]


def pure_svd(rank, kind="binary", h=0):
    def f(E):
        cols, Vt = svd_basis(E, kind)
        Vk = Vt[:rank].T
        Q = E.history(cols, h) if kind == "binary" or h else E.R[E.q][:, cols]
        return E.expand(cols, (Q @ Vk) @ Vk.T)
    return f


def als(factors, reg, alpha, iters=8, seed=0):
    """Implicit ALS (Hu, Koren and Volinsky): confidence 1 + alpha on rated cells, solved row by row."""
    def f(E):
        cols = item_sims(E)[0]
        Xu = E.X[:, cols].tocsr()
        Xt = Xu.T.tocsr()
        rng = np.random.default_rng(seed)
        U = rng.normal(0, 0.01, (Xu.shape[0], factors))
        I = rng.normal(0, 0.01, (Xu.shape[1], factors))
        eye = reg * np.eye(factors)

        def solve(M, Y, out):
            YtY = Y.T @ Y + eye
            for r in range(M.shape[0]):
                idx = M.indices[M.indptr[r]:M.indptr[r + 1]]
                if len(idx) == 0:
                    out[r] = 0
                    continue
                Yr = Y[idx]
                out[r] = np.linalg.solve(YtY + alpha * Yr.T @ Yr, (1 + alpha) * Yr.sum(0))
        for _ in range(iters):
            solve(Xu, I, U)
            solve(Xt, U, I)
        return E.expand(cols, U[E.q] @ I.T)
    return f


def inverse(G):
    """The inverse of a symmetric positive definite matrix; torch's LAPACK, where present, is several times faster than numpy's here."""
    try:
        import torch
        torch.set_num_threads(1)
        return torch.linalg.inv(torch.from_numpy(G)).numpy()
    except ImportError:
        return np.linalg.inv(G)


def ease(lam, h=0, minimum=8):
    def f(E):
        cols = E.universe(minimum)

        def make():
            Xu = E.X[:, cols].tocsc().astype(np.float64)
            G = (Xu.T @ Xu).toarray()
            G[np.diag_indices_from(G)] += lam
            P = inverse(G)
            B = -P / np.diag(P)[None, :]
            np.fill_diagonal(B, 0)
            return B
        return E.expand(cols, E.history(cols, h) @ E.memo("ease", (lam, minimum), make))
    return f


def subsample(make, fraction, seed):
    """The same recommender fitted on a seeded fraction of all ratings (the query users' histories thinned too)."""
    cache = {}

    def f(E):
        if id(E) not in cache:
            keep = np.random.default_rng(seed).random(len(E.fit)) < fraction
            fit = E.fit[keep]
            # Every query user keeps at least their latest rating, so that they still have a history.
            latest = E.fit.loc[E.fit.groupby("userId").timestamp.idxmax()]
            fit = pd.concat([fit, latest]).drop_duplicates(["userId", "movieId"])
            cache[id(E)] = Env(fit, E.queries, dict(zip(E.queries, E.truth)), MOVIES)
        sub = cache[id(E)]
        S = make(sub)
        out = np.full((E.nq, E.ni), -1e30)
        pos = pd.Series(np.arange(E.ni), index=E.items)[sub.items].values
        out[:, pos] = S
        return out
    return f


MOVIES = None


def main(data_dir):
    global MOVIES
    started = time.process_time()
    MOVIES = pd.read_csv(os.path.join(data_dir, "movielens-recommend", "prepared", "public", "movies.csv"))
    V, F = load(data_dir)
    rows, library = [], {}

    def clock():
        return f"{time.process_time() - started:.0f} CPU-s"

    def enter(team, pipeline, make):
        sv, sf = make(V), make(F)
        mv = V.map_at_k(sv)
        rows.append(dict(teamName=team, score=round(F.map_at_k(sf), 6), pipeline=f"{pipeline} (validation MAP@10 {mv:.4f})"))
        return mv, sv, sf

    def family(name, entries, keep_best=True):
        """Enter every (team, pipeline, make); keep the best by validation MAP@10 for the fusions and the re-ranker."""
        best = None
        for team, pipeline, make in entries:
            mv, sv, sf = enter(team, pipeline, make)
            if best is None or mv > best[0]:
                best = (mv, team, sv.astype(np.float32), sf.astype(np.float32))
        print(f"{name}: {len(rows)} entries, {clock()}; best {best[1]} (validation {best[0]:.4f})", flush=True)
        if keep_best:
            library[f"best-{name}"] = (best[0], best[2], best[3])
        return best

    # 1. Trivial.
    trivial = [("smallest-ids", "the ten smallest movie ids each user has not rated", const(lambda E: -E.items.astype(float)))]
    trivial += [(f"random/seed{s}", f"ten random movies (seed {s})", random_list(s)) for s in range(8)]
    trivial += [(f"random-top{p}/seed{s}", f"ten random movies among the {p} most rated (seed {s})", random_list(100 + s, p))
                for p in [100, 500, 2000] for s in range(4)]
    trivial += [
        ("least-rated", "the least rated movies", const(lambda E: -E.count - 1e-9 * E.items)),
        ("oldest", "the oldest movies by release year", const(lambda E: -np.nan_to_num(E.year, nan=3000))),
        ("newest", "the newest movies by release year", const(lambda E: np.nan_to_num(E.year, nan=0) + 1e-6 * E.count)),
        ("newest-id", "the movies most recently added to the catalogue (largest ids)", const(lambda E: E.items.astype(float))),
        ("alphabetical", "the alphabetically first titles", const(lambda E: -np.argsort(np.argsort(E.title, kind="stable")).astype(float))),
        ("best-mean-any", "highest mean rating, no minimum support", mean_rating(1)),
        ("best-mean-min2", "highest mean rating among movies with 2+ ratings", mean_rating(2)),
    ]
    family("trivial", trivial, keep_best=False)

    # 2. Popularity.
    pop = [("most-rated", "the most rated movies overall", const(lambda E: E.count.astype(float)))]
    pop += [(f"most-rated-{s}stars", f"most ratings of {s} stars or more", count_at_least(s)) for s in [3, 3.5, 4, 4.5, 5]]
    pop += [(f"best-mean-min{m}", f"highest mean rating among movies with {m}+ ratings", mean_rating(m)) for m in [5, 10, 20, 50, 100, 200]]
    pop += [(f"bayes-mean-prior{p}", f"Bayesian-average rating (prior weight {p})", mean_rating(1, p)) for p in [5, 20, 50, 100, 300]]
    pop += [(f"recent-{d}d", f"most rated in the data's last {d} days", recent_pop(d)) for d in [30, 90, 180, 365, 730, 1825, 3650]]
    pop += [(f"time-pop-{side}-tau{tau}", f"ratings weighted by exp(-|t - t_u|/{tau} days) around the user's last rating ({side})", time_pop(tau, side))
            for side in ["both", "after", "before"] for tau in [1, 3, 7, 14, 30, 60, 90, 120, 180, 240, 365, 500, 730, 1000, 1460, 2920]]
    pop += [(f"genre-pop-p{p}-h{h}", f"popularity times the user's genre match to the power {p} (history weighting h={h})", genre_pop(p, h))
            for p in [0.5, 1, 2, 4] for h in [0, 20]]
    pop += [(f"genre-time-pop-p{p}-tau{tau}", f"time-local popularity (tau {tau} days) times genre match to the power {p}", genre_pop(p, 0, tau))
            for p in [1, 2] for tau in [90, 365, 1460]]
    pop += [(f"year-pop-w{w}", f"popularity near the user's mean release year (scale {w} years)", year_pop(w)) for w in [2, 5, 10, 20, 40]]
    family("popularity", pop)

    # 3. Neighbourhood models.
    uk = [(f"user-knn-{kind}-k{k}-h{h}", f"user-kNN, cosine on {kind} ratings, k={k or 'all'}, history weighting h={h}", user_knn(k, kind, h))
          for kind in ["binary", "rating", "centred"] for k in [5, 10, 20, 40, 80, 160, 0] for h in ([0, 5, 20, 50] if kind == "binary" else [0])]
    family("user-knn", uk)
    ik = [(f"item-knn-{kind}-k{k}-h{h}", f"item-kNN, {kind} similarity, {k or 'all'} neighbours, history weighting h={h}", item_knn(kind, k, h))
          for kind in ["cosine", "jaccard", "asym0.25", "asym0.75", "condprob", "lift"] for k in [10, 20, 50, 100, 200, 0] for h in [0, 10, 30]]
    family("item-knn", ik)
    seq = [(f"last{m}-{kind}", f"{kind} with the last {m} movies rated", last_items(m, kind)) for m in [1, 2, 3, 5, 10, 20, 50, 100]
           for kind in ["cooc", "cosine"]]
    family("sequential", seq)
    rp = [(f"rp3beta-a{a}-b{b}-h{h}", f"RP3beta graph walk (alpha {a}, beta {b}), history weighting h={h}", rp3(a, b, h))
          for a in [0.6, 1.0, 1.4] for b in [0.0, 0.25, 0.5, 0.75] for h in [0, 10]]
    family("rp3beta", rp)

    # 4. Factor models.
    sv = [(f"pure-svd-{kind}-r{r}-h{h}", f"PureSVD rank {r} on the {kind} matrix, history weighting h={h}", pure_svd(r, kind, h))
          for kind in ["binary", "rating"] for r in [2, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300] for h in [0, 5, 20, 50]]
    family("pure-svd", sv)
    al = [(f"als-f{f}-reg{reg}-a{a}", f"implicit ALS, {f} factors, regularisation {reg}, confidence alpha {a}, 6 sweeps", als(f, reg, a, iters=6))
          for f, reg, a in [(8, 1, 10), (16, 1, 10), (32, 1, 10), (32, 10, 10), (32, 0.1, 10), (32, 1, 40), (32, 1, 2), (64, 10, 10), (64, 30, 20)]]
    family("als", al)
    ea = [(f"ease-l{lam}-h{h}", f"EASE, lambda {lam}, history weighting h={h}", ease(lam, h)) for lam in [30, 100, 300, 1000, 3000] for h in [0, 5, 10, 30]]
    family("ease", ea)

    # 5. Small budgets.
    budget_models = [("most-rated", const(lambda E: E.count.astype(float))), ("item-knn-cosine-k100", item_knn("cosine", 100)),
                     ("user-knn-binary-k40", user_knn(40)), ("pure-svd-r50", pure_svd(50)), ("time-pop-tau365", time_pop(365))]
    budget = [(f"{name}/{int(fr * 100)}pct-seed{s}", f"{name} fitted on a seeded {int(fr * 100)}% of the ratings (seed {s})", subsample(make, fr, s))
              for name, make in budget_models for fr in [0.1, 0.25, 0.5] for s in [0, 1]]
    family("budget", budget, keep_best=False)
    print(f"standard population done: {len(rows)} entries, {clock()}", flush=True)

    # 6a. Reciprocal-rank fusion of the families' best models, greedy forward selection on validation.
    members = sorted(library, key=lambda k: -library[k][0])

    tops = {k: (V.top(library[k][1], 100), F.top(library[k][2], 100)) for k in members}
    decay = 1 / (20 + np.arange(100))

    def rrf(idx, weights, which):
        """Weighted reciprocal-rank fusion of the members' top-100 lists (weight / (20 + rank))."""
        E = V if which == 1 else F
        total = np.zeros((E.nq, E.ni))
        rows_ = np.arange(E.nq)[:, None]
        for k, w in zip(idx, weights):
            np.add.at(total, (rows_, tops[k][which - 1]), w * decay[None, :])
        return total

    def rrf_map(idx, weights):
        return V.map_at_k(rrf(idx, weights, 1))

    chosen, weights, best = [], [], 0.0
    for step in range(6):
        cand = None
        for k in members:
            for w in [0.5, 1.0, 2.0]:
                idx, ws = chosen + [k], weights + [w]
                m = rrf_map(idx, ws)
                if cand is None or m > cand[0]:
                    cand = (m, k, w)
        if cand[0] <= best:
            break
        best = cand[0]
        chosen.append(cand[1])
        weights.append(cand[2])
        desc = ", ".join(f"{k} x{w}" for k, w in zip(chosen, weights))
        rows.append(dict(teamName=f"rrf-greedy/step{step + 1}", score=round(F.map_at_k(rrf(chosen, weights, 2)), 6),
                         pipeline=f"reciprocal-rank fusion chosen greedily on validation: {desc} (validation MAP@10 {best:.4f})"))
    for top in [2, 3, 4, 6, len(members)]:
        idx = members[:top]
        m = rrf_map(idx, [1.0] * top)
        rows.append(dict(teamName=f"rrf-equal/top{top}", score=round(F.map_at_k(rrf(idx, [1.0] * top, 2)), 6),
                         pipeline=f"equal-weight reciprocal-rank fusion of {', '.join(idx)} (validation MAP@10 {m:.4f})"))
    for a in range(len(members)):
        for b in range(a + 1, len(members)):
            idx = [members[a], members[b]]
            rows.append(dict(teamName=f"rrf-pair/{idx[0][5:]}+{idx[1][5:]}", score=round(F.map_at_k(rrf(idx, [1.0, 1.0], 2)), 6),
                             pipeline=f"reciprocal-rank fusion of {idx[0]} and {idx[1]} (validation MAP@10 {rrf_map(idx, [1.0, 1.0]):.4f})"))
    for k in ["best-ease", "best-pure-svd", "best-user-knn", "best-rp3beta"]:
        for w in [0.25, 0.5, 1.0]:
            idx, ws = [k, "best-popularity"], [1.0, w]
            rows.append(dict(teamName=f"rrf-pop/{k[5:]}-w{w}", score=round(F.map_at_k(rrf(idx, ws, 2)), 6),
                             pipeline=f"{k} fused with the best popularity list at weight {w} (validation MAP@10 {rrf_map(idx, ws):.4f})"))
    print(f"fusions done: {len(rows)} entries, {clock()}", flush=True)

    # 6b. A learned re-ranker over candidates from the tuned generators.
    gens = [k for k in members if k.startswith("best-")][:5]
    if "best-popularity" not in gens:
        gens.append("best-popularity")

    dense = {}

    def dense_parts(E, which):
        """Per generator: scores (seen movies at -inf), their row maxima and ranks; and the time-local popularities. Computed once per Env."""
        if which not in dense:
            parts = []
            for g in gens:
                S = np.where(E.seen, -np.inf, library[g][which].astype(np.float64))
                order = np.argsort(-S, axis=1, kind="stable")
                rank = np.empty_like(order)
                np.put_along_axis(rank, order, np.arange(E.ni)[None, :], axis=1)
                parts.append((S, S.max(axis=1), order[:, :100], rank))
            dense[which] = (parts, time_pop(90)(E), time_pop(365)(E))
        return dense[which]

    def features(E, which, depth):
        """Candidate (query, movie) pairs from each generator's top `depth`, with their features; labels on the validation cut only."""
        parts, tp90, tp365 = dense_parts(E, which)
        top = np.concatenate([order[:, :depth] for _, _, order, _ in parts], axis=1)
        cands = [np.unique(r) for r in top]
        uq = np.repeat(np.arange(E.nq), [len(c) for c in cands])
        it = np.concatenate(cands)
        cols = []
        for S, mx, _, rank in parts:
            cols += [S[uq, it] / np.where(mx > 0, mx, 1)[uq], np.minimum(rank[uq, it], 500)]
        yr = np.nan_to_num(E.year, nan=1990.0)
        user_year = pd.to_datetime(E.last, unit="s").year.values
        prof = user_genre_profile(E)
        gm = (prof[uq] * E.G[it]).sum(1) / np.maximum(E.G[it].sum(1), 1)
        mean_r = np.bincount(E.c, weights=E.rating, minlength=E.ni) / np.maximum(E.count, 1)
        hist_len = np.asarray(E.X[E.q].sum(1)).ravel()
        cols += [np.log1p(E.count[it]), mean_r[it], tp90[uq, it] / tp90[uq].max(1), tp365[uq, it] / tp365[uq].max(1), yr[it],
                 user_year[uq] - yr[it], gm, (E.first[it] - E.last[uq]) / DAY, np.log1p(hist_len[uq])]
        y = np.array([E.items[i] in E.truth[u] for u, i in zip(uq, it)], dtype=float) if which == 1 else None
        return np.column_stack(cols), y, uq, it

    def as_scores(E, uq, it, p):
        S = np.full((E.nq, E.ni), -1e30)
        S[uq, it] = p
        return S

    folds = np.random.default_rng(7).permutation(V.nq) % 4

    def cv_xgb(params, data, seed=0):
        """User-grouped 4-fold CV MAP@10 on the validation cut, then a fit on all of it applied to the full data."""
        XV, yV, uV, iV, XF, uF, iF = data
        oof, rounds = np.zeros(len(yV)), []
        for k in range(4):
            tr, va = folds[uV] != k, folds[uV] == k
            m = xgb.XGBClassifier(n_estimators=600, n_jobs=1, tree_method="hist", early_stopping_rounds=30, eval_metric="logloss",
                                  random_state=seed, **params)
            m.fit(XV[tr], yV[tr], eval_set=[(XV[va], yV[va])], verbose=False)
            rounds.append(m.best_iteration + 1)
            oof[va] = m.predict_proba(XV[va], iteration_range=(0, m.best_iteration + 1))[:, 1]
        n_rounds = max(10, int(np.mean(rounds) * 1.1))
        pF = xgb.XGBClassifier(n_estimators=n_rounds, n_jobs=1, tree_method="hist", random_state=seed, **params).fit(XV, yV).predict_proba(XF)[:, 1]
        return V.map_at_k(as_scores(V, uV, iV, oof)), n_rounds, pF

    pools = {}
    for depth in [30, 60, 100]:
        XV, yV, uV, iV = features(V, 1, depth)
        XF, _, uF, iF = features(F, 2, depth)
        pools[depth] = (XV, yV, uV, iV, XF, uF, iF)
    uF, iF = pools[60][5], pools[60][6]
    rng = np.random.default_rng(2016)
    draws = []
    for d in range(10):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.02), np.log(0.2)))), max_depth=int(rng.integers(3, 8)),
                      min_child_weight=float(rng.choice([1, 3, 10, 30])), subsample=float(rng.uniform(0.6, 1.0)),
                      colsample_bytree=float(rng.uniform(0.5, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))))
        cv, n_rounds, pF = cv_xgb(params, pools[60])
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        rows.append(dict(teamName=f"rerank-xgb/draw{d:02d}", score=round(F.map_at_k(as_scores(F, uF, iF, pF)), 6),
                         pipeline=f"xgboost re-ranker over {len(gens)} generators' top 60 ({desc}; {n_rounds} rounds), fitted on the "
                                  f"validation cut (4-fold user-grouped CV MAP@10 {cv:.4f})"))
        draws.append((cv, d, params, n_rounds, pF))
        print(f"re-ranker draw {d}: CV {cv:.4f}, {clock()}", flush=True)
    draws.sort(key=lambda x: -x[0])
    for top in [3, 5]:
        p = np.mean([x[4] for x in draws[:top]], axis=0)
        rows.append(dict(teamName=f"rerank-xgb/top{top}-avg", score=round(F.map_at_k(as_scores(F, uF, iF, p)), 6),
                         pipeline=f"average of the {top} best re-ranker draws by CV MAP@10"))
    cv, d, params, n_rounds, _ = draws[0]
    ps = [xgb.XGBClassifier(n_estimators=n_rounds, n_jobs=1, tree_method="hist", random_state=s, **params).fit(pools[60][0], pools[60][1])
          .predict_proba(pools[60][4])[:, 1] for s in range(1, 4)]
    rows.append(dict(teamName="rerank-xgb/best-3seeds", score=round(F.map_at_k(as_scores(F, uF, iF, np.mean(ps, axis=0))), 6),
                     pipeline=f"re-ranker draw {d} (best CV MAP@10 {cv:.4f}) refit with 3 more seeds, averaged"))
    for depth in [30, 100]:
        cvd, n_rounds, pF = cv_xgb(params, pools[depth])
        rows.append(dict(teamName=f"rerank-xgb/best-top{depth}", score=round(F.map_at_k(as_scores(F, pools[depth][5], pools[depth][6], pF)), 6),
                         pipeline=f"re-ranker draw {d}'s parameters over the generators' top {depth} ({n_rounds} rounds; CV MAP@10 {cvd:.4f})"))
    XV, yV, uV, iV, XF, uF, iF = pools[60]
    mu, sd = XV.mean(0), XV.std(0) + 1e-9
    for c in [0.01, 0.1, 1.0]:
        m = LogisticRegression(C=c, max_iter=2000).fit((XV - mu) / sd, yV)
        oof = np.zeros(len(yV))
        for k in range(4):
            tr, va = folds[uV] != k, folds[uV] == k
            oof[va] = LogisticRegression(C=c, max_iter=2000).fit((XV[tr] - mu) / sd, yV[tr]).decision_function((XV[va] - mu) / sd)
        cvl = V.map_at_k(as_scores(V, uV, iV, oof))
        rows.append(dict(teamName=f"rerank-logreg/C{c}", score=round(F.map_at_k(as_scores(F, uF, iF, m.decision_function((XF - mu) / sd))), 6),
                         pipeline=f"logistic-regression re-ranker (C={c}) on the same candidates and features (CV MAP@10 {cvl:.4f})"))

    write_board(rows, OUT, lower_is_better=False, note=f" in {clock()}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

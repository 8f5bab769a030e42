#!/usr/bin/python3
"""Reference leaderboard for the offline `us-births` competition.

Fits a documented population of forecasters on the public train split (the daily US births
of 1969-1986), scores each by MAPE in percent on the private answers (the 731 days of 1987
and 1988), and writes leaderboard.csv beside this script (best, i.e. lowest, first). The scores
form a *reference population* of pipelines, not a leaderboard of human teams. Nothing but the
final scoring reads the answers: every window, trend method, hyper-parameter, round count and
blend weight is chosen by forward-chaining cross-validation inside train, three folds that
each forecast two whole years (1981-82, 1983-84, 1985-86) from every day before them, as the
test period is forecast.

The population (about 560 entries), bottom to top:

1. Trivial: constants (the mean or median of all of train, of its last year or last 90 days);
   seeded random noise around the last year's mean; the mean by day of week, by month, or by
   day of week x month over the last 1 ... 18 years; seasonal naive forecasts (the same weekday
   52 or 104 weeks earlier, the same date a year earlier).
2. Standard pipelines on calendar features, every combination of
   - feature sets "date" (year, month, day of month, day of week, day of year), "date+holidays"
     (plus flags for the federal holidays and a few festive days, and a weekend flag) and
     "onehot" (one-hot weekday, month and day of month, plus a linear time);
   - models: linear and ridge regression, decision trees, random forests, extra trees,
     gradient boosting, histogram gradient boosting, k-nearest neighbours, default xgboost, an
     MLP;
   - budgets: the last 2, 3, 4, 6, 8, 10 or 14 years of train, or all 18 (the slower models:
     3, 6, 10 and 18 only);
   - the raw count or its logarithm as the target.
   Trees cannot extend the trend past the last training year, linear models on few years
   extrapolate it too eagerly, so these spread widely.
3. Strong pipelines that use what is known about the series: births have a slowly moving
   yearly level and a calendar pattern around it (fewer births at weekends, a weekend dip that
   deepened through the 1970s and 1980s as induced labour and planned caesareans spread, a
   late-summer peak, deep dips on and around holidays, which move with the observed day when a
   holiday falls on a weekend). They are forecast as level x pattern:
   - the level: the yearly mean of the last year (flat), a linear or log-linear trend through
     the last 3 ... 8 yearly means, their mean growth, or a damped Holt trend;
   - the pattern: the log ratio of each day to its year's mean, fitted by ridge regression on
     weekdays and their time trends, Fourier terms of the day of year (some with time trends),
     holiday windows of 0 ... 4 days either side, holiday x weekend interactions, observed
     holidays, the days of the Christmas week, 13ths and leap days, over windows of 5 ... 18
     years with optional recency weights; by forests, extra trees, histogram boosting and
     xgboost on the same features; by xgboost on the ridge model's residuals;
   - every pattern model is entered with the level method the CV prefers for it, the main ones
     with every level method; xgboost on the pattern is tuned by random search (20 draws of
     learning rate, depth, child weight, subsampling, column sampling, L2, window) with early
     stopping inside each CV fold, refit with the folds' mean round count, the best draws also
     seed-averaged;
   - whole-series ridge regressions of the log count with a time trend, for comparison;
   - blends: averages of the best pattern models in log space, greedy forward selection on
     the CV forecasts, and a non-negative least-squares stack.

Runtime: about 4 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c us-births --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/us-births/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import xgboost as xgb  # noqa: E402
from scipy.optimize import nnls  # noqa: E402
from sklearn.ensemble import (ExtraTreesRegressor, GradientBoostingRegressor, HistGradientBoostingRegressor,  # noqa: E402
                              RandomForestRegressor)
from sklearn.linear_model import LinearRegression, Ridge  # noqa: E402
from sklearn.neighbors import KNeighborsRegressor  # noqa: E402
from sklearn.neural_network import MLPRegressor  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.tree import DecisionTreeRegressor  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402
from levels import level_forecast  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
FIRST_TEST_YEAR = 1987
# Forward-chaining folds: each forecasts two whole years from every day before them.
CV_STARTS = [1981, 1983, 1985]
HORIZON = 2
ORIGIN = pd.Timestamp("1987-01-01")


def mape(y, p):
    """MAPE in percent, as the grader computes it."""
    return float(100 * np.mean(np.abs(p - y) / np.abs(y)))


# ---------------------------------------------------------------- calendar

def nth_weekday(year, month, weekday, n):
    """The n-th given weekday (Monday 0) of a month."""
    first = pd.Timestamp(year, month, 1)
    return first + pd.Timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def last_weekday(year, month, weekday):
    last = pd.Timestamp(year, month, 1) + pd.offsets.MonthEnd(0)
    return last - pd.Timedelta(days=(last.weekday() - weekday) % 7)


def holidays(year):
    """The federal holidays as celebrated that year (the Uniform Monday Holiday Act moved four of them from 1971), and festive days."""
    monday_rules = year >= 1971
    h = {
        "new-year": pd.Timestamp(year, 1, 1),
        "presidents": nth_weekday(year, 2, 0, 3) if monday_rules else pd.Timestamp(year, 2, 22),
        "memorial": last_weekday(year, 5, 0) if monday_rules else pd.Timestamp(year, 5, 30),
        "july-4": pd.Timestamp(year, 7, 4),
        "labor": nth_weekday(year, 9, 0, 1),
        "columbus": nth_weekday(year, 10, 0, 2) if monday_rules else pd.Timestamp(year, 10, 12),
        "veterans": nth_weekday(year, 10, 0, 4) if 1971 <= year <= 1977 else pd.Timestamp(year, 11, 11),
        "thanksgiving": nth_weekday(year, 11, 3, 4),
        "christmas": pd.Timestamp(year, 12, 25),
        "valentine": pd.Timestamp(year, 2, 14),
        "april-fool": pd.Timestamp(year, 4, 1),
        "halloween": pd.Timestamp(year, 10, 31),
    }
    if year >= 1986:
        h["mlk"] = nth_weekday(year, 1, 0, 3)
    return h


FIXED = ["new-year", "july-4", "christmas", "veterans"]
MAJOR = ["new-year", "memorial", "july-4", "labor", "thanksgiving", "christmas"]


def calendar(dates, window=2, names=None):
    """Label-free calendar features of a sequence of days (the holiday windows `window` days either side)."""
    d = pd.DatetimeIndex(dates)
    X = pd.DataFrame(index=range(len(d)))
    X["t"] = (d - ORIGIN).days.values / 365.25
    X["year"] = d.year
    X["month"] = d.month
    X["dom"] = d.day
    X["dow"] = d.weekday + 1
    # Day of year on a 365-day calendar, so that a date keeps its index in leap years.
    X["doy"] = pd.DatetimeIndex([pd.Timestamp(2001, m, min(dd, 28) if m == 2 and dd == 29 else dd) for m, dd in zip(d.month, d.day)]).dayofyear
    X["weekend"] = (d.weekday >= 5).astype(float)
    years = range(d.year.min() - 1, d.year.max() + 2)
    table = {y: holidays(y) for y in years}
    names = names or sorted({k for y in years for k in table[y]})
    stamps = pd.Series(d)
    for name in names:
        days = [table[y][name] for y in years if name in table[y]]
        for off in range(-window, window + 1):
            s = {x + pd.Timedelta(days=off) for x in days}
            X[f"h:{name}{off:+d}"] = stamps.isin(s).astype(float).values
        on = stamps.isin(set(days)).values
        X[f"h:{name}xweekend"] = (on & (d.weekday >= 5)).astype(float)
    observed = set()
    for y in years:
        for name in FIXED:
            if name in table[y]:
                day = table[y][name]
                if day.weekday() == 5:
                    observed.add(day - pd.Timedelta(days=1))
                elif day.weekday() == 6:
                    observed.add(day + pd.Timedelta(days=1))
    X["observed"] = stamps.isin(observed).astype(float).values
    # The nearest holiday within four days, as a code and a signed offset, for tree models.
    nearest = {}
    for code, name in enumerate(names, start=1):
        for y in years:
            if name in table[y]:
                for off in range(-4, 5):
                    day = table[y][name] + pd.Timedelta(days=off)
                    if day not in nearest or abs(off) < abs(nearest[day][1]):
                        nearest[day] = (code, off)
    X["holiday_code"] = [nearest.get(x, (0, 0))[0] for x in d]
    X["holiday_offset"] = [nearest.get(x, (0, 99))[1] for x in d]
    for dd in range(20, 32):
        X[f"dec{dd}"] = ((d.month == 12) & (d.day == dd)).astype(float)
    for dd in range(1, 4):
        X[f"jan{dd}"] = ((d.month == 1) & (d.day == dd)).astype(float)
    X["13th"] = (d.day == 13).astype(float)
    X["friday-13th"] = ((d.day == 13) & (d.weekday == 4)).astype(float)
    X["leap-day"] = ((d.month == 2) & (d.day == 29)).astype(float)
    return X


def pattern_design(C, fourier=8, dow_trend=1, season_trend=0, holiday=True):
    """Columns of the log-ratio ridge model: weekdays (with time trends), Fourier terms, holiday and festive-day indicators."""
    t = C["t"].to_numpy()
    cols = {}
    for k in range(1, 8):
        w = (C["dow"] == k).to_numpy(dtype=float)
        cols[f"dow{k}"] = w
        for p in range(1, dow_trend + 1):
            cols[f"dow{k}t{p}"] = w * t ** p
    phase = 2 * np.pi * (C["doy"].to_numpy() - 1) / 365.0
    for k in range(1, fourier + 1):
        s, c = np.sin(k * phase), np.cos(k * phase)
        cols[f"sin{k}"], cols[f"cos{k}"] = s, c
        if k <= season_trend:
            cols[f"sin{k}t"], cols[f"cos{k}t"] = s * t, c * t
    if holiday:
        for c in C.columns:
            if c.startswith("h:") or c.startswith(("dec", "jan")) or c in ("observed", "13th", "friday-13th", "leap-day"):
                cols[c] = C[c].to_numpy(dtype=float)
    return pd.DataFrame(cols)


# ---------------------------------------------------------------- levels

def year_means(frame):
    return frame.groupby("year").births.mean()


LEVELS = ["flat"] + [f"linear-{k}" for k in range(3, 9)] + [f"loglinear-{k}" for k in (3, 5, 8)] + \
         [f"growth-{k}" for k in (3, 5, 8)] + ["holt-8", "holt-9"]


# ---------------------------------------------------------------- main

def main(root):
    started = time.process_time()
    public = os.path.join(root, "us-births", "prepared", "public")
    private = os.path.join(root, "us-births", "prepared", "private")
    if not os.path.isdir(public):
        public, private = os.path.join(root, "public"), os.path.join(root, "private")
    # The files call the target `count`; here it is `births`, so that `count` keeps its pandas meaning.
    train = pd.read_csv(os.path.join(public, "train.csv"), parse_dates=["date"]).rename(columns={"count": "births"})
    train = train.sort_values("date").reset_index(drop=True)
    test = pd.read_csv(os.path.join(public, "test.csv"), parse_dates=["date"]).sort_values("date").reset_index(drop=True)
    answers = pd.read_csv(os.path.join(private, "test.csv")).rename(columns={"count": "births"})
    truth = test[["id"]].merge(answers, on="id", how="left").births.to_numpy(dtype=float)
    assert not np.isnan(truth).any(), "answers do not cover every test id"
    rows = []

    def add(team, pipeline, pred):
        pred = np.asarray(pred, dtype=float)
        assert pred.shape == truth.shape and np.isfinite(pred).all(), team
        rows.append({"teamName": team, "score": mape(truth, pred), "pipeline": pipeline})

    y = train.births.to_numpy(dtype=float)
    full = pd.concat([train.drop(columns="births"), test], ignore_index=True)
    n = len(train)
    last_year = train[train.year == FIRST_TEST_YEAR - 1]
    # Folds as (fit rows, forecast rows) of train, then the final (all of train, test).
    folds = [(np.flatnonzero(train.year < s), np.flatnonzero((train.year >= s) & (train.year < s + HORIZON))) for s in CV_STARTS]

    # 1. Trivial.
    add("constant-mean", "the mean of all of train", np.full(len(test), y.mean()))
    add("constant-median", "the median of all of train", np.full(len(test), np.median(y)))
    add("constant-last-year", "the mean of the last training year (1986)", np.full(len(test), last_year.births.mean()))
    add("constant-last-90-days", "the mean of the last 90 training days", np.full(len(test), y[-90:].mean()))
    for s in range(3):
        noise = np.random.default_rng(s).normal(0, 0.1, len(test))
        add(f"random-{s}", f"the last year's mean times seeded noise (sd 10%, seed {s})", last_year.births.mean() * np.exp(noise))
    for years in [1, 2, 3, 5, 10, 18]:
        recent = train[train.year >= FIRST_TEST_YEAR - years]
        for keys in [["day_of_week"], ["month"], ["day_of_week", "month"], ["month", "day_of_month"]]:
            table = recent.groupby(keys).births.mean()
            pred = test.set_index(keys).index.map(table).to_numpy(dtype=float)
            pred = np.where(np.isnan(pred), recent.births.mean(), pred)
            add(f"mean-by-{'x'.join(k.replace('_', '-') for k in keys)}/last{years}y",
                f"the mean by {' x '.join(keys)} over the last {years} training year(s)", pred)
    series = pd.Series(y, index=train.date)

    def seasonal_naive(lag_days):
        out = []
        for d in test.date:
            back = d - pd.Timedelta(days=lag_days)
            while back > train.date.iloc[-1]:
                back -= pd.Timedelta(days=lag_days)
            out.append(series[back])
        return np.array(out)

    add("seasonal-naive-52w", "the same weekday 52 weeks earlier (repeated for the second year)", seasonal_naive(364))
    add("seasonal-naive-104w", "the same weekday 104 weeks earlier", seasonal_naive(728))
    add("seasonal-naive-365d", "the same date a year earlier", seasonal_naive(365))
    print(f"trivial done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 2. Standard pipelines on calendar features.
    C0 = calendar(full.date, window=0)
    hol0 = [c for c in C0.columns if c.startswith("h:") and c.endswith("+0")]
    sets = {
        "date": C0[["year", "month", "dom", "dow", "doy"]].to_numpy(float),
        "date+holidays": C0[["year", "month", "dom", "dow", "doy", "weekend"] + hol0].to_numpy(float),
        "onehot": np.column_stack([C0.t] + [(C0[c] == v).to_numpy(float) for c, top in (("dow", 7), ("month", 12), ("dom", 31))
                                             for v in range(1, top + 1)]),
    }
    standard = [
        ("linear", lambda: LinearRegression()),
        ("ridge-a1", lambda: make_pipeline(StandardScaler(), Ridge(alpha=1.0))),
        ("ridge-a100", lambda: make_pipeline(StandardScaler(), Ridge(alpha=100.0))),
        ("tree-d4", lambda: DecisionTreeRegressor(max_depth=4, random_state=0)),
        ("tree-d8", lambda: DecisionTreeRegressor(max_depth=8, random_state=0)),
        ("tree-dNone", lambda: DecisionTreeRegressor(random_state=0)),
        ("forest-n100", lambda: RandomForestRegressor(n_estimators=100, min_samples_leaf=2, random_state=0)),
        ("extra-trees-n100", lambda: ExtraTreesRegressor(n_estimators=100, min_samples_leaf=2, random_state=0)),
        ("gbm-n200", lambda: GradientBoostingRegressor(n_estimators=200, max_depth=3, random_state=0)),
        ("hist-gbm", lambda: HistGradientBoostingRegressor(max_iter=300, random_state=0)),
        ("knn-k5", lambda: make_pipeline(StandardScaler(), KNeighborsRegressor(5))),
        ("knn-k25", lambda: make_pipeline(StandardScaler(), KNeighborsRegressor(25))),
        ("xgb-default", lambda: xgb.XGBRegressor(n_estimators=400, learning_rate=0.05, max_depth=6, subsample=0.8, colsample_bytree=0.8,
                                                 n_jobs=1, random_state=0)),
        ("mlp-64", lambda: make_pipeline(StandardScaler(), MLPRegressor((64,), max_iter=400, early_stopping=True, random_state=0))),
    ]
    for budget in [2, 3, 4, 6, 8, 10, 14, 18]:
        fit = np.flatnonzero(train.year >= FIRST_TEST_YEAR - budget)
        for kind, X in sets.items():
            for name, make in standard:
                if budget in (2, 4, 8, 14) and name.startswith(("xgb", "mlp", "gbm", "forest")):
                    continue  # the slower models: the main budgets only
                if kind == "onehot" and name.startswith(("tree", "forest", "extra", "gbm", "hist", "knn", "xgb")):
                    continue  # indicator columns add nothing for trees over the date parts
                for target in ["count", "log"]:
                    if target == "log" and not name.startswith(("linear", "ridge", "forest", "xgb", "mlp")):
                        continue
                    if name.startswith("mlp") and (target == "count" or budget in (3, 10)):
                        continue  # the slowest standard model: a few budgets only
                    yt = np.log(y[fit]) if target == "log" else y[fit]
                    yt_mean = yt.mean()
                    pred = make().fit(X[fit], yt - yt_mean).predict(X[n:]) + yt_mean
                    pred = np.exp(pred) if target == "log" else pred
                    add(f"{name}/{kind}/{target}/last{budget}y", f"{name} on {kind} features, {target} target, the last {budget} years of train", pred)
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 3. Level x pattern.
    windows = {w: calendar(full.date, window=w) for w in (0, 2, 4)}
    ratio = np.log(y / train.groupby("year").births.transform("mean").to_numpy())
    splits = folds + [(np.arange(n), np.arange(n, n + len(test)))]
    rows_years = full.year.to_numpy()

    def levels_for(fit_rows, pred_rows):
        means = year_means(train.iloc[fit_rows])
        out = {}
        for m in LEVELS:
            per_year = dict(zip(sorted(set(rows_years[pred_rows])), level_forecast(means, sorted(set(rows_years[pred_rows])), m)))
            out[m] = np.array([per_year[v] for v in rows_years[pred_rows]])
        return out

    level_cache = [levels_for(a, b) for a, b in splits]
    pattern_lib = {}

    def truth_of(b):
        return y[b] if b.max() < n else truth

    def enter_pattern(team, pipeline, patterns, keep=True, every_level=False):
        """patterns: log-ratio forecasts for each split (CV folds, then test). Chooses the level method by CV."""
        cv = {m: float(np.mean([mape(truth_of(b), np.exp(p) * level_cache[k][m]) for k, ((a, b), p) in
                                enumerate(zip(folds, patterns[:-1]))])) for m in LEVELS}
        best = min(cv, key=cv.get)
        add(team, f"{pipeline}; level {best} chosen by CV (CV MAPE {cv[best]:.4f})", np.exp(patterns[-1]) * level_cache[-1][best])
        if every_level:
            for m in LEVELS:
                if m != best:
                    add(f"{team}/level-{m}", f"{pipeline}; level {m} (CV MAPE {cv[m]:.4f})", np.exp(patterns[-1]) * level_cache[-1][m])
        if keep:
            pattern_lib[team] = (patterns, cv[best])
        return cv[best]

    def fit_rows_in_window(a, years):
        """The fit rows among `a` that fall in the last `years` years before its forecast period."""
        end = rows_years[a].max()
        return a[rows_years[a] > end - years]

    def ridge_patterns(window, years, alpha, fourier, dow_trend, season_trend, holiday=True, half_life=None):
        D = pattern_design(windows[window], fourier, dow_trend, season_trend, holiday).to_numpy()
        out = []
        for a, b in splits:
            a = fit_rows_in_window(a, years)
            w = None
            if half_life:
                age = rows_years[a].max() - rows_years[a]
                w = 0.5 ** (age / half_life)
            m = Ridge(alpha=alpha).fit(D[a], ratio[a], sample_weight=w)
            out.append(m.predict(D[b]))
        return out

    main_configs = []
    for window in (0, 2, 4):
        for years in (5, 8, 12, 18):
            for fourier, dow_trend, season_trend in [(4, 1, 0), (8, 1, 0), (12, 1, 0), (8, 2, 0), (8, 1, 2), (12, 2, 2), (8, 0, 0)]:
                for alpha in ((0.1, 3.0) if window == 2 else (0.1,)):
                    pats = ridge_patterns(window, years, alpha, fourier, dow_trend, season_trend)
                    name = f"ridge-pattern/w{window}/last{years}y/f{fourier}/dt{dow_trend}/st{season_trend}/a{alpha}"
                    score = enter_pattern(name, f"ridge on log ratio to the year's mean: holiday window {window}, last {years} years, "
                                          f"{fourier} Fourier pairs, weekday trend degree {dow_trend}, seasonal trend pairs {season_trend}, alpha {alpha}",
                                          pats, keep=alpha == 0.1)
                    main_configs.append((score, window, years, fourier, dow_trend, season_trend))
    for years in (5, 8, 12, 18):
        pats = ridge_patterns(0, years, 0.1, 8, 1, 0, holiday=False)
        enter_pattern(f"ridge-pattern/no-holidays/last{years}y", f"ridge on log ratio, weekdays and 8 Fourier pairs only, last {years} years", pats)
    main_configs.sort()
    _, bw, by, bf, bd, bs = main_configs[0]
    for half_life in (2, 4, 8):
        pats = ridge_patterns(bw, 18, 0.1, bf, bd, bs, half_life=half_life)
        enter_pattern(f"ridge-pattern/best/half-life{half_life}y", f"the CV-best ridge pattern configuration (window {bw}, {bf} Fourier, trends {bd}/{bs}) "
                      f"on all years with recency weights, half-life {half_life} years", pats)
    best_ridge = ridge_patterns(bw, by, 0.1, bf, bd, bs)
    enter_pattern("ridge-pattern/cv-best", f"the CV-best ridge pattern (window {bw}, last {by} years, {bf} Fourier, trends {bd}/{bs})",
                  best_ridge, every_level=True)
    print(f"ridge patterns done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Tree models on the pattern target.
    tree_cols = ["t", "month", "dom", "dow", "doy", "weekend", "observed", "13th", "leap-day", "holiday_code", "holiday_offset"]
    TX = windows[0][tree_cols].to_numpy(float)

    def model_patterns(make, years, X=TX, target=None):
        target = ratio if target is None else target
        out = []
        for a, b in splits:
            a = fit_rows_in_window(a, years)
            out.append(make().fit(X[a], target[a]).predict(X[b]))
        return out

    tree_models = [
        ("forest-leaf3", lambda: RandomForestRegressor(n_estimators=100, min_samples_leaf=3, max_features=0.6, random_state=0)),
        ("extra-trees-leaf3", lambda: ExtraTreesRegressor(n_estimators=100, min_samples_leaf=3, max_features=0.8, random_state=0)),
        ("hist-gbm-lr0.05", lambda: HistGradientBoostingRegressor(learning_rate=0.05, max_iter=400, min_samples_leaf=10, random_state=0)),
        ("gbm-d4", lambda: GradientBoostingRegressor(n_estimators=300, learning_rate=0.05, max_depth=4, subsample=0.8, random_state=0)),
    ]
    for name, make in tree_models:
        for years in (8, 18):
            enter_pattern(f"{name}-pattern/last{years}y", f"{name} on calendar and holiday features, log ratio target, last {years} years",
                          model_patterns(make, years))
    # Ridge first, boosting on its residuals.
    D = pattern_design(windows[bw], bf, bd, bs).to_numpy()
    for years in (8, 18):
        for depth in (3, 5):
            out = []
            for a, b in splits:
                a = fit_rows_in_window(a, by)
                r = Ridge(alpha=0.1).fit(D[a], ratio[a])
                a2 = fit_rows_in_window(a, years) if years < by else a
                res = ratio[a2] - r.predict(D[a2])
                g = xgb.XGBRegressor(n_estimators=300, learning_rate=0.03, max_depth=depth, subsample=0.8, colsample_bytree=0.8,
                                     reg_lambda=5.0, n_jobs=1, random_state=0).fit(TX[a2], res)
                out.append(r.predict(D[b]) + g.predict(TX[b]))
            enter_pattern(f"ridge+xgb-residual/d{depth}/last{years}y", f"the CV-best ridge pattern plus xgboost (depth {depth}) on its residuals", out)
    print(f"tree patterns done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # xgboost on the pattern by random search, early stopping inside each fold.
    rng = np.random.default_rng(1969)
    draws = []
    for i in range(20):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.03), np.log(0.3)))), max_depth=int(rng.integers(3, 9)),
                      min_child_weight=float(rng.choice([1, 3, 10])), subsample=float(rng.uniform(0.6, 1.0)),
                      colsample_bytree=float(rng.uniform(0.5, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))))
        years = int(rng.choice([6, 10, 18]))
        out, best = [], []
        for a, b in folds:
            a = fit_rows_in_window(a, years)
            m = xgb.XGBRegressor(n_estimators=800, early_stopping_rounds=40, n_jobs=1, random_state=0, **params)
            m.fit(TX[a], ratio[a], eval_set=[(TX[b], ratio[b])], verbose=False)
            best.append(m.best_iteration + 1)
            out.append(m.predict(TX[b], iteration_range=(0, m.best_iteration + 1)))
        rounds = max(20, int(np.mean(best)))
        a = fit_rows_in_window(np.arange(n), years)
        out.append(xgb.XGBRegressor(n_estimators=rounds, n_jobs=1, random_state=0, **params).fit(TX[a], ratio[a]).predict(TX[n:]))
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        score = enter_pattern(f"xgb-pattern/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; last {years} years, {rounds} rounds)", out, keep=False)
        draws.append((score, i, params, years, rounds, out))
    draws.sort(key=lambda d: d[0])
    for top in (3, 5):
        avg = [np.mean([d[5][k] for d in draws[:top]], axis=0) for k in range(len(splits))]
        enter_pattern(f"xgb-pattern/top{top}-avg", f"average of the {top} best xgboost draws by CV", avg)
    for rank in range(2):
        score, i, params, years, rounds, out = draws[rank]
        a = fit_rows_in_window(np.arange(n), years)
        seeds = [xgb.XGBRegressor(n_estimators=rounds, n_jobs=1, random_state=s, **params).fit(TX[a], ratio[a]).predict(TX[n:]) for s in range(1, 4)]
        enter_pattern(f"xgb-pattern/cv-rank{rank + 1}-3seeds", f"xgboost draw {i} (CV rank {rank + 1}) refit with 3 more seeds averaged",
                      out[:-1] + [np.mean(seeds, axis=0)])
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Whole-series regressions of the log count with a time trend (level and pattern in one model).
    for window in (0, 2):
        for years in (6, 8, 10, 18):
            for degree in (1, 2):
                D = pattern_design(windows[window], 8, 1, 0).assign(t1=windows[window].t, t2=windows[window].t ** 2 if degree == 2 else 0).to_numpy()
                for alpha in (0.1, 10.0):
                    a = fit_rows_in_window(np.arange(n), years)
                    pred = np.exp(Ridge(alpha=alpha).fit(D[a], np.log(y[a])).predict(D[n:]))
                    add(f"ridge-log-trend/w{window}/last{years}y/deg{degree}/a{alpha}",
                        f"ridge on the log count with a degree-{degree} time trend, weekdays, 8 Fourier pairs and holiday window {window}, "
                        f"last {years} years, alpha {alpha}", pred)
    print(f"trend regressions done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Blends of pattern models in log space, with the level the CV prefers.
    ranked = sorted(pattern_lib, key=lambda k: pattern_lib[k][1])
    for top in (2, 3, 5, 10):
        members = ranked[:top]
        avg = [np.mean([pattern_lib[k][0][s] for k in members], axis=0) for s in range(len(splits))]
        enter_pattern(f"blend/top{top}", "average log-ratio pattern of " + ", ".join(members), avg, keep=False)
    families = {}
    for k in ranked:
        families.setdefault(k.split("/")[0], k)
    fam = list(families.values())
    for top in (2, 3, len(fam)):
        members = fam[:top]
        avg = [np.mean([pattern_lib[k][0][s] for k in members], axis=0) for s in range(len(splits))]
        enter_pattern(f"blend/families-top{top}", "average pattern of the best model of each family: " + ", ".join(members), avg, keep=False)
    pool = ranked[:30]
    for steps in (5, 10):
        chosen = []
        for _ in range(steps):
            def cv_of(extra):
                members = chosen + [extra]
                avg = [np.mean([pattern_lib[k][0][s] for k in members], axis=0) for s in range(len(folds))]
                return np.mean([mape(y[b], np.exp(p) * level_cache[s]["flat"]) for s, ((_, b), p) in enumerate(zip(folds, avg))])
            chosen.append(min(pool, key=cv_of))
        avg = [np.mean([pattern_lib[k][0][s] for k in chosen], axis=0) for s in range(len(splits))]
        enter_pattern(f"blend/greedy-{steps}", f"greedy forward blend ({steps} steps, with replacement) of patterns: " + ", ".join(sorted(set(chosen))),
                      avg, keep=False)
    stack_pool = ranked[:15]
    A = np.column_stack([np.concatenate([pattern_lib[k][0][s] for s in range(len(folds))]) for k in stack_pool])
    target = np.concatenate([ratio[b] for _, b in folds])
    w, _ = nnls(A, target)
    w = w / w.sum()
    stacked = [sum(w[j] * pattern_lib[k][0][s] for j, k in enumerate(stack_pool)) for s in range(len(splits))]
    enter_pattern("stack/nnls", "non-negative least-squares stack of 15 pattern models on the CV forecasts (weights normalised)", stacked,
                  keep=False, every_level=True)

    write_board(rows, OUT, lower_is_better=True, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

#!/usr/bin/python3
"""Reference leaderboard for the offline `chicago-ridership` competition.

Fits a documented population of forecasters on the public train split (daily entries at the
Clark/Lake L station, 2001-01-22 to 2014-08-28, with the day's weather and games), scores each
by RMSE on the private answers (the 731 days from 2014-08-29 to 2016-08-28), and writes
leaderboard.csv beside this script (best, i.e. lowest, first). The scores form a *reference
population* of pipelines, not a leaderboard of human teams. Nothing but the final scoring reads
the answers: every window, level method, hyper-parameter, round count and blend weight is chosen
by forward-chaining cross-validation inside train, three folds that each forecast two whole
years (from 2008-08-29, 2010-08-29 and 2012-08-29) from every day before them, as the test
period is forecast.

The population (about 540 entries), bottom to top:

1. Trivial: constants (the mean or median of all of train, of its last year or last 90 days);
   seeded random noise around the last year's mean; the mean by weekday, by month or by
   weekday x month over the last 1 ... 13 years; seasonal naive forecasts (the same weekday 52
   or 104 weeks earlier).
2. Standard pipelines, every combination of
   - feature sets "date" (year, month, day of month, weekday, day of year, as a generic
     pipeline splits a date), "date+weather", "date+weather+games" and "onehot+weather"
     (one-hot weekday and month, a linear time, the weather);
   - models: linear and ridge regression, decision trees, random forests, extra trees,
     gradient boosting, histogram gradient boosting, k-nearest neighbours, default xgboost, an
     MLP;
   - budgets: the last 2, 3, 5 or 8 years of train, or all of it (the slower models: 3 and 8
     years and all of it);
   - the raw count or its logarithm as the target.
   Trees cannot carry the upward trend past the last training year and miss the holidays that
   move, so these spread widely.
3. Strong pipelines that use what is known about a downtown station: the count is a slowly
   moving yearly level times a calendar pattern (weekdays five times the weekend, public
   holidays and the days around Christmas and New Year close to a Sunday, a summer dip, fewer
   riders on days of heavy rain or snow). They are forecast as level x pattern:
   - the level: the mean of the last season year (29 August to 28 August, as the folds cut the
     series), a linear or log-linear trend through the last 3 ... 8 season-year means, their
     mean growth, or a damped Holt trend;
   - the pattern: the log ratio of each day to its season year's mean, fitted by ridge
     regression on weekdays (with time trends), Fourier terms of the day of year, the federal
     holidays (as observed) with the day before and after, the days from Christmas Eve to New
     Year, the day after Thanksgiving, and the weather, over windows of 3 ... 13 years; by
     forests, extra trees, histogram boosting and xgboost on calendar, holiday and weather
     columns; by xgboost on the ridge model's residuals;
   - every pattern model is entered with the level method the CV prefers for it, the best ones
     with every level method; xgboost on the pattern is tuned by random search (24 draws of
     learning rate, depth, child weight, subsampling, column sampling, L2 and window) with
     early stopping inside each CV fold, refit with the folds' mean round count, the best draws
     averaged and seed-averaged;
   - whole-series ridge regressions of the log count with a time trend, for comparison;
   - blends: averages of the best pattern models in log space, greedy forward selection on
     the CV forecasts, and a non-negative least-squares stack.

Runtime: about 5 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1); everything is
seeded, so a rerun writes the same file.

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c chicago-ridership --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/chicago-ridership/leaderboard.py /tmp/lb-data
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
from pandas.tseries.holiday import USFederalHolidayCalendar  # noqa: E402
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
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "leaderboard.csv")
FIRST_TEST_DAY = pd.Timestamp("2014-08-29")
# Forward-chaining folds: each forecasts two whole season years from every day before them.
CV_STARTS = [2008, 2010, 2012]
HORIZON = 2
ORIGIN = pd.Timestamp("2014-08-29")
WEATHER = ["temp_min", "temp", "temp_max", "temp_change", "dew", "humidity", "pressure", "pressure_change", "wind", "wind_max",
           "gust", "gust_max", "percip", "percip_max", "weather_rain", "weather_snow", "weather_cloud", "weather_storm"]
GAMES = ["Blackhawks_Away", "Blackhawks_Home", "Bulls_Away", "Bulls_Home", "Bears_Away", "Bears_Home", "WhiteSox_Away",
         "WhiteSox_Home", "Cubs_Away", "Cubs_Home"]


def rmse(y, p):
    """RMSE, as the grader computes it."""
    return float(np.sqrt(np.mean((np.asarray(p, float) - y) ** 2)))


def season_year(dates):
    """The season year of each day: 29 August to 28 August, named by the year it starts in."""
    d = pd.DatetimeIndex(dates)
    return np.where((d.month > 8) | ((d.month == 8) & (d.day >= 29)), d.year, d.year - 1)


# ---------------------------------------------------------------- calendar

def calendar(dates, window=1):
    """Label-free calendar columns of a sequence of days (holiday flags `window` days either side)."""
    d = pd.DatetimeIndex(dates)
    X = pd.DataFrame(index=range(len(d)))
    X["t"] = (d - ORIGIN).days.values / 365.25
    X["year"] = d.year
    X["month"] = d.month
    X["dom"] = d.day
    X["dow"] = d.weekday + 1
    X["doy"] = d.dayofyear
    X["weekend"] = (d.weekday >= 5).astype(float)
    stamps = pd.Series(d)
    rules = USFederalHolidayCalendar().rules
    observed = {}
    for rule in rules:
        for day in rule.dates(pd.Timestamp(d.min().year - 1, 1, 1), pd.Timestamp(d.max().year + 1, 12, 31)):
            observed[pd.Timestamp(day)] = rule.name
    names = sorted(set(observed.values()))
    for code, name in enumerate(names, start=1):
        days = {k for k, v in observed.items() if v == name}
        for off in range(-window, window + 1):
            X[f"h:{name}{off:+d}"] = stamps.isin({x + pd.Timedelta(days=off) for x in days}).astype(float).values
    X["holiday"] = stamps.isin(set(observed)).astype(float).values
    thanksgiving = {k for k, v in observed.items() if v.startswith("Thanksgiving")}
    X["black-friday"] = stamps.isin({x + pd.Timedelta(days=1) for x in thanksgiving}).astype(float).values
    for dd in range(20, 32):
        X[f"dec{dd}"] = ((d.month == 12) & (d.day == dd)).astype(float)
    for dd in range(1, 3):
        X[f"jan{dd}"] = ((d.month == 1) & (d.day == dd)).astype(float)
    X["xmas-week"] = (((d.month == 12) & (d.day >= 24)) | ((d.month == 1) & (d.day <= 1))).astype(float)
    # The nearest holiday within three days, as a code and a signed offset, for tree models.
    nearest = {}
    for day, name in observed.items():
        for off in range(-3, 4):
            key = day + pd.Timedelta(days=off)
            if key not in nearest or abs(off) < abs(nearest[key][1]):
                nearest[key] = (names.index(name) + 1, off)
    X["holiday_code"] = [nearest.get(x, (0, 0))[0] for x in d]
    X["holiday_offset"] = [nearest.get(x, (0, 9))[1] for x in d]
    return X


def pattern_design(C, W, fourier=6, dow_trend=1, holiday=True, weather=True):
    """Columns of the log-ratio ridge model: weekdays (with time trends), Fourier terms, holidays, the weather."""
    t = C["t"].to_numpy()
    cols = {}
    for k in range(1, 8):
        w = (C["dow"] == k).to_numpy(dtype=float)
        cols[f"dow{k}"] = w
        for p in range(1, dow_trend + 1):
            cols[f"dow{k}t{p}"] = w * t ** p
    phase = 2 * np.pi * (C["doy"].to_numpy() - 1) / 365.25
    weekday = (C["weekend"] == 0).to_numpy(dtype=float)
    for k in range(1, fourier + 1):
        s, c = np.sin(k * phase), np.cos(k * phase)
        cols[f"sin{k}"], cols[f"cos{k}"] = s, c
        # Summer and the holidays weigh on commuters, not on weekend riders: a weekday seasonality of its own.
        cols[f"sin{k}wd"], cols[f"cos{k}wd"] = s * weekday, c * weekday
    if holiday:
        for c in C.columns:
            if c.startswith(("h:", "dec", "jan")) or c in ("holiday", "black-friday", "xmas-week"):
                cols[c] = C[c].to_numpy(dtype=float)
                cols[c + "xwd"] = cols[c] * weekday
    if weather:
        for c in W.columns:
            cols[c] = W[c].to_numpy(dtype=float)
            cols[c + "xwd"] = cols[c] * weekday
    return pd.DataFrame(cols)


# ---------------------------------------------------------------- levels

LEVELS = ["flat"] + [f"linear-{k}" for k in (3, 4, 5, 6, 8)] + [f"loglinear-{k}" for k in (3, 5, 8)] + \
         [f"growth-{k}" for k in (3, 5, 8)] + ["holt-8", "holt-9"]


# ---------------------------------------------------------------- main

def main(root):
    started = time.process_time()
    public = os.path.join(root, "chicago-ridership", "prepared", "public")
    private = os.path.join(root, "chicago-ridership", "prepared", "private")
    train = pd.read_csv(os.path.join(public, "train.csv"), parse_dates=["date"]).sort_values("date").reset_index(drop=True)
    test = pd.read_csv(os.path.join(public, "test.csv"), parse_dates=["date"]).sort_values("date").reset_index(drop=True)
    answers = pd.read_csv(os.path.join(private, "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left").ridership.to_numpy(dtype=float)
    assert not np.isnan(truth).any(), "answers do not cover every test id"
    rows = []

    def add(team, pipeline, pred):
        pred = np.asarray(pred, dtype=float)
        assert pred.shape == truth.shape and np.isfinite(pred).all(), team
        rows.append({"teamName": team, "score": rmse(truth, pred), "pipeline": pipeline})

    y = train.ridership.to_numpy(dtype=float)
    full = pd.concat([train.drop(columns="ridership"), test], ignore_index=True)
    n = len(train)
    sy = season_year(full.date)
    last_sy = FIRST_TEST_DAY.year - 1
    last_year = train[sy[:n] == last_sy]
    folds = [(np.flatnonzero(sy[:n] < s), np.flatnonzero((sy[:n] >= s) & (sy[:n] < s + HORIZON))) for s in CV_STARTS]

    # 1. Trivial.
    add("constant-mean", "the mean of all of train", np.full(len(test), y.mean()))
    add("constant-median", "the median of all of train", np.full(len(test), np.median(y)))
    add("constant-last-year", "the mean of the last training year (2013-08-29 to 2014-08-28)", np.full(len(test), last_year.ridership.mean()))
    add("constant-last-90-days", "the mean of the last 90 training days", np.full(len(test), y[-90:].mean()))
    for s in range(3):
        noise = np.random.default_rng(s).normal(0, 0.3, len(test))
        add(f"random-{s}", f"the last year's mean times seeded noise (sd 30%, seed {s})", last_year.ridership.mean() * np.exp(noise))
    parts = pd.DataFrame({"weekday": full.date.dt.weekday, "month": full.date.dt.month, "weekend": full.date.dt.weekday >= 5})
    for years in [1, 2, 3, 5, 8, 13]:
        recent = np.flatnonzero(sy[:n] > last_sy - years)
        for keys in [["weekend"], ["weekday"], ["month"], ["weekday", "month"]]:
            table = train.iloc[recent].assign(**{k: parts[k].iloc[recent].values for k in keys}).groupby(keys).ridership.mean()
            pred = parts.iloc[n:].set_index(keys).index.map(table).to_numpy(dtype=float)
            pred = np.where(np.isnan(pred), y[recent].mean(), pred)
            add(f"mean-by-{'x'.join(keys)}/last{years}y", f"the mean by {' x '.join(keys)} over the last {years} training year(s)", pred)
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
    print(f"trivial done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 2. Standard pipelines.
    C1 = calendar(full.date, window=1)
    Wx = full[WEATHER].astype(float)
    Gx = full[GAMES].astype(float)
    date_cols = C1[["year", "month", "dom", "dow", "doy"]]
    sets = {
        "date": date_cols.to_numpy(float),
        "date+weather": pd.concat([date_cols, Wx], axis=1).to_numpy(float),
        "date+weather+games": pd.concat([date_cols, Wx, Gx], axis=1).to_numpy(float),
        "onehot+weather": np.column_stack([C1.t] + [(C1[c] == v).to_numpy(float) for c, top in (("dow", 7), ("month", 12))
                                                    for v in range(1, top + 1)] + [Wx.to_numpy(float)]),
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
    slow = ("xgb", "mlp", "gbm", "forest", "extra")
    for budget in [2, 3, 5, 8, 14]:
        fit = np.flatnonzero(sy[:n] > last_sy - budget)
        span = "all of train" if budget == 14 else f"the last {budget} years of train"
        for kind, X in sets.items():
            for name, make in standard:
                if budget in (2, 5) and name.startswith(slow):
                    continue  # the slower models: three budgets only
                if kind == "onehot+weather" and name.startswith(("tree", "forest", "extra", "gbm", "hist", "xgb")):
                    continue  # indicator columns add nothing for trees over the date parts
                for target in ["count", "log"]:
                    if target == "log" and not name.startswith(("linear", "ridge", "forest", "xgb", "mlp", "hist")):
                        continue
                    yt = np.log(y[fit]) if target == "log" else y[fit]
                    yt_mean = yt.mean()
                    pred = make().fit(X[fit], yt - yt_mean).predict(X[n:]) + yt_mean
                    pred = np.exp(pred) if target == "log" else pred
                    add(f"{name}/{kind}/{target}/last{budget}y", f"{name} on {kind} features, {target} target, {span}", pred)
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 3. Level x pattern.
    windows = {w: calendar(full.date, window=w) for w in (0, 1, 2)}
    means_all = pd.Series(y).groupby(sy[:n]).mean()
    ratio = np.log(y / pd.Series(y).groupby(sy[:n]).transform("mean").to_numpy())
    splits = folds + [(np.arange(n), np.arange(n, n + len(test)))]

    def levels_for(fit_rows, pred_rows):
        means = pd.Series(y[fit_rows]).groupby(sy[fit_rows]).mean()
        # The first season year is a partial one (the series starts in January 2001).
        means = means.iloc[1:] if means.index[0] == 2000 else means
        years = sorted(set(sy[pred_rows]))
        out = {}
        for m in LEVELS:
            per_year = dict(zip(years, level_forecast(means, years, m)))
            out[m] = np.array([per_year[v] for v in sy[pred_rows]])
        return out

    level_cache = [levels_for(a, b) for a, b in splits]
    assert len(means_all) > 8
    pattern_lib = {}

    def truth_of(b):
        return y[b] if b.max() < n else truth

    def enter_pattern(team, pipeline, patterns, keep=True, every_level=False):
        """patterns: log-ratio forecasts for each split (CV folds, then test). Chooses the level method by CV."""
        cv = {m: float(np.mean([rmse(truth_of(b), np.exp(p) * level_cache[k][m]) for k, ((a, b), p) in
                                enumerate(zip(folds, patterns[:-1]))])) for m in LEVELS}
        best = min(cv, key=cv.get)
        add(team, f"{pipeline}; level {best} chosen by CV (CV RMSE {cv[best]:.4f})", np.exp(patterns[-1]) * level_cache[-1][best])
        if every_level:
            for m in LEVELS:
                if m != best:
                    add(f"{team}/level-{m}", f"{pipeline}; level {m} (CV RMSE {cv[m]:.4f})", np.exp(patterns[-1]) * level_cache[-1][m])
        if keep:
            pattern_lib[team] = (patterns, cv[best])
        return cv[best]

    def fit_rows_in_window(a, years):
        """The fit rows among `a` that fall in the last `years` season years before its forecast period."""
        end = sy[a].max()
        return a[sy[a] > end - years]

    def ridge_patterns(window, years, alpha, fourier, dow_trend, holiday=True, weather=True, half_life=None):
        D = pattern_design(windows[window], Wx, fourier, dow_trend, holiday, weather)
        D = StandardScaler().fit(D.iloc[:n]).transform(D)
        out = []
        for a, b in splits:
            a = fit_rows_in_window(a, years)
            w = None
            if half_life:
                w = 0.5 ** ((sy[a].max() - sy[a]) / half_life)
            out.append(Ridge(alpha=alpha).fit(D[a], ratio[a], sample_weight=w).predict(D[b]))
        return out

    main_configs = []
    for window in (0, 1, 2):
        for years in (3, 5, 8, 13):
            for fourier, dow_trend in [(3, 0), (6, 0), (6, 1), (10, 1), (6, 2)]:
                for alpha in ((1.0, 30.0) if window == 1 else (1.0,)):
                    pats = ridge_patterns(window, years, alpha, fourier, dow_trend)
                    name = f"ridge-pattern/w{window}/last{years}y/f{fourier}/dt{dow_trend}/a{alpha:g}"
                    score = enter_pattern(name, f"ridge on log ratio to the season year's mean: holiday window {window}, last {years} years, "
                                          f"{fourier} Fourier pairs, weekday trend degree {dow_trend}, weather, alpha {alpha:g}",
                                          pats, keep=alpha == 1.0)
                    main_configs.append((score, window, years, fourier, dow_trend))
    for years in (3, 5, 8, 13):
        enter_pattern(f"ridge-pattern/no-holidays/last{years}y", f"ridge on log ratio, weekdays, 6 Fourier pairs and the weather only, last {years} years",
                      ridge_patterns(1, years, 1.0, 6, 1, holiday=False))
        enter_pattern(f"ridge-pattern/no-weather/last{years}y", f"ridge on log ratio, weekdays, 6 Fourier pairs and holidays only, last {years} years",
                      ridge_patterns(1, years, 1.0, 6, 1, weather=False))
    main_configs.sort()
    _, bw, by, bf, bd = main_configs[0]
    for half_life in (2, 4, 8):
        enter_pattern(f"ridge-pattern/best/half-life{half_life}y", f"the CV-best ridge pattern configuration (window {bw}, {bf} Fourier, trend {bd}) "
                      f"on all years with recency weights, half-life {half_life} years", ridge_patterns(bw, 14, 1.0, bf, bd, half_life=half_life))
    enter_pattern("ridge-pattern/cv-best", f"the CV-best ridge pattern (window {bw}, last {by} years, {bf} Fourier, trend {bd})",
                  ridge_patterns(bw, by, 1.0, bf, bd), every_level=True)
    print(f"ridge patterns done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Tree models on the pattern target.
    tree_cols = ["t", "month", "dom", "dow", "doy", "weekend", "holiday", "black-friday", "xmas-week", "holiday_code", "holiday_offset"]
    TX = np.column_stack([windows[0][tree_cols].to_numpy(float), Wx.to_numpy(float), Gx.to_numpy(float)])

    def model_patterns(make, years, X=TX, target=None):
        target = ratio if target is None else target
        out = []
        for a, b in splits:
            a = fit_rows_in_window(a, years)
            out.append(make().fit(X[a], target[a]).predict(X[b]))
        return out

    tree_models = [
        ("forest-leaf3", lambda: RandomForestRegressor(n_estimators=150, min_samples_leaf=3, max_features=0.6, random_state=0)),
        ("extra-trees-leaf3", lambda: ExtraTreesRegressor(n_estimators=150, min_samples_leaf=3, max_features=0.8, random_state=0)),
        ("hist-gbm-lr0.05", lambda: HistGradientBoostingRegressor(learning_rate=0.05, max_iter=400, min_samples_leaf=10, random_state=0)),
        ("gbm-d4", lambda: GradientBoostingRegressor(n_estimators=300, learning_rate=0.05, max_depth=4, subsample=0.8, random_state=0)),
    ]
    for name, make in tree_models:
        for years in (5, 13):
            enter_pattern(f"{name}-pattern/last{years}y", f"{name} on calendar, holiday, weather and game columns, log ratio target, last {years} years",
                          model_patterns(make, years))
    # Ridge first, boosting on its residuals.
    D = StandardScaler().fit_transform(pattern_design(windows[bw], Wx, bf, bd))
    for years in (5, 13):
        for depth in (3, 5):
            out = []
            for a, b in splits:
                a = fit_rows_in_window(a, by)
                r = Ridge(alpha=1.0).fit(D[a], ratio[a])
                a2 = fit_rows_in_window(a, years) if years < by else a
                g = xgb.XGBRegressor(n_estimators=300, learning_rate=0.03, max_depth=depth, subsample=0.8, colsample_bytree=0.8,
                                     reg_lambda=5.0, n_jobs=1, random_state=0).fit(TX[a2], ratio[a2] - r.predict(D[a2]))
                out.append(r.predict(D[b]) + g.predict(TX[b]))
            enter_pattern(f"ridge+xgb-residual/d{depth}/last{years}y", f"the CV-best ridge pattern plus xgboost (depth {depth}, last {years} years) "
                          "on its residuals", out)
    print(f"tree patterns done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # xgboost on the pattern by random search, early stopping inside each fold.
    rng = np.random.default_rng(2014)
    draws = []
    for i in range(24):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.02), np.log(0.3)))), max_depth=int(rng.integers(3, 9)),
                      min_child_weight=float(rng.choice([1, 3, 10])), subsample=float(rng.uniform(0.6, 1.0)),
                      colsample_bytree=float(rng.uniform(0.5, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))))
        years = int(rng.choice([4, 7, 14]))
        out, best = [], []
        for a, b in folds:
            a = fit_rows_in_window(a, years)
            m = xgb.XGBRegressor(n_estimators=1000, early_stopping_rounds=40, n_jobs=1, random_state=0, **params)
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
    for window in (0, 1):
        for years in (3, 5, 8, 14):
            for degree in (1, 2):
                Dw = pattern_design(windows[window], Wx, 6, 1)
                Dw = Dw.assign(t1=windows[window].t, t2=windows[window].t ** 2 if degree == 2 else 0)
                Dw = StandardScaler().fit(Dw.iloc[:n]).transform(Dw)
                for alpha in (1.0, 30.0):
                    a = fit_rows_in_window(np.arange(n), years)
                    pred = np.exp(Ridge(alpha=alpha).fit(Dw[a], np.log(y[a])).predict(Dw[n:]))
                    add(f"ridge-log-trend/w{window}/last{years}y/deg{degree}/a{alpha:g}",
                        f"ridge on the log count with a degree-{degree} time trend, weekdays, 6 Fourier pairs, holiday window {window} "
                        f"and the weather, last {years} years, alpha {alpha:g}", pred)
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
                return np.mean([rmse(y[b], np.exp(p) * level_cache[s]["flat"]) for s, ((_, b), p) in enumerate(zip(folds, avg))])
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

"""Generate the example datasets in examples/ (deterministic: fixed seeds).

    /usr/bin/python3 examples/generate/make_examples.py

Writes examples/sales.csv and examples/air-quality.csv. The data are synthetic
but shaped like real data, with patterns worth finding (seasonality, growth,
correlations, outliers, missing values). Re-running gives byte-identical files.
"""
import os

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
START, END = "2023-01-01", "2024-12-31"

# --------------------------------------------------------------------------- sales

REGIONS = {"West": 0.31, "North": 0.21, "East": 0.19, "South": 0.16, "Central": 0.13}  # West clearly leads
# product: (list price, how often it appears, typical units per order line, base rating, return rate)
PRODUCTS = {
    "Espresso Machine": (449.00, 0.07, 1.4, 4.4, 0.060),
    "Grinder": (129.00, 0.10, 2.0, 4.2, 0.040),
    "Kettle": (59.00, 0.13, 3.0, 4.0, 0.035),
    "French Press": (34.00, 0.13, 3.5, 4.3, 0.025),
    "Milk Frother": (24.99, 0.14, 4.0, 3.6, 0.070),
    "Coffee Beans 1kg": (18.50, 0.25, 9.0, 4.5, 0.010),
    "Filter Papers": (4.99, 0.18, 14.0, 4.1, 0.005),
}
# month factor: January lull, summer dip, November promotions, December peak
MONTH_FACTOR = {1: 0.85, 2: 0.88, 3: 0.97, 4: 1.0, 5: 0.97, 6: 0.82, 7: 0.76, 8: 0.80, 9: 0.98, 10: 1.05, 11: 1.30, 12: 1.65}
WEEKDAY_FACTOR = [0.86, 0.90, 0.94, 0.98, 1.08, 1.30, 1.12]  # Mon..Sun: Saturday busiest
ANNUAL_GROWTH = 0.10  # more order lines each year; with the 2024 price rise revenue grows ~12%
TARGET_LINES = 5330  # order lines; same-day duplicates merge, leaving about 5,000 rows
BULK_ORDERS = [  # (date, region, product, units, discount): a handful of wholesale outliers
    ("2023-03-16", "West", "Coffee Beans 1kg", 1200, 30),
    ("2023-09-05", "North", "Espresso Machine", 60, 25),
    ("2024-02-21", "East", "Grinder", 180, 25),
    ("2024-06-14", "West", "Filter Papers", 4000, 30),
    ("2024-11-25", "Central", "Kettle", 350, 20),
]


def channel_weights(t):
    """Channel mix at time t (0..1 over the two years): Online gains share from Retail."""
    online = 0.36 + 0.12 * t
    wholesale = 0.12
    return np.array([online, 1.0 - online - wholesale, wholesale])  # Online, Retail, Wholesale


def discount_for(rng, month, channel):
    """Discount in whole percent, 0..30: promotions in November and January, deeper for wholesale."""
    options = np.array([0, 5, 10, 15, 20, 25, 30])
    if month == 11:
        weights = [0.20, 0.15, 0.20, 0.15, 0.15, 0.10, 0.05]
    elif month == 1:
        weights = [0.35, 0.20, 0.20, 0.12, 0.08, 0.04, 0.01]
    else:
        weights = [0.55, 0.20, 0.13, 0.07, 0.03, 0.015, 0.005]
    discount = int(rng.choice(options, p=weights))
    if channel == "Wholesale":
        discount = min(30, discount + 10)
    return discount


def make_sales(seed=65):
    rng = np.random.default_rng(seed)
    dates = pd.date_range(START, END, freq="D")
    t = np.arange(len(dates)) / (len(dates) - 1)
    season = np.array([MONTH_FACTOR[d.month] * WEEKDAY_FACTOR[d.weekday()] for d in dates])
    growth = (1 + ANNUAL_GROWTH) ** (np.arange(len(dates)) / 365.25)
    # the run-up to Christmas gets an extra push
    season *= np.where((dates.month == 12) & (dates.day >= 8) & (dates.day <= 23), 1.25, 1.0)
    season *= np.where((dates.month == 12) & (dates.day >= 25), 0.7, 1.0)
    intensity = season * growth
    lines_per_day = rng.poisson(TARGET_LINES * intensity / intensity.sum())

    regions, region_p = list(REGIONS), np.array(list(REGIONS.values()))
    products = list(PRODUCTS)
    product_p = np.array([PRODUCTS[p][1] for p in products])
    product_p /= product_p.sum()
    channels = ["Online", "Retail", "Wholesale"]
    rows = []
    for i, day in enumerate(dates):
        chan_p = channel_weights(t[i])
        day_rows = {}
        for _ in range(lines_per_day[i]):
            region = regions[rng.choice(5, p=region_p)]
            product = products[rng.choice(len(products), p=product_p)]
            channel = channels[rng.choice(3, p=chan_p)]
            if channel == "Wholesale" and day.weekday() >= 5:
                channel = "Retail"  # wholesale ships on weekdays only
            key = (region, product, channel)
            price, _, base_units, base_rating, return_rate = PRODUCTS[product]
            discount = discount_for(rng, day.month, channel)
            inflation = 1.02 if day.year == 2024 else 1.0  # list prices rose 2% in 2024
            channel_price = 0.82 if channel == "Wholesale" else (0.97 if channel == "Online" else 1.0)
            unit_price = round(price * inflation * channel_price * (1 - discount / 100), 2)
            # demand: more units on busy days and with deeper discounts; wholesale lines are bigger
            mean_units = base_units * np.sqrt(season[i]) * (1 + 0.035 * discount)
            mean_units *= 3.5 if channel == "Wholesale" else 1.0
            units = max(1, int(rng.negative_binomial(4, 4 / (4 + mean_units))))
            returns = int(rng.binomial(units, return_rate * (1.4 if channel == "Online" else 1.0)))
            rating = base_rating - (0.15 if channel == "Online" else 0) - 0.8 * (returns > 0) + rng.normal(0, 0.45)
            if key in day_rows:  # order lines of one day/region/product/channel are aggregated into one row
                day_rows[key][4] += units
                day_rows[key][7] += returns
                continue
            day_rows[key] = [day, region, product, channel, units, unit_price, discount, returns, rating]
        rows.extend(day_rows.values())

    frame = pd.DataFrame(rows, columns=["date", "region", "product", "channel", "units", "unit_price",
                                        "discount_pct", "returns", "customer_rating"])
    for when, region, product, units, discount in BULK_ORDERS:
        day = pd.Timestamp(when)
        price = PRODUCTS[product][0] * (1.02 if day.year == 2024 else 1.0) * 0.82 * (1 - discount / 100)
        frame = frame[~((frame.date == day) & (frame.region == region) & (frame["product"] == product) & (frame.channel == "Wholesale"))]
        bulk = (day, region, product, "Wholesale", units, round(price, 2), discount, int(units * 0.004), 4.6)
        frame = pd.concat([frame, pd.DataFrame([bulk], columns=frame.columns)], ignore_index=True)

    frame["customer_rating"] = frame["customer_rating"].clip(1.0, 5.0).round(1)
    frame["revenue"] = (frame["units"] * frame["unit_price"]).round(2)
    frame = frame.sort_values(["date", "region", "product", "channel"], kind="stable").reset_index(drop=True)

    # missing values: ratings are optional, a few discounts and returns were not recorded
    n = len(frame)
    frame.loc[rng.random(n) < 0.03, "customer_rating"] = np.nan
    frame["discount_pct"] = frame["discount_pct"].astype("Int64")
    frame.loc[rng.random(n) < 0.01, "discount_pct"] = pd.NA
    frame["returns"] = frame["returns"].astype("Int64")
    frame.loc[rng.choice(n, size=12, replace=False), "returns"] = pd.NA

    frame["date"] = frame["date"].dt.strftime("%Y-%m-%d")
    columns = ["date", "region", "product", "channel", "units", "unit_price", "revenue", "discount_pct",
               "returns", "customer_rating"]
    return frame[columns]


# --------------------------------------------------------------------------- air quality

# city: (pm25 base µg/m³, pm10/pm25 ratio, no2 base ppb, mean °C, seasonal swing °C, humidity %, mean wind m/s)
CITIES = {
    "Riverton": (38.0, 1.75, 31.0, 13.0, 11.0, 62.0, 2.1),   # industrial valley, little wind: markedly more polluted
    "Northbridge": (14.0, 1.65, 22.0, 9.0, 10.0, 74.0, 4.2),
    "Port Ellis": (11.0, 1.90, 17.0, 12.0, 6.0, 80.0, 5.6),  # coastal and windy
    "Highmoor": (9.5, 1.60, 12.0, 6.0, 12.0, 70.0, 4.8),
    "Ashcombe": (16.5, 1.70, 26.0, 15.0, 9.0, 58.0, 3.4),
    "Sunvale": (13.0, 2.10, 19.0, 21.0, 8.0, 45.0, 3.7),     # dry and dusty: high pm10 share
}
GAP_CITY = "Ashcombe"
STATION_OUTAGE = ("2023-08-03", "2023-08-16")  # no rows at all: the station logger was down
SENSOR_GAPS = [("2023-11-20", "2023-11-27"), ("2024-03-02", "2024-03-12"), ("2024-09-15", "2024-09-19")]  # readings blank
# EPA PM2.5 24-hour breakpoints (2024 revision) for the categories this dataset uses
AQI_BREAKS = [(9.0, "Good"), (35.4, "Moderate"), (55.4, "Unhealthy for Sensitive Groups"), (125.4, "Unhealthy")]


def ar1(rng, n, phi, sd):
    """A stationary AR(1) series: persistent day-to-day noise (weather spells, pollution episodes)."""
    noise = rng.normal(0, sd * np.sqrt(1 - phi ** 2), n)
    out = np.empty(n)
    out[0] = rng.normal(0, sd)
    for i in range(1, n):
        out[i] = phi * out[i - 1] + noise[i]
    return out


def soft_cap(values, knee=90.0, limit=124.0):
    """Compress the top of the range so no day leaves the 'Unhealthy' band."""
    span = limit - knee
    return np.where(values > knee, knee + span * (1 - np.exp(-(values - knee) / span)), values)


def aqi_category(pm25):
    if pd.isna(pm25):
        return None
    for upper, label in AQI_BREAKS:
        if pm25 <= upper:
            return label
    return "Unhealthy"


def make_air_quality(seed=20240101):
    rng = np.random.default_rng(seed)
    dates = pd.date_range(START, END, freq="D")
    n = len(dates)
    winter = np.cos(2 * np.pi * (dates.dayofyear.to_numpy() - 15) / 365.25)  # +1 mid-January, -1 mid-July
    weekday = dates.weekday.to_numpy() < 5
    frames = []
    for city, (pm_base, coarse, no2_base, temp_mean, swing, humid, wind_mean) in CITIES.items():
        temperature = temp_mean - swing * winter + ar1(rng, n, 0.75, 2.8)
        humidity = np.clip(humid + 8 * winter - 0.6 * (temperature - temp_mean) + ar1(rng, n, 0.6, 7), 12, 100)
        wind = wind_mean * np.exp(0.12 * winter + ar1(rng, n, 0.5, 0.38)) * rng.lognormal(0, 0.15, n)
        # particles: higher in winter (heating, inversions), washed out by wind, persistent episodes
        episode = ar1(rng, n, 0.7, 0.32)
        pm25 = pm_base * (1 + 0.42 * winter) * np.exp(-0.22 * (wind - wind_mean)) * (1.06 + 0.08 * weekday) * np.exp(episode)
        pm25 = soft_cap(pm25 * rng.lognormal(0, 0.08, n))
        pm10 = pm25 * coarse * rng.lognormal(0, 0.17, n) + rng.gamma(2.0, 2.0, n)
        traffic = np.where(weekday, 1.0, 0.74)
        no2 = no2_base * traffic * (1 + 0.25 * winter) * np.exp(-0.12 * (wind - wind_mean) + 0.4 * episode) * rng.lognormal(0, 0.12, n)
        # ozone: photochemistry follows temperature; fresh NO2 titrates some of it away
        o3 = np.clip(14 + 1.45 * temperature - 0.25 * (no2 - no2_base) + 0.8 * (wind - wind_mean) + rng.normal(0, 6.5, n), 2, None)
        frames.append(pd.DataFrame({
            "date": dates, "city": city, "pm25": pm25.round(1), "pm10": pm10.round(1), "no2": no2.round(1),
            "o3": o3.round(1), "temperature_c": temperature.round(1), "humidity_pct": humidity.round(0),
            "wind_speed_ms": wind.round(1),
        }))
    frame = pd.concat(frames, ignore_index=True)

    sensors = ["pm25", "pm10", "no2", "o3"]
    in_city = frame["city"] == GAP_CITY
    for start, end in SENSOR_GAPS:  # multi-day sensor faults: the row exists, the readings are blank
        frame.loc[in_city & frame["date"].between(start, end), sensors] = np.nan
    outage = in_city & frame["date"].between(*STATION_OUTAGE)
    frame = frame[~outage].reset_index(drop=True)
    for column in sensors + ["temperature_c", "humidity_pct", "wind_speed_ms"]:  # scattered single dropouts
        rate = 0.02 if column in sensors else 0.008
        frame.loc[rng.random(len(frame)) < rate, column] = np.nan

    frame["humidity_pct"] = frame["humidity_pct"].astype("Int64")
    frame["aqi_category"] = frame["pm25"].map(aqi_category)
    frame = frame.sort_values(["date", "city"], kind="stable").reset_index(drop=True)
    frame["date"] = frame["date"].dt.strftime("%Y-%m-%d")
    return frame


def main():
    outputs = {"sales.csv": make_sales(), "air-quality.csv": make_air_quality()}
    for name, frame in outputs.items():
        path = os.path.join(OUT, name)
        frame.to_csv(path, index=False, lineterminator="\n")
        print(f"wrote {os.path.relpath(path)}: {len(frame):,} rows x {frame.shape[1]} columns, {os.path.getsize(path) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()

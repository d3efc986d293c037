"""Writes examples/umsatz-filialen.csv: a German-locale export (`;` delimiter, decimal commas,
dots as thousands separators, day-first dates), deterministic (fixed seed, stdlib only).

    /usr/bin/python3 examples/generate/make_locale_example.py
"""
import datetime
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "umsatz-filialen.csv"
STORES = ["Berlin", "Hamburg", "München", "Köln", "Leipzig"]
WEIGHT = {"Berlin": 1.4, "Hamburg": 1.2, "München": 1.3, "Köln": 1.0, "Leipzig": 0.7}


def german(value, decimals=2):
    """1234.5 → "1.234,50"."""
    text = f"{value:,.{decimals}f}"
    return text.replace(",", "_").replace(".", ",").replace("_", ".")


def main():
    rng = random.Random(7)
    lines = ["Datum;Filiale;Kunden;Umsatz (EUR);Bon-Durchschnitt (EUR)"]
    day = datetime.date(2024, 1, 1)
    while day <= datetime.date(2024, 12, 29):  # through the last full week
        season = 1.35 if day.month == 12 else 0.85 if day.month in (1, 2) else 1.0
        weekend = 1.25 if day.weekday() == 5 else 0.0 if day.weekday() == 6 else 1.0
        for store in STORES:
            if weekend == 0.0:
                continue  # closed on Sundays: no row, not a zero
            customers = round(rng.gauss(420, 60) * WEIGHT[store] * season * weekend)
            basket = rng.gauss(23.5, 3.0) * (1.1 if store == "München" else 1.0)
            lines.append(";".join([day.strftime("%d.%m.%Y"), store, str(customers),
                                   german(customers * basket), german(basket)]))
        day += datetime.timedelta(days=1)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(lines) - 1} rows)")


if __name__ == "__main__":
    main()

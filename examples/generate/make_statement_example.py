"""Writes examples/bank-statement.csv: a UK current account's statement as a bank exports it (newest
first, day-first dates, money in and out in two columns with the other blank, a running balance),
deterministic (fixed seed, stdlib only).

    /usr/bin/python3 examples/generate/make_statement_example.py
"""
import datetime
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "bank-statement.csv"
OPENING = 2842.17
SPENDING = [  # (type, description, low, high, weight)
    ("DEB", "TESCO STORES", 8, 95, 30),
    ("DEB", "SAINSBURYS", 6, 70, 18),
    ("DEB", "PRET A MANGER", 3, 12, 16),
    ("DEB", "TFL TRAVEL CH", 2.8, 9.6, 20),
    ("DEB", "AMAZON.CO.UK", 7, 120, 10),
    ("DEB", "DELIVEROO", 14, 38, 6),
]


def main():
    rng = random.Random(11)
    rows = []  # (date, type, description, out, in), oldest first
    day = datetime.date(2024, 1, 1)
    while day <= datetime.date(2025, 2, 28):
        if day.day == 1:
            rows.append((day, "DD", "LANDLORD RENT", 1100.00, None))
        if day.day == 3:
            rows.append((day, "DD", "THAMES WATER", 38.40, None))
        if day.day == 12:
            rows.append((day, "DD", "OCTOPUS ENERGY", 96.00 if day.month in (11, 12, 1, 2) else 61.00, None))
        if day.day == 15:
            rows.append((day, "SO", "SAVINGS POT", 250.00, None))
        if day.day == 25:
            rows.append((day, "BGC", "ACME LTD SALARY", None, 2850.00))
            if day.month == 12 and day.year == 2024:
                rows.append((day, "BGC", "ACME LTD BONUS", None, 3000.00))
        # Two weeks abroad in August: more spending, in larger amounts.
        holiday = day.year == 2024 and day.month == 8 and 5 <= day.day <= 18
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3]) + (2 if holiday else 0)):
            kind, name, low, high, _w = rng.choices(SPENDING, weights=[s[4] for s in SPENDING])[0]
            amount = round(rng.uniform(low, high) * (1.8 if holiday else 1.0), 2)
            rows.append((day, kind, "HOTEL BARCELONA" if holiday and rng.random() < 0.3 else name, amount, None))
        if day.weekday() == 4 and rng.random() < 0.25:
            rows.append((day, "FPI", "J SMITH REFUND", None, round(rng.uniform(10, 60), 2)))
        day += datetime.timedelta(days=1)
    lines = ["Date,Type,Description,Paid out,Paid in,Balance"]
    balance, out = OPENING, []
    for date, kind, name, paid_out, paid_in in rows:
        balance = round(balance - (paid_out or 0) + (paid_in or 0), 2)
        out.append(",".join([date.strftime("%d/%m/%Y"), kind, name,
                             f"{paid_out:.2f}" if paid_out else "", f"{paid_in:.2f}" if paid_in else "",
                             f"{balance:.2f}"]))
    OUT.write_text("\n".join(lines + out[::-1]) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(out)} rows, closing balance {balance:.2f})")


if __name__ == "__main__":
    main()

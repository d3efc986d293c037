"""Writes examples/customers-churn.csv: one row per customer of a subscription service, with the
outcome `churned` (Yes/No) — deterministic (fixed seed, stdlib only).

    /usr/bin/python3 examples/generate/make_churn_example.py
"""
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "customers-churn.csv"
CONTRACTS = [("Month-to-month", 0.55), ("One year", 0.25), ("Two year", 0.20)]
PAYMENTS = [("Card", 0.4), ("Bank transfer", 0.35), ("Invoice", 0.25)]
# The planted risk of leaving: by contract, raised by support tickets and by invoice payment.
BASE = {"Month-to-month": 0.38, "One year": 0.12, "Two year": 0.03}


def pick(rng, weighted):
    x, total = rng.random(), 0.0
    for value, weight in weighted:
        total += weight
        if x < total:
            return value
    return weighted[-1][0]


def main():
    rng = random.Random(42)
    lines = ["customer_id,signup_region,contract,payment,senior,tenure_months,monthly_fee,support_tickets,churned"]
    for i in range(2000):
        contract = pick(rng, CONTRACTS)
        payment = pick(rng, PAYMENTS)
        senior = int(rng.random() < 0.16)
        tickets = min(6, int(rng.expovariate(0.9)))
        tenure = max(1, int(rng.gauss(30 if contract == "Month-to-month" else 44, 16)))
        fee = round(rng.gauss(64, 18) + (8 if contract == "Month-to-month" else 0), 2)
        risk = BASE[contract] * (1 + 0.35 * tickets) * (1.3 if payment == "Invoice" else 1.0)
        churned = "Yes" if rng.random() < min(risk, 0.95) else "No"
        if i % 97 == 0:
            churned = ""  # not known yet: left out of the rates, not counted as staying
        region = pick(rng, [("North", 0.3), ("South", 0.3), ("East", 0.2), ("West", 0.2)])
        lines.append(f"C{10000 + i},{region},{contract},{payment},{senior},{tenure},{fee:.2f},{tickets},{churned}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(lines) - 1} rows)")


if __name__ == "__main__":
    main()

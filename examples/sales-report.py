# Sales report: two years of daily retail sales by region, product and channel.
#   opsmind run examples/sales-report.py --data examples/sales.csv
# OpsMind provides df (the CSV as read), pd, np, declare_chart and declare_table.

# --- Prepare: the CSV gives dates as text, so parse them first ---------------
sales = df.copy()
sales["date"] = pd.to_datetime(sales["date"])
sales["year"] = sales["date"].dt.year
sales["month"] = sales["date"].dt.to_period("M").dt.to_timestamp()  # first day of each month
sales["month_label"] = sales["date"].dt.strftime("%Y-%m")
bulk = sales["revenue"] > 10_000  # one-off wholesale bulk orders: real, but they distort averages

# --- Headline numbers ---------------------------------------------------------
total = sales["revenue"].sum()
by_year = sales.groupby("year")["revenue"].sum()
yoy = by_year[2024] / by_year[2023] - 1
by_region = sales.groupby("region")["revenue"].sum().sort_values(ascending=False)
channel_year = sales.pivot_table(index="year", columns="channel", values="revenue", aggfunc="sum")
online_share = channel_year["Online"] / channel_year.sum(axis=1)
channel_growth = channel_year.loc[2024] / channel_year.loc[2023] - 1
return_rate = sales["returns"].sum() / sales.loc[sales["returns"].notna(), "units"].sum()
by_month = sales.groupby(sales["date"].dt.strftime("%B"))["revenue"].sum()  # calendar month, both years

print(f"Total revenue 2023-2024: ${total:,.0f} from {len(sales):,} daily order lines.")
print(f"Revenue grew {yoy:+.1%} year over year (${by_year[2023]:,.0f} -> ${by_year[2024]:,.0f}).")
print(f"{by_region.index[0]} is the leading region with {by_region.iloc[0] / total:.0%} of revenue, "
      f"{by_region.iloc[0] / by_region.iloc[1]:.1f}x the runner-up ({by_region.index[1]}).")
print(f"Online's share rose from {online_share[2023]:.1%} to {online_share[2024]:.1%}: online revenue grew "
      f"{channel_growth['Online']:+.0%} against {channel_growth['Retail']:+.0%} for retail stores.")
print(f"{by_month.idxmax()} is the peak month ({by_month.max() / by_month.mean():.1f}x an average month) and "
      f"{by_month.idxmin()} the low point. Return rate: {return_rate:.1%} of units sold.")
print(f"{bulk.sum()} bulk wholesale orders (over $10k each) add ${sales.loc[bulk, 'revenue'].sum():,.0f}; "
      f"they are left out of the price-vs-units scatter.")

# --- Charts -------------------------------------------------------------------
monthly = sales.groupby(["month", "channel"], as_index=False)["revenue"].sum()
declare_chart("line", monthly, x="month", y="revenue", color="channel", markers=True,
              title="Monthly revenue by channel", y_label="Revenue ($)",
              note="December peaks every year; Online closes the gap with Retail in 2024.")

declare_chart("bar", by_region, x="region", y="revenue", sort="descending",
              title="Revenue by region", y_label="Revenue ($)")

top_products = sales.groupby("product")["revenue"].sum().nlargest(5)  # a Series can be passed directly
declare_chart("bar", top_products, x="product", y="revenue", orientation="h", sort="descending",
              title="Top 5 products by revenue", x_label="Revenue ($)")

declare_chart("histogram", sales, x="revenue", bins=60, log_y=True,
              title="Revenue per order line", x_label="Revenue ($)", y_label="Order lines (log scale)",
              note="A long right tail: the few bars far right are the bulk wholesale orders.")

declare_chart("scatter", sales[~bulk], x="unit_price", y="units", color="channel", trendline=True,
              title="Unit price vs units per order line", x_label="Unit price ($)", y_label="Units",
              note="Bulk orders excluded. Cheaper items sell in larger quantities.")

declare_chart("box", sales, y="customer_rating", x="product",
              title="Customer rating by product", y_label="Rating (1-5)")

declare_chart("heatmap", sales, x="month_label", y="region", z="revenue", agg="sum",
              colorscale="Blues", title="Revenue by region and month")

# --- Summary table: one row per product ---------------------------------------
summary = sales.groupby("product").agg(
    revenue=("revenue", "sum"), units=("units", "sum"), order_lines=("units", "size"),
    avg_price=("unit_price", "mean"), avg_discount_pct=("discount_pct", "mean"),
    returns=("returns", "sum"), avg_rating=("customer_rating", "mean"))
product_year = sales.pivot_table(index="product", columns="year", values="revenue", aggfunc="sum")
summary["yoy_growth_pct"] = (product_year[2024] / product_year[2023] - 1) * 100
summary["return_rate_pct"] = summary["returns"] / summary["units"] * 100
summary = summary.drop(columns="returns").sort_values("revenue", ascending=False).round(2)
declare_table(summary, title="Product summary (2023-2024)")

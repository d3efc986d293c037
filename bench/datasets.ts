/** Generated benchmark datasets (cached under bench/.data, not committed). */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(import.meta.dirname, '.data');

/** A CSV of `rows` rows × 10 columns (date, 3 categories, 6 numbers with some blanks); made once with pandas. */
export function benchCsv(python: string, rows: number): string {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, `bench-${rows}.csv`);
  if (existsSync(path)) return path;
  const code = `
import numpy as np, pandas as pd
rng = np.random.default_rng(7)
n = ${rows}
df = pd.DataFrame({
  "date": pd.date_range("2020-01-01", periods=n, freq="min").strftime("%Y-%m-%d %H:%M"),
  "region": rng.choice(["North", "South", "East", "West", "Central"], n),
  "product": rng.choice([f"P{i:02d}" for i in range(40)], n),
  "channel": rng.choice(["Online", "Retail", "Wholesale"], n),
  "units": rng.integers(1, 50, n),
  "price": rng.gamma(2.0, 20.0, n).round(2),
  "discount": rng.uniform(0, 0.3, n).round(3),
  "cost": rng.gamma(2.0, 12.0, n).round(2),
  "rating": rng.normal(4, 0.6, n).clip(1, 5).round(1),
  "latency_ms": rng.lognormal(3, 0.5, n).round(1),
})
df["revenue"] = (df["units"] * df["price"]).round(2)
df = df.drop(columns=["cost"])
df.loc[rng.random(n) < 0.02, "rating"] = np.nan
df.to_csv(${JSON.stringify(path)}, index=False)
`;
  execFileSync(python, ['-c', code]);
  return path;
}

/** The p-th percentile (0-100) of a list of numbers. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** A Parquet copy of `csvPath` (same rows and columns), written once beside it by DuckDB. */
export async function benchParquet(csvPath: string): Promise<string> {
  const path = csvPath.replace(/\.csv$/, '.parquet');
  if (existsSync(path)) return path;
  // Loaded here, not at the top: bench/sandbox.ts imports this file and needs no DuckDB.
  const { DuckDb, literal } = await import('../src/engine/duckdb.js');
  const partial = `${path}.partial`;
  const db = await DuckDb.open({ memoryMb: 4096, threads: 2, tempDir: join(DIR, 'duckdb-tmp') });
  try {
    await db.run(
      `COPY (SELECT * FROM read_csv(${literal(csvPath)})) TO ${literal(partial)} (FORMAT parquet)`,
    );
  } finally {
    db.close();
  }
  renameSync(partial, path);
  return path;
}

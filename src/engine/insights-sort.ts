/**
 * numpy's default argsort (kind="quicksort": an introsort, not stable) and
 * pandas' nargsort on top of it, so ties land where pandas' sort_values puts
 * them: which of two equal categories a ranking names first depends on it.
 */

/** Partitions larger than this many elements + 1 are split; smaller ones insertion-sorted (numpy's value). */
const SMALL_QUICKSORT = 15;

const less = (a: number, b: number): boolean => a < b || (b !== b && a === a);

/** Sift-down heap sort of tosort[from..from+n) by values (numpy's aheapsort, the introsort fallback). */
function heapSort(values: readonly number[], tosort: number[], from: number, n: number): void {
  const at = (k: number): number => tosort[from + k - 1] ?? 0;
  const put = (k: number, v: number): void => {
    tosort[from + k - 1] = v;
  };
  const value = (index: number): number => values[index] ?? NaN;
  const sift = (start: number, size: number, tmp: number): void => {
    let [i, j] = [start, start * 2];
    while (j <= size) {
      if (j < size && less(value(at(j)), value(at(j + 1)))) j += 1;
      if (!less(value(tmp), value(at(j)))) break;
      put(i, at(j));
      [i, j] = [j, j * 2];
    }
    put(i, tmp);
  };
  for (let l = n >> 1; l > 0; --l) sift(l, n, at(l));
  for (let size = n; size > 1;) {
    const tmp = at(size);
    put(size, at(1));
    size -= 1;
    sift(1, size, tmp);
  }
}

/** numpy's median-of-three partition of tosort[pl..pr]; returns the pivot's final position. */
function partition(values: readonly number[], tosort: number[], pl: number, pr: number): number {
  const v = (k: number): number => values[tosort[k] ?? 0] ?? NaN;
  const swap = (a: number, b: number): void => {
    [tosort[a], tosort[b]] = [tosort[b] ?? 0, tosort[a] ?? 0];
  };
  const pm = pl + ((pr - pl) >> 1);
  if (less(v(pm), v(pl))) swap(pm, pl);
  if (less(v(pr), v(pm))) swap(pr, pm);
  if (less(v(pm), v(pl))) swap(pm, pl);
  const pivot = v(pm);
  let [pi, pj] = [pl, pr - 1];
  swap(pm, pj);
  for (;;) {
    do {
      pi += 1;
    } while (less(v(pi), pivot));
    do {
      pj -= 1;
    } while (less(pivot, v(pj)));
    if (pi >= pj) break;
    swap(pi, pj);
  }
  swap(pi, pr - 1);
  return pi;
}

function insertionSort(values: readonly number[], tosort: number[], pl: number, pr: number): void {
  for (let pi = pl + 1; pi <= pr; ++pi) {
    const vi = tosort[pi] ?? 0;
    const vp = values[vi] ?? NaN;
    let pj = pi;
    while (pj > pl && less(vp, values[tosort[pj - 1] ?? 0] ?? NaN)) {
      tosort[pj] = tosort[pj - 1] ?? 0;
      pj--;
    }
    tosort[pj] = vi;
  }
}

/** np.argsort(values) with numpy's default quicksort (npy_aquicksort), NaN last. */
export function numpyArgsort(values: readonly number[]): number[] {
  const tosort = values.map((_, i) => i);
  const stack: [number, number, number][] = [];
  let [pl, pr] = [0, values.length - 1];
  let depth = values.length > 0 ? (31 - Math.clz32(values.length)) * 2 : 0;
  for (;;) {
    if (depth < 0) {
      heapSort(values, tosort, pl, pr - pl + 1);
    } else {
      while (pr - pl > SMALL_QUICKSORT) {
        const pi = partition(values, tosort, pl, pr);
        depth -= 1;
        if (pi - pl < pr - pi) {
          stack.push([pi + 1, pr, depth]);
          pr = pi - 1;
        } else {
          stack.push([pl, pi - 1, depth]);
          pl = pi + 1;
        }
      }
      insertionSort(values, tosort, pl, pr);
    }
    const next = stack.pop();
    if (!next) return tosort;
    [pl, pr, depth] = next;
  }
}

/** The order of pandas' sort_values(ascending=False) on non-missing values: nargsort's reverse, argsort, reverse. */
export function descendingOrder(values: readonly number[]): number[] {
  const reversed = [...values].reverse();
  const last = values.length - 1;
  return numpyArgsort(reversed)
    .map((i) => last - i)
    .reverse();
}

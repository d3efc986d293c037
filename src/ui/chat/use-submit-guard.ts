/** The double-submit guard: a ref that holds within the same tick (render state would update too late). */
import { useMemo, useRef } from 'react';

/** `tryStart` returns true for exactly one caller until `finish` is called. */
export interface SubmitGuard {
  tryStart(): boolean;
  finish(): void;
}

/** A guard whose state lives in a ref, so two submits fired synchronously start one run. */
export function useSubmitGuard(): SubmitGuard {
  const busy = useRef(false);
  return useMemo(
    () => ({
      tryStart() {
        if (busy.current) return false;
        busy.current = true;
        return true;
      },
      finish() {
        busy.current = false;
      },
    }),
    [],
  );
}

/** The numbering a session continues: its last model turn, its last step, and the declaration ids used. */
import type { StoredEvent } from '../shared/events.js';
import { countIds } from '../spec/session-ids.js';
import type { IdCounts } from '../spec/session-ids.js';

/** Turn, step and id counters, folded from stored events. */
export class SessionNumbers {
  turn = 0;
  step = 0;
  ids: IdCounts = {};

  /** The numbers after `events`. */
  static of(events: readonly StoredEvent[]): SessionNumbers {
    const numbers = new SessionNumbers();
    for (const event of events) numbers.add(event);
    return numbers;
  }

  /** Folds one more event in. */
  add(e: StoredEvent): void {
    if (e.type === 'artifact_added')
      this.ids = countIds(
        this.ids,
        [...e.charts, ...e.tables, ...(e.images ?? [])].map((r) => r.id),
      );
    if ('turn' in e && typeof e.turn === 'number') this.turn = Math.max(this.turn, e.turn);
    if ('step' in e && typeof e.step === 'number') this.step = Math.max(this.step, e.step);
  }
}

/** A byte-bounded collector for a child's output, with a visible truncation marker. */

/** Collects up to `limit` bytes; counts (but drops) the rest. */
export class TruncatingCollector {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly limit: number) {}

  /** Adds a chunk, keeping only what fits under the limit. */
  push(chunk: Buffer): void {
    const room = this.limit - this.kept;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.dropped += Math.max(0, chunk.length - Math.max(0, room));
  }

  /** True when anything was dropped. */
  get truncated(): boolean {
    return this.dropped > 0;
  }

  /** The kept text, ending in a marker that says how much was dropped. */
  text(): string {
    return withTruncationMarker(Buffer.concat(this.chunks).toString('utf8'), this.dropped);
  }
}

/** `text`, followed by the visible marker when `dropped` bytes were cut. */
export function withTruncationMarker(text: string, dropped: number): string {
  if (dropped <= 0) return text;
  return `${text}\n… [output truncated: ${dropped.toLocaleString('en-US')} more bytes not shown]\n`;
}

/** A file's bytes in order, read into one reused buffer. */
import { open } from 'node:fs/promises';

/** Bytes read at a time. */
const CHUNK_BYTES = 1 << 20;

/**
 * The bytes of `path` from its start, chunk by chunk. Every chunk is a view of the same buffer,
 * valid only until the next one is asked for: a consumer that keeps bytes copies them. A stream
 * would hand out a fresh megabyte per chunk, and a new process pays for each one's first touch
 * (a pass over a 62 MB file: 220 ms against 64 ms here).
 */
export async function* fileChunks(path: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let offset = 0; ;) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      if (bytesRead === 0) return;
      offset += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

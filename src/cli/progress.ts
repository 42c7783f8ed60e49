import type { WriteStream } from 'node:tty';

/**
 * A one-line progress bar redrawn in place on a terminal. Lines printed meanwhile go through `above()`, which clears
 * the bar first, so messages and the bar never mix. Only for a TTY: piped output gets no control characters.
 */
export function createProgressBar(out: WriteStream, render: () => { fraction: number; text: string }, intervalMs = 200) {
  let drawn = false;
  const clear = () => {
    if (drawn) out.write('\r\x1b[2K');
    drawn = false;
  };
  const draw = () => {
    const { fraction, text } = render();
    const width = 24;
    const done = Math.max(0, Math.min(width, Math.round(fraction * width)));
    const line = `[${'#'.repeat(done)}${'-'.repeat(width - done)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${text}`;
    out.write(`\r\x1b[2K${line.slice(0, Math.max(20, (out.columns || 80) - 1))}`);
    drawn = true;
  };
  const timer = setInterval(draw, intervalMs);
  timer.unref();
  return {
    draw,
    /** Prints `line` (with its newline) above the bar, on the bar's stream or another that shares the terminal. */
    above(line: string, stream: NodeJS.WritableStream = out) {
      clear();
      stream.write(`${line}\n`);
      draw();
    },
    stop() {
      clearInterval(timer);
      clear();
    },
  };
}

export type ProgressBar = ReturnType<typeof createProgressBar>;

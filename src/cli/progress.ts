
/**
 * A one-line progress bar redrawn in place on a terminal. Lines printed meanwhile go through `above()`, which clears
 * the bar first, so messages and the bar never mix. Only for a TTY: piped output gets no control characters.
 */
/** Where the bar is drawn: a terminal's stream, or a command's standard error on one. */
export interface BarOutput {
  write(chunk: string): void;
  columns?: number;
}

export function createProgressBar(out: BarOutput, render: () => { fraction: number; text: string }, intervalMs = 200) {
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
    above(line: string, stream: BarOutput = out) {
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

/**
 * What `coverage batch` shows while a batch runs: a bar redrawn in place on a terminal, plain
 * lines otherwise (logs, CI, pipes). The rate is measured from what this watcher has seen.
 */

export interface ProgressSample {
  done: number;
  total: number;
  /** Milliseconds, from any fixed origin. */
  at: number;
}

const BAR_WIDTH = 24;

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export class ProgressMeter {
  private first: ProgressSample | null = null;
  private last: ProgressSample | null = null;

  observe(sample: ProgressSample): void {
    this.first ??= sample;
    this.last = sample;
  }

  /** Rows per second since watching began; null until rows have finished over a measurable time. */
  rate(): number | null {
    if (!this.first || !this.last) return null;
    const rows = this.last.done - this.first.done;
    const seconds = (this.last.at - this.first.at) / 1000;
    return rows > 0 && seconds > 0 ? rows / seconds : null;
  }

  /** Seconds left at the current rate; null when the rate is not known yet. */
  eta(): number | null {
    const rate = this.rate();
    if (!this.last || rate === null) return null;
    return (this.last.total - this.last.done) / rate;
  }

  private parts(): { done: number; total: number; percent: number; rate: string | null; eta: string | null } {
    const { done, total } = this.last ?? { done: 0, total: 0 };
    const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
    const rate = this.rate();
    const eta = this.eta();
    return { done, total, percent, rate: rate === null ? null : `${rate.toFixed(1)} rows/s`, eta: eta === null || done >= total ? null : formatDuration(eta) };
  }

  /** One frame of the terminal bar (no line ending). */
  bar(): string {
    const p = this.parts();
    const filled = Math.round((p.percent / 100) * BAR_WIDTH);
    return [
      `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]`,
      `${p.done}/${p.total}`,
      `${p.percent}%`,
      p.rate ?? '-- rows/s',
      p.done >= p.total ? 'done' : `ETA ${p.eta ?? '--:--'}`,
    ].join('  ');
  }

  /** One plain progress line (no line ending). */
  line(): string {
    const p = this.parts();
    const extras = [p.rate, p.eta ? `about ${p.eta} left` : null].filter(Boolean);
    return `${p.done} of ${p.total} checked (${p.percent}%)${extras.length ? `, ${extras.join(', ')}` : ''}`;
  }
}

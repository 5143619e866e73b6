/**
 * Async reads whose results replace one another (the runs on disk, re-read when a run changes):
 * only the last one started is applied. An earlier read that finishes later read an older state
 * of the files — applying it last would show that older state until something else changes
 * (a research run shown as still running after it was done: its steps said done, the run did not).
 *
 * @example
 * const newest = this.reloads.begin();
 * const shown = await readRun(root, id);
 * if (newest()) this.shown = shown; // else a later reload shows what it read
 */
export class NewestWins {
  private started = 0;

  /** Starts a read; the function says whether it is still the last one started. */
  begin(): () => boolean {
    const mine = ++this.started;
    return () => mine === this.started;
  }
}

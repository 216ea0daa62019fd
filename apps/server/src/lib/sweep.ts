/**
 * A catch-up sweep for an event-driven follow-up: run once right after start-up, then every `everyMs`, so what a
 * crash or a failed listener left out is made anyway. Timers do not keep the process alive; returns the stopper.
 */
export function startSweep(run: () => unknown, everyMs: number): () => void {
  const timer = setInterval(run, everyMs);
  timer.unref();
  const first = setTimeout(run, 0);
  first.unref();
  return () => {
    clearInterval(timer);
    clearTimeout(first);
  };
}

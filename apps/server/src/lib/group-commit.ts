import { outsideAuditScope } from './audit-scope';
/**
 * A per-key sequencer with group commit. Requests for one key (one auction, one listing) queue in arrival order;
 * whenever the key is idle, everything queued so far (up to `maxGroup`) is handed to `commitGroup` at once, which
 * judges the requests one by one, in order, inside ONE transaction and commits them together: one durable commit
 * (one WAL flush) serves the whole group. Each caller is answered only after that commit, with its own verdict.
 * If the group's transaction fails, every request of the group is refused with that error: none was acknowledged.
 *
 * Keys are independent: two auctions' groups run concurrently. Across processes the transaction's own row lock
 * still orders the groups, so the sequencer is an optimisation, never the guarantee.
 */
export type Verdict<R> = { ok: true; value: R } | { ok: false; error: unknown };

export type CommitGroup<J, R> = (key: string, jobs: readonly J[]) => Promise<Verdict<R>[]>;

/** Hears every group committed (metrics): what kind of work, how many requests, how many accepted. */
export type GroupObserver = (kind: string, size: number, accepted: number) => void;
const groupObservers = new Set<GroupObserver>();

export function observeGroups(observer: GroupObserver): () => void {
  groupObservers.add(observer);
  return () => groupObservers.delete(observer);
}

interface Waiting<J, R> {
  job: J;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export class GroupCommitter<J, R> {
  private readonly queues = new Map<string, Waiting<J, R>[]>();
  /** Groups being committed, so a shutdown can wait for them. */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly commitGroup: CommitGroup<J, R>,
    private readonly maxGroup = 100,
    /** How long each group waits for company before it is written: only for work nobody waits on (audit rows). */
    private readonly lingerMs = 0,
    /** What the groups hold, for whoever observes them (bid, subscription, audit). */
    private readonly kind = 'work',
  ) {}

  submit(key: string, job: J): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        // a group for this key is committing: wait for the next one
        queue.push({ job, resolve, reject });
        return;
      }
      const fresh: Waiting<J, R>[] = [{ job, resolve, reject }];
      this.queues.set(key, fresh);
      // a group serves many requests: none of their audit rows is the group's transaction's to write
      const drained = outsideAuditScope(() => this.drain(key));
      this.running.add(drained);
      void drained.finally(() => this.running.delete(drained));
    });
  }

  /** Requests waiting or committing for `key` (0 when idle). */
  depth(key: string): number {
    return this.queues.get(key)?.length ?? 0;
  }

  /** Resolves once every group under way has been answered. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private async drain(key: string) {
    const queue = this.queues.get(key)!;
    // a microtask lets requests that arrived in the same tick join the first group
    await Promise.resolve();
    while (queue.length) {
      // the linger, before every group, lets a steady stream gather into groups too
      if (this.lingerMs > 0) await new Promise((resolve) => setTimeout(resolve, this.lingerMs));
      const group = queue.splice(0, this.maxGroup);
      let verdicts: Verdict<R>[];
      try {
        verdicts = await this.commitGroup(key, group.map((w) => w.job));
        if (verdicts.length !== group.length) throw new Error(`group commit answered ${verdicts.length} of ${group.length}`);
      } catch (error) {
        for (const observe of groupObservers) observe(this.kind, group.length, 0);
        for (const waiting of group) waiting.reject(error);
        continue;
      }
      const accepted = verdicts.filter((verdict) => verdict.ok).length;
      for (const observe of groupObservers) observe(this.kind, group.length, accepted);
      group.forEach((waiting, i) => {
        const verdict = verdicts[i]!;
        if (verdict.ok) waiting.resolve(verdict.value);
        else waiting.reject(verdict.error);
      });
    }
    this.queues.delete(key);
  }
}

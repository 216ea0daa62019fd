import { describe, expect, it } from 'vitest';
import { GroupCommitter, type Verdict } from './group-commit';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('GroupCommitter', () => {
  it('groups what queued while the previous group committed, keeps arrival order and answers each with its own verdict', async () => {
    const groups: number[][] = [];
    const committer = new GroupCommitter<number, number>(async (_key, jobs) => {
      groups.push([...jobs]);
      await tick();
      return jobs.map((n): Verdict<number> => (n % 3 === 0 ? { ok: false, error: new Error(`refused ${n}`) } : { ok: true, value: n * 10 }));
    });
    const first = committer.submit('a', 1);
    await Promise.resolve();
    await Promise.resolve();
    const rest = [2, 3, 4, 5].map((n) => committer.submit('a', n));
    const answers = await Promise.allSettled([first, ...rest]);
    expect(groups).toEqual([[1], [2, 3, 4, 5]]);
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message))).toEqual([10, 20, 'refused 3', 40, 50]);
    expect(committer.depth('a')).toBe(0);
  });

  it('refuses the whole group when its commit fails, and goes on with the next group', async () => {
    let calls = 0;
    const committer = new GroupCommitter<number, number>(async (_key, jobs) => {
      calls++;
      await tick();
      if (calls === 1) throw new Error('commit failed');
      return jobs.map((n) => ({ ok: true, value: n }));
    });
    const a = committer.submit('k', 1);
    const b = committer.submit('k', 2);
    await new Promise((resolve) => setImmediate(resolve));
    const c = committer.submit('k', 3);
    await expect(a).rejects.toThrow('commit failed');
    await expect(b).rejects.toThrow('commit failed');
    await expect(c).resolves.toBe(3);
  });

  it('runs different keys concurrently and caps a group at maxGroup', async () => {
    const seen: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const committer = new GroupCommitter<number, number>(async (key, jobs) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      seen.push(`${key}:${jobs.length}`);
      await tick();
      inFlight--;
      return jobs.map((n) => ({ ok: true, value: n }));
    }, 2);
    await Promise.all([...[1, 2, 3, 4, 5].map((n) => committer.submit('x', n)), committer.submit('y', 9)]);
    expect(maxInFlight).toBe(2);
    expect(seen.filter((s) => s.startsWith('x:'))).toEqual(['x:2', 'x:2', 'x:1']);
    await committer.idle();
  });
});

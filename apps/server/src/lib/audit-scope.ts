import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Tx } from '../db/client';

/**
 * No action without its trace (issue 27 item 2): the audit row of a request is written inside the transaction that
 * carries out the action, so if the row cannot be written the action does not happen either.
 *
 * The audit-trail plugin opens a scope around each labelled request; `auditedTransactions` (composed into every
 * database by lib/database.ts) writes the scope's row just before the first read-write top-level transaction of the
 * request commits. A request whose work commits no transaction (a refusal, a plain statement) gets its row after
 * the answer, as before. Services may add what the row cannot see from outside: the changes with their old values.
 */
export interface AuditScope {
  /** Writes the row (result: success) in `tx`; `outcome` is what the transaction's work returned (a created record). */
  writeIn(tx: Tx, outcome: unknown): Promise<void>;
  /** Set once the row is in a transaction that committed. */
  written: boolean;
  /** `{ field: [before, after] }` noted by the service during the action. */
  changes?: Record<string, [unknown, unknown]>;
}

const storage = new AsyncLocalStorage<AuditScope>();

/** Runs `work` (and everything it awaits) inside the scope. */
export function runInAuditScope<T>(scope: AuditScope, work: () => T): T {
  return storage.run(scope, work);
}

/** Runs `work` outside any request's scope: group writers serve many requests, none of whose rows is theirs to write. */
export function outsideAuditScope<T>(work: () => T): T {
  return storage.exit(work);
}

export function currentAuditScope(): AuditScope | undefined {
  return storage.getStore();
}

/** Notes the before/after of fields the action changes, for its audit row (no-op outside a request). */
export function noteAuditChanges(changes: Record<string, [unknown, unknown]>): void {
  const scope = storage.getStore();
  if (scope) scope.changes = { ...scope.changes, ...changes };
}

/**
 * Wraps `db.transaction`: a read-write top-level transaction run inside a request's scope writes the request's
 * audit row before it commits, once per request. Savepoints (tx.transaction) are not wrapped: they commit with
 * their parent.
 */
export function auditedTransactions(db: Db): Db {
  const transaction = db.transaction.bind(db);
  db.transaction = (async (work, config) => {
    const scope = storage.getStore();
    if (!scope || scope.written || config?.accessMode === 'read only') return transaction(work, config);
    let wroteHere = false;
    const result = await transaction(async (tx) => {
      const outcome = await work(tx);
      if (!scope.written) {
        // claimed before the write: a second transaction of the same request running meanwhile leaves it to this one
        scope.written = wroteHere = true;
        await scope.writeIn(tx, outcome);
      }
      return outcome;
    }, config).catch((err: unknown) => {
      // the commit failed after the row was written: the row went with it
      if (wroteHere) scope.written = false;
      throw err;
    });
    return result;
  }) as Db['transaction'];
  return db;
}

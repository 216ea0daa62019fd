import { API_PREFIX } from '@coalx/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuditChanges } from '../db/schema/audit';
import { redactSecrets } from '../lib/log-redaction';
import { GroupCommitter } from '../lib/group-commit';
import { isDatabaseUnavailable } from '../lib/db-errors';
import { runInAuditScope, type AuditScope } from '../lib/audit-scope';
import { auditNaming } from '../queries/audit-naming';
import { boundedBody, objectIdOf, objectTypeOf, recordAudits, storableText, type AuditEntry } from '../modules/audit/audit.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 操作日志: the Chinese label (出金申请, 出价, 挂牌审核通过, …) under which every signed-in request to this route is
     * recorded, done or refused. Set it on every route that changes state and that staff may call, and on every
     * money or trading action.
     */
    audit?: string;
  }
  interface FastifyRequest {
    /** Before/after of the fields the request changed, filled by the route from its service's answer. */
    auditChanges?: AuditChanges;
    /** The object acted on, when the path and body do not say it (see objectTypeOf / objectIdOf). */
    auditObject?: { type?: string; id?: string | number };
    /** What onSend read from an answer the row needs: a refusal's code, a created record's id. */
    auditOutcome?: { errorCode: string; resultId: unknown };
    /** The request's audit scope: its row goes into the action's own transaction (lib/audit-scope.ts). */
    auditScope?: AuditScope;
  }
  interface FastifyInstance {
    auditTrail: AuditTrail;
  }
}

/** The labels flows/sign-in.ts writes (sign-in has no actor when it starts, so no route label). */
export const SIGN_IN_LABELS = ['登录', '登录失败', '账号锁定'] as const;

/** Writes in flight, so a test or a shutdown can wait for them; and the labels the routes declared. */
export class AuditTrail {
  /** Every label a row may carry: the routes' and those of sign-in (flows/sign-in.ts), written without a route label. */
  readonly labels = new Set<string>(SIGN_IN_LABELS);
  /** Every route that is not a GET, with its label if any: the test holds them all to a decision. */
  readonly writeRoutes: { method: string; url: string; label: string | undefined }[] = [];
  private readonly pending = new Set<Promise<void>>();

  track(write: Promise<void>) {
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /** Resolves once every row of the requests answered so far is written (or has failed and been logged). */
  async flush() {
    // onResponse runs on the response's 'finish'; one turn of the loop lets a just-answered request start its write
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}

/** A bid flood refused by the rate limit is not worth a row per refusal: the limit exists to spare the database. */
const NOT_RECORDED_STATUSES = new Set([429]);

/** Rows are written for who can be named: a signed-in actor, or the holder of a verified QR pass (gate-pass routes). */
function auditedLabel(request: FastifyRequest): string | undefined {
  return request.actor || request.gatePass ? request.routeOptions.config?.audit : undefined;
}

/**
 * Who a row names. A QR pass acts for the enterprise whose ticket it records, under the pass's id (no user); it
 * comes first: a clerk's phone that happens to be signed in still acts by the pass on those routes.
 */
function auditedActor(request: FastifyRequest): Pick<AuditEntry, 'userId' | 'username' | 'enterpriseId' | 'role' | 'roleId'> {
  const pass = request.gatePass;
  if (pass) return { userId: null, username: `二维码 ${pass.tokenId}`, enterpriseId: pass.enterpriseId, role: '过磅员（扫码）' };
  const actor = request.actor!;
  return { userId: actor.userId, username: actor.username, enterpriseId: actor.enterpriseId, role: actor.role, roleId: actor.roleId };
}

/**
 * The audit trail: after the response is sent, one insert per request to a route labelled `config.audit`, with who
 * acted (the signed-in actor), the redacted body, the object and the outcome. A failed write is logged, never
 * turned into a failed request.
 */
export default fp(async (app) => {
  const trail = new AuditTrail();
  app.decorate('auditTrail', trail);
  app.decorateRequest('auditChanges', undefined);
  app.decorateRequest('auditObject', undefined);
  app.decorateRequest('auditOutcome', undefined);
  app.decorateRequest('auditScope', undefined);

  // the handler of a labelled request runs in its audit scope: the first transaction it commits carries the row
  // (a callback hook, so the handler fastify calls next runs inside the scope)
  app.addHook('preHandler', (request, reply, done) => {
    const label = auditedLabel(request);
    if (!label) return done();
    const scope: AuditScope = {
      written: false,
      writeIn: (tx, outcome) => recordAudits(tx, [auditRow(app, request, reply, label, { outcome, changes: scope.changes })], auditNaming),
    };
    request.auditScope = scope;
    runInAuditScope(scope, done);
  });

  app.addHook('onRoute', (route) => {
    const label = route.config?.audit;
    if (label) trail.labels.add(label);
    for (const method of [route.method].flat()) {
      if (method !== 'GET' && method !== 'HEAD') trail.writeRoutes.push({ method, url: route.url, label });
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!auditedLabel(request) || NOT_RECORDED_STATUSES.has(reply.statusCode)) return payload;
    const refused = reply.statusCode >= 400;
    // the answer is read only when the row needs it: a refusal's code, or the id of what a request created
    const needsResultId = !refused && !request.auditObject?.id && !objectIdOf(request.params, request.body, undefined);
    if ((refused || needsResultId) && typeof payload === 'string' && payload.length < 100_000) {
      try {
        const answer = JSON.parse(payload) as { error?: unknown; result?: { id?: unknown; tradeId?: unknown } | null };
        request.auditOutcome = { errorCode: refused ? String(answer.error ?? '') : '', resultId: answer.result?.id ?? answer.result?.tradeId };
      } catch {
        // not JSON (a file): nothing to read
      }
    }
    return payload;
  });

  // rows are written in groups: whatever requests answered while the last group was written (or within a few ms)
  // go in one insert, so a burst of bids costs the database a few statements, not two per bid
  // rows of acknowledged actions are never dropped for an outage: while the database is away the group is tried
  // again (the rows behind it wait in the queue), until a shutdown's deadline, after which they go to the log whole
  let giveUpAt = Infinity;
  const writer = new GroupCommitter<AuditEntry, void>(async (_key, entries) => {
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await recordAudits(app.db, entries, auditNaming);
          return entries.map(() => ({ ok: true, value: undefined }));
        } catch (err) {
          if (!isDatabaseUnavailable(err)) throw err;
          if (Date.now() >= giveUpAt) {
            app.log.error({ rows: entries }, '数据库不可用，操作日志未能在停止前写入 (完整内容见本条日志)');
            return entries.map(() => ({ ok: false, error: err }));
          }
          if (attempt === 0) app.log.warn({ rows: entries.length }, '数据库不可用，操作日志稍后重写');
          await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 250 * 2 ** attempt)));
        }
      }
    } catch {
      // one bad row must not take the others with it: write them one by one
      return Promise.all(entries.map((entry) => recordAudits(app.db, [entry], auditNaming).then(() => ({ ok: true as const, value: undefined }), (error: unknown) => ({ ok: false as const, error }))));
    }
  }, 500, AUDIT_LINGER_MS, 'audit');
  app.addHook('onResponse', async (request, reply) => {
    const label = auditedLabel(request);
    if (!label || NOT_RECORDED_STATUSES.has(reply.statusCode)) return;
    // written with the action; a refusal after it (a later step failed) still gets its own row
    if (request.auditScope?.written && reply.statusCode < 400) return;
    trail.track(
      (async () => writer.submit('audit', auditRow(app, request, reply, label)))().catch((err) => {
        request.log.error({ err, action: label }, 'audit trail write failed');
      }),
    );
  });

  // rows of the last requests are written before the database is closed, for a few seconds at most if it is away
  app.addHook('onClose', async () => {
    giveUpAt = Date.now() + AUDIT_CLOSE_GRACE_MS;
    await trail.flush();
  });
});

/** The id of what a transaction created, when its work returned the record (or its id). */
function createdIdOf(outcome: unknown): unknown {
  if (typeof outcome === 'number' || typeof outcome === 'string') return outcome;
  if (!outcome || typeof outcome !== 'object') return undefined;
  const record = outcome as { id?: unknown; tradeId?: unknown; tradeNo?: unknown };
  // a trade's number (GP…, JJ…) names it better than its row id; other ids are named by queries/audit-naming.ts
  return record.tradeId ?? record.tradeNo ?? record.id;
}

/** How long a stopping process keeps trying to write the last rows to a database that is away. */
const AUDIT_CLOSE_GRACE_MS = 3_000;

/** A group waits this long for company: long enough to gather a burst, short enough for a page that reads the log. */
const AUDIT_LINGER_MS = 25;

/**
 * The row of a request: after the answer (its status decides), or inside the action's transaction (`inAction`:
 * success, what the transaction's work returned names a created object, the changes the service noted).
 */
function auditRow(
  app: import('fastify').FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  label: string,
  inAction?: { outcome: unknown; changes: AuditChanges | undefined },
): AuditEntry {
  const route = request.routeOptions.url ?? request.url;
  const refused = !inAction && reply.statusCode >= 400;
  const resultId = inAction ? createdIdOf(inAction.outcome) : request.auditOutcome?.resultId;
  return {
    at: new Date(app.clock.now().getTime()),
    ...auditedActor(request),
    action: label,
    method: request.method,
    route,
    objectType: request.auditObject?.type ?? objectTypeOf(route, API_PREFIX),
    objectId: storableText(String(request.auditObject?.id ?? objectIdOf(request.params, request.body, resultId))),
    changes: inAction?.changes ?? request.auditChanges ?? null,
    body: boundedBody(redactSecrets(request.body)),
    result: refused ? 'refused' : 'success',
    errorCode: refused ? storableText(request.auditOutcome?.errorCode ?? '') : '',
    statusCode: inAction ? 200 : reply.statusCode,
    ip: request.ip,
    requestId: String(request.id),
  };
}

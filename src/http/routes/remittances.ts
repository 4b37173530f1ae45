/**
 * The remittance loop (docs/remittances.md): POST /v1/remittances reads an 835 and compares each line
 * with the estimate kept for it; GET /v1/remittances/:id gives the lines back; GET /v1/accuracy
 * counts how right a key's estimates were, per payer, plan and week. Everything is scoped to the key's
 * owner; each remittance's claims are audited (one record per claim, by keyed hash) before the answer.
 */
import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import { AccuracyQuery, AccuracyReport, RemittanceAnswer, RemittanceParams, RemittanceQuery } from '../../domain/schemas/remittances.ts';
import { accuracyReport } from '../../operations/remittance/accuracy.ts';
import { NO_OBSERVATION } from '../../operations/remittance/advisory.ts';
import { ingestRemittance } from '../../operations/remittance/ingest.ts';
import { RemittanceReader } from '../../operations/remittance/reader.ts';
import { mismatchEvents } from '../../operations/remittance/mismatch-events.ts';
import type { KeptEstimate, KeyedHash } from '../../operations/remittance/kept-estimate.ts';
import type { PayerNetwork } from '../../payers/network.ts';
import type { AuditWriter } from '../../store/audit.ts';
import { ownerOf } from '../../store/keys.ts';
import type { RemittanceStore } from '../../store/remittances.ts';
import type { WebhookStore } from '../../store/webhooks.ts';
import { HttpErrors } from '../errors.ts';
import { jsonInSlices } from '../json-slices.ts';
import { isoNow, type Clock } from '../../domain/clock.ts';

/** A remittance file's largest size: a month of a busy practice's 835s is well under it. */
export const REMITTANCE_BODY_LIMIT = 5 * 1024 * 1024;

export interface RemittanceRouteOptions {
  store: RemittanceStore;
  network: PayerNetwork;
  /** The keyed member hash (store/member-hash.ts). */
  hash: KeyedHash;
  audit: AuditWriter | null;
  clock: Clock;
  /** Told of each compared line's verdict (metrics). */
  onVerdict?: (payerId: string, verdict: string) => void;
  /** The webhook outbox: estimate.mismatch events are queued with the remittance, for the owner's webhooks that ask for them. */
  webhooks?: { store: WebhookStore; wakeDeliveries: () => void };
}

export const newRemittanceId = () => `rem_${randomBytes(12).toString('hex')}`;

/** Audit records written (and committed) together. */
const AUDIT_GROUP = 250;

export async function registerRemittanceRoutes(app: FastifyInstance, options: RemittanceRouteOptions): Promise<void> {
  const reader = new RemittanceReader();
  app.addHook('onClose', () => reader.close());
  await app.register(async (scope) => {
    // The 835 arrives as it was received: X12 text, not JSON.
    for (const type of ['application/edi-x12', 'text/plain'])
      scope.addContentTypeParser(type, { parseAs: 'string', bodyLimit: REMITTANCE_BODY_LIMIT }, (_request, body, done) => done(null, body));
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();

    api.post(
      '/v1/remittances',
      {
        bodyLimit: REMITTANCE_BODY_LIMIT,
        schema: {
          operationId: 'createRemittance',
          'x-success-description': 'Read and compared: each service line with the estimate it matched, or why none did.',
          tags: ['remittances'],
          summary: 'Read a remittance (X12 835) and compare what the payer paid with the estimates',
          description:
            'Send the 835 as received (`Content-Type: application/edi-x12` or `text/plain`, up to 5 MB). Each service line is matched to ' +
            "the latest estimate this key's owner answered for the same member ID, payer, date of service and procedure, and compared: the " +
            "member's share by kind against the estimate's parts, the payer's payment against `payer_obligation`, the allowed amount against " +
            "the session cost. Unmatched lines say why. `?payer_id=` names the payer when the 835's own IDs are not in the directory.",
          querystring: RemittanceQuery,
          body: {
            content: {
              'application/edi-x12': { schema: { type: 'string', description: 'An X12 835 (005010X221A1) interchange' } },
              'text/plain': { schema: { type: 'string', description: 'The same, as plain text' } },
            },
          },
          response: {
            201: RemittanceAnswer,
            400: ErrorResponse,
            401: ErrorResponse,
            413: ErrorResponse,
            415: ErrorResponse,
          },
        },
      },
      async (request, reply) => {
        const key = request.apiKey!;
        const owner = ownerOf(key);
        const started = performance.now();
        const at = isoNow(options.clock);
        if (typeof request.body !== 'string') throw HttpErrors.unsupportedRemittanceMediaType();
        const body = request.body;
        // Read in a worker thread, then matched a slice of claims at a time: a large file does not hold other requests up.
        const ingested = await ingestRemittance(body, request.query.payer_id, {
          network: options.network,
          hash: options.hash,
          estimatesFor: async (keys) => (await options.store.estimatesForMany(owner, keys, at)) as Map<string, KeptEstimate[]>,
          read: (text) => reader.read(text),
          pause: nextTurn,
        });
        const id = newRemittanceId();
        // Audited before anything is kept or answered: one record per claim, naming its member by keyed hash,
        // AUDIT_GROUP records to a commit.
        const { members } = ingested;
        const audit = options.audit;
        for (let first = 0; audit && first < members.length; first += AUDIT_GROUP) {
          const recorded = await Promise.all(
            members.slice(first, first + AUDIT_GROUP).map((m, n) =>
              audit.write({
                request_id: `${request.id}.${first + n + 1}`,
                at,
                key_id: key.id,
                endpoint: 'remittance',
                payer_id: m.payer_id,
                status: 201,
                error_code: null,
                latency_ms: Math.round(performance.now() - started),
                member_hash: m.member_hash,
                user_id: request.user?.id ?? null,
              }),
            ),
          );
          if (recorded.includes(false)) throw HttpErrors.remittanceNotRecorded();
        }
        const { members: _members, claim_keys: claimKeys, lines: matchedLines, ...counts } = ingested;
        // What each line observes of the benefits is kept for the desk's advisory, not answered.
        const lines = matchedLines.map(({ observed: _observed, ...l }) => l);
        const answer = { ...counts, lines };
        const result = { id, created_at: at, ...answer };
        // The answer's JSON, built in slices: kept (sealed) as it is, and sent as it is.
        const json = await jsonInSlices(result, 'lines', nextTurn);
        const claimOf = new Map(claimKeys.map((c) => [`${c.transaction}|${c.claim}`, c]));
        let queued = 0;
        const hooks = options.webhooks;
        // Asked once, before the transaction: most owners have no webhook for it, and a large file may hold thousands of mismatches.
        const events = hooks && (await hooks.store.list(owner)).some((h) => h.events.includes('estimate.mismatch')) ? mismatchEvents(id, at, lines) : [];
        await options.store.saveRemittance(
          {
            id,
            key_id: owner,
            created_at: at,
            claims: answer.claims,
            service_lines: answer.service_lines,
            matched: answer.matched,
            payload_json: json,
            lines: matchedLines
              .map((l, i) => ({ l, line_no: i + 1, claim: claimOf.get(`${l.transaction}|${l.claim}`) }))
              .filter(({ l }) => l.comparison !== null && l.payer_id !== null)
              .map(({ l, line_no, claim }) => ({
                line_no,
                payer_id: l.payer_id!,
                group_id: l.group_id,
                benefit_structure: l.benefit_structure,
                verdict: l.comparison!.verdict,
                difference: l.comparison!.difference,
                cause: l.comparison!.causes[0] ?? null,
                claim_no: claim?.claim_no ?? null,
                ...(l.observed ?? NO_OBSERVATION),
                // A reversal is bookkeeping: its own lines are never counted.
                withdrawn_by: claim?.reversal ? id : null,
              })),
            claims_keyed: claimKeys
              .filter((c) => c.claim_hash !== null)
              .map((c) => ({ claim_no: c.claim_no, claim_hash: c.claim_hash!, paid: c.paid, reversal: c.reversal ? 1 : 0 })),
          },
          async (tx) => {
            for (const event of events) queued += (await hooks!.store.enqueue(tx, owner, event, undefined, new Date(at))).length;
          },
          nextTurn,
        );
        if (queued > 0) options.webhooks?.wakeDeliveries();
        for (const l of answer.lines) if (l.comparison && l.payer_id) options.onVerdict?.(l.payer_id, l.comparison.verdict);
        // A string with a JSON content type goes out as it is (Fastify does not serialize it again): the
        // text is the answer's, RemittanceAnswer's fields only (the remittance tests compare it with GET's).
        reply.code(201).header('location', `/v1/remittances/${id}`).type('application/json; charset=utf-8');
        return json as unknown as RemittanceAnswer;
      },
    );

    api.get(
      '/v1/remittances/:id',
      {
        schema: {
          operationId: 'getRemittance',
          'x-success-description': 'The remittance as compared when it was received.',
          tags: ['remittances'],
          summary: 'A remittance received, with each line and its verdict',
          description:
            'The answer POST /v1/remittances gave, kept sealed: each service line with the estimate it ' +
            "matched and the comparison, or why none matched. Only the key's owner sees its remittances.",
          params: RemittanceParams,
          response: { 200: RemittanceAnswer, 401: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const found = await options.store.remittance(ownerOf(request.apiKey!), request.params.id);
        if (found === null) throw HttpErrors.noRemittance(request.params.id);
        return found as RemittanceAnswer;
      },
    );

    api.get(
      '/v1/accuracy',
      {
        schema: {
          operationId: 'getAccuracy',
          'x-success-description': 'How right the estimates were, per payer, plan and week.',
          tags: ['remittances'],
          summary: "How right this key's estimates were, from the remittances received",
          description:
            'Per payer, and per plan group and benefit structure within it, and per week: service lines compared, ' +
            'exact, within a dollar, off, not comparable, the totals collected too little and too much (cents), ' +
            'and the most frequent likely causes. `from` and `to` bound the days remittances were received.',
          querystring: AccuracyQuery,
          response: { 200: AccuracyReport, 400: ErrorResponse, 401: ErrorResponse },
        },
      },
      async (request) => {
        const q = request.query;
        return accuracyReport(await options.store.accuracyLines({ key_id: ownerOf(request.apiKey!), payer_id: q.payer_id, from: q.from, to: q.to }));
      },
    );
  });
}

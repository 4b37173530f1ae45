/**
 * GET /v1/payers (optionally ?query= to search) and GET /v1/payers/{id}: the payers this server
 * reaches and what each answers, never credentials, connections or endpoints.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PayerListing, PayerParams, PayersQuery, PayersResponse } from '../../domain/schemas/payers.ts';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import type { PayerInfo, PayerNetwork } from '../../payers/network.ts';
import { payerQueryProblem, preparePayerSearch } from '../../operations/payer-search.ts';
import { findPayerId } from '../../operations/resolve-payer.ts';
import { HttpErrors } from '../errors.ts';

const listing = (p: PayerInfo): PayerListing => ({
  payer_id: p.payer_id,
  name: p.name,
  supports_search: p.supports_search,
  medicaid_state: p.medicaid_state,
  carve_out_administrators: p.carve_out_administrators ?? [],
  ...(p.aliases && p.aliases.length > 0 ? { aliases: p.aliases } : {}),
  ...(p.eligibility ? { eligibility: p.eligibility } : {}),
});

/** Searches (GET /v1/payers?query=) one key may make a minute; listing every payer is not counted. */
export const PAYER_SEARCHES_PER_MINUTE = 120;

const hasQuery = (request: FastifyRequest) => (request.query as { query?: unknown } | undefined)?.query !== undefined;

export function registerPayerRoutes(app: FastifyInstance, network: PayerNetwork): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const all = network.payers();
  const body = { mode: network.mode, payers: all.map(listing) };
  const search = preparePayerSearch(all);
  api.get(
    '/v1/payers',
    {
      config: {
        rateLimit: {
          max: PAYER_SEARCHES_PER_MINUTE,
          timeWindow: 60_000,
          keyGenerator: (request: FastifyRequest) => `payer-search:${request.apiKey?.id ?? request.ip}`,
          allowList: (request: FastifyRequest) => !hasQuery(request),
          errorResponseBuilder: (_request: FastifyRequest, context: { max: number; after: string }) =>
            Object.assign(new Error(`At most ${context.max} payer searches a minute may be made with a key; retry in ${context.after}`), { statusCode: 429 }),
        },
      },
      schema: {
        operationId: 'payers',
        'x-success-description': 'The payers.',
        tags: ['payers'],
        summary: 'The payers this server reaches, or those matching a search',
        description:
          'The payers this server reaches, whether each answers name and date-of-birth searches (discover, scan), which state ' +
          'Medicaid program it is, and the behavioral-health administrators it hands members to. With `query`, only the payers whose ' +
          'ID, name or alias matches (case-insensitive, a typo forgiven), best first. In production, `aliases` lists the other IDs ' +
          "accepted as `payer_id` (an EHR's own, each clearinghouse's) and `eligibility` what the imported payer catalog says.",
        querystring: PayersQuery,
        response: { 200: PayersResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request) => {
      const { query } = request.query;
      if (query === undefined) return body;
      const problem = payerQueryProblem(query);
      if (problem) throw HttpErrors.invalid(problem).with({ errors: [{ field: 'query', message: problem }] });
      return { mode: network.mode, payers: search(query).map(listing) };
    },
  );
  api.get(
    '/v1/payers/:id',
    {
      schema: {
        operationId: 'getPayer',
        'x-success-description': 'The payer.',
        tags: ['payers'],
        summary: 'One payer, by its ID or any alias',
        description: 'One payer, named by its ID or by any of its aliases or connection payer IDs (the same IDs every check accepts as `payer_id`).',
        params: PayerParams,
        response: { 200: PayerListing, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const id = findPayerId(network, request.params.id);
      const payer = id === undefined ? undefined : network.payer(id);
      if (!payer) throw HttpErrors.noPayer();
      return listing(payer);
    },
  );
}

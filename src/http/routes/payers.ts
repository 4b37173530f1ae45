/**
 * GET /v1/payers (optionally ?query= to search) and GET /v1/payers/{id}: the payers this server
 * reaches and what each answers, never credentials, connections or endpoints.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../domain/errors.ts';
import { PayerListing, PayerParams, PayersQuery, PayersResponse } from '../../domain/schemas/payers.ts';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import type { PayerInfo, PayerNetwork } from '../../payers/network.ts';
import { searchPayers } from '../../operations/payer-search.ts';

const listing = (p: PayerInfo): PayerListing => ({
  payer_id: p.payer_id,
  name: p.name,
  supports_search: p.supports_search,
  medicaid_state: p.medicaid_state,
  carve_out_administrators: p.carve_out_administrators ?? [],
  ...(p.aliases && p.aliases.length > 0 ? { aliases: p.aliases } : {}),
  ...(p.eligibility ? { eligibility: p.eligibility } : {}),
});

export function registerPayerRoutes(app: FastifyInstance, network: PayerNetwork): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const all = network.payers();
  const body = { mode: network.mode, payers: all.map(listing) };
  api.get(
    '/v1/payers',
    {
      schema: {
        operationId: 'payers',
        tags: ['payers'],
        summary: 'The payers this server reaches, or those matching a search',
        querystring: PayersQuery,
        response: { 200: PayersResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => (request.query.query === undefined ? body : { mode: network.mode, payers: searchPayers(all, request.query.query).map(listing) }),
  );
  api.get(
    '/v1/payers/:id',
    {
      schema: {
        operationId: 'getPayer',
        tags: ['payers'],
        summary: 'One payer, by its ID or any alias',
        params: PayerParams,
        response: { 200: PayerListing, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const id = network.canonicalId?.(request.params.id) ?? request.params.id;
      const payer = network.payer(id);
      if (!payer) throw new ServiceError('NOT_FOUND', 'No payer with this ID or alias');
      return listing(payer);
    },
  );
}

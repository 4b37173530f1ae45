/** GET /v1/payers: the payers this server reaches and what each answers (never credentials or endpoints). */
import type { FastifyInstance } from 'fastify';
import { PayersResponse } from '../../domain/schemas/payers.ts';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import type { PayerNetwork } from '../../payers/network.ts';

export function registerPayerRoutes(app: FastifyInstance, network: PayerNetwork): void {
  const payers = network.payers().map((p) => ({
    payer_id: p.payer_id,
    name: p.name,
    supports_search: p.supports_search,
    medicaid_state: p.medicaid_state,
    carve_out_administrators: p.carve_out_administrators ?? [],
  }));
  const body = { mode: network.mode, payers };
  app.get(
    '/v1/payers',
    { schema: { operationId: 'payers', tags: ['payers'], summary: 'The payers this server reaches', response: { 200: PayersResponse, 401: ErrorResponse } } },
    async () => body,
  );
}

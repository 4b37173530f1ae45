/** GET /v1/payers: the payers this server reaches and what each answers (never credentials or endpoints). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PayerNetwork } from '../../payers/network.ts';

const PayerListing = Type.Object({
  payer_id: Type.String(),
  name: Type.String(),
  supports_search: Type.Boolean({ description: 'Answers name + DOB (+ ZIP) searches: usable by discover and scan' }),
  medicaid_state: Type.Union([Type.String(), Type.Null()], { description: 'The state whose Medicaid program this payer is' }),
  carve_out_administrators: Type.Array(Type.String(), { description: 'Administrators it hands mental health to that this server can ask' }),
});

const PayersResponse = Type.Object({ mode: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]), payers: Type.Array(PayerListing) });

export function registerPayerRoutes(app: FastifyInstance, network: PayerNetwork): void {
  const payers = network.payers().map((p) => ({
    payer_id: p.payer_id,
    name: p.name,
    supports_search: p.supports_search,
    medicaid_state: p.medicaid_state,
    carve_out_administrators: p.carve_out_administrators ?? [],
  }));
  const body = { mode: network.mode, payers };
  app.get('/v1/payers', { schema: { operationId: 'payers', tags: ['payers'], summary: 'The payers this server reaches', response: { 200: PayersResponse } } }, async () => body);
}

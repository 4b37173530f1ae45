/** GET /v1/sandbox/members: the scenario catalog, so integrators know whom to ask for. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import { SandboxMembersResponse } from '../../domain/schemas/sandbox.ts';
import { sandboxMemberTable } from '../../sandbox/member-table.ts';

export function registerSandboxRoutes(app: FastifyInstance): void {
  const table = sandboxMemberTable();
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/v1/sandbox/members',
    {
      schema: {
        operationId: 'sandboxMembers',
        'x-success-description': 'The sandbox catalog.',
        tags: ['sandbox'],
        summary: 'The sandbox member catalog',
        description: 'Every sandbox member and generated member ID, with the scenario it plays and the answer to expect per endpoint.',
        response: { 200: SandboxMembersResponse, 401: ErrorResponse },
      },
    },
    async () => ({ members: table }),
  );
}

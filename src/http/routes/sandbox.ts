/** GET /v1/sandbox/members: the scenario catalog, so integrators know whom to ask for. */
import type { FastifyInstance } from 'fastify';
import { sandboxMemberTable } from '../../sandbox/member-table.ts';

export function registerSandboxRoutes(app: FastifyInstance): void {
  const table = sandboxMemberTable();
  app.get('/v1/sandbox/members', { schema: { tags: ['sandbox'], summary: 'The sandbox member catalog' } }, async () => ({ members: table }));
}

/** The states of sign-ins through the identity provider that were used, so a replayed callback is refused (console-sessions.ts). */
import type { Kysely, Migration } from 'kysely';
import { createTable } from './create-table.ts';

export const oidcStatesMigration: Migration = {
  async up(db: Kysely<any>) {
    await createTable(db, 'oidc_states', { state_hash: 'varchar(64) primary key', expires_at: 'varchar(30) not null' });
  },
};

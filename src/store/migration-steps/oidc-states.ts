/** The states of sign-ins through the identity provider that were used, so a replayed callback is refused (console-sessions.ts). */
import type { Kysely, Migration } from 'kysely';

export const oidcStatesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('oidc_states')
      .addColumn('state_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
      .execute();
  },
};

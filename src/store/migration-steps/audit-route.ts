/**
 * Audit records name the exchange that answered: the connection (route) and the 270's control numbers
 * (ISA13, BHT03/TRN02), so a support ticket with the clearinghouse can name it.
 */
import type { Kysely, Migration } from 'kysely';

export const auditRouteMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('audit_events').addColumn('route', 'varchar(80)').execute();
    await db.schema.alterTable('audit_events').addColumn('control_number', 'varchar(9)').execute();
    await db.schema.alterTable('audit_events').addColumn('trace_number', 'varchar(50)').execute();
  },
};

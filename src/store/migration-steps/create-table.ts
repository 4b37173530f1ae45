/** One table of a migration step: its columns, primary key and indexes, written as the SQL they become. */
import type { ColumnDataType, ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';

/**
 * Each column in order, as its SQL type and constraints: 'varchar(40) primary key',
 * 'varchar(64) not null unique', 'integer not null default 0', 'text'.
 */
export type Columns = Record<string, string>;

export interface TableParts {
  /** A primary key over several columns, named `<table>_pk`. */
  primaryKey?: readonly string[];
  /** Indexes created right after the table, by name: the columns each covers. */
  indexes?: Record<string, readonly string[]>;
}

const COLUMN = /^(\S+)( primary key)?( not null)?( unique)?(?: default (\d+))?$/;

export async function createTable(db: Kysely<any>, table: string, columns: Columns, parts: TableParts = {}): Promise<void> {
  // The columns are known only at run time: any name the primary key names is one of them.
  let builder = db.schema.createTable(table) as CreateTableBuilder<string, string>;
  for (const [name, spec] of Object.entries(columns)) {
    const [, type, primaryKey, notNull, unique, defaultTo] = COLUMN.exec(spec) ?? [];
    if (!type) throw new Error(`column ${table}.${name}: '${spec}' is not a type and constraints`);
    builder = builder.addColumn(name, type as ColumnDataType, (c: ColumnDefinitionBuilder) => {
      if (primaryKey) c = c.primaryKey();
      if (notNull) c = c.notNull();
      if (unique) c = c.unique();
      if (defaultTo !== undefined) c = c.defaultTo(Number(defaultTo));
      return c;
    });
  }
  if (parts.primaryKey) builder = builder.addPrimaryKeyConstraint(`${table}_pk`, [...parts.primaryKey]);
  await builder.execute();
  for (const [index, on] of Object.entries(parts.indexes ?? {}))
    await db.schema
      .createIndex(index)
      .on(table)
      .columns([...on])
      .execute();
}

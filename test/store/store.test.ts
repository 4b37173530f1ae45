/** The store suite on SQLite, and on PostgreSQL when DATABASE_URL is set: the same assertions. */
import { describe } from 'node:test';
import { needsPostgres, postgresStore, sqliteStore } from '../support/stores.ts';
import { storeSuite } from './store-suite.ts';

describe('store on SQLite', () => storeSuite(sqliteStore));
describe('store on PostgreSQL', { skip: needsPostgres() }, () => storeSuite(postgresStore));

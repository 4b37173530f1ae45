/** The users and console-session suite on SQLite, and on PostgreSQL when DATABASE_URL is set. */
import { describe } from 'node:test';
import { needsPostgres, postgresStore, sqliteStore } from '../support/stores.ts';
import { usersSuite } from './users-suite.ts';

describe('users on SQLite', () => usersSuite(sqliteStore));
describe('users on PostgreSQL', { skip: needsPostgres() }, () => usersSuite(postgresStore));

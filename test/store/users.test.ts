/** The users and console-session suite on SQLite, and on PostgreSQL when DATABASE_URL is set. */
import { onEachStore } from '../support/stores.ts';
import { usersSuite } from './users-suite.ts';

onEachStore((dialect) => `users on ${dialect}`, usersSuite);

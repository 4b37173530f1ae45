/** The store suite on SQLite, and on PostgreSQL when DATABASE_URL is set: the same assertions. */
import { onEachStore } from '../support/stores.ts';
import { storeSuite } from './store-suite.ts';

onEachStore((dialect) => `store on ${dialect}`, storeSuite);

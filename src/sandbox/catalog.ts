/**
 * The sandbox scenario catalog: payers, plan templates, named members and member-ID suffix
 * scenarios, kept as data in the JSON files beside this one and checked once when it loads.
 */
import { loadCatalog } from './load-catalog.ts';
import members from './members.json' with { type: 'json' };
import payers from './payers.json' with { type: 'json' };
import plans from './plans.json' with { type: 'json' };
import suffixes from './suffixes.json' with { type: 'json' };

export const CATALOG = loadCatalog({ payers, plans, members, suffixes });

export type { Catalog } from './load-catalog.ts';
export * from './catalog-schema.ts';

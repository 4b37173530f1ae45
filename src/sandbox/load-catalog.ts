/**
 * Checks the catalog's JSON files against catalog-schema.ts and assembles the Catalog: one
 * compiled validation over the four files, then every plan and payer an entry names is looked up.
 * A file that does not match (a misspelt field, a plan or payer that does not exist) fails here,
 * with the file and path of each offending entry.
 */
import { Compile } from 'typebox/compile';
import { US_STATE_CODES } from '../domain/us-states.ts';
import { CatalogFilesSchema, type CatalogFiles, type CatalogMember, type CatalogPlan, type SandboxPayer, type SuffixScenario } from './catalog-schema.ts';

export interface Catalog {
  readonly payers: readonly SandboxPayer[];
  readonly plans: Readonly<Record<string, CatalogPlan>>;
  readonly members: readonly CatalogMember[];
  readonly suffixes: readonly SuffixScenario[];
  /** Carve-out administrators and the plan they answer with for the members handed to them. */
  readonly administratorPlans: Readonly<Record<string, string>>;
  /** The payer that answers a suffix's generated member IDs when the request names none. */
  readonly defaultSuffixPayer: Readonly<Record<string, string>>;
  readonly defaultPayerId: string;
  /** Payer ID a blank payer_id is sent to in the sandbox: any payer's member answers. */
  readonly anyPayerId: string;
}

export class CatalogError extends Error {
  override name = 'CatalogError';
}

/** One Medicaid program per state and territory: SBX-MCD-<state>. */
export const MEDICAID_PAYERS: readonly SandboxPayer[] = US_STATE_CODES.map((state) => ({
  payer_id: `SBX-MCD-${state}`,
  name: `${state} Medicaid (sandbox)`,
  supports_search: false,
  medicaid_state: state,
}));

const FILE_OF: Record<string, string> = { payers: 'payers.json', plans: 'plans.json', members: 'members.json', suffixes: 'suffixes.json' };

const compileSchema = () => Compile(CatalogFilesSchema);
/** Compiled at the first load. */
let validator: ReturnType<typeof compileSchema> | undefined;

/** "members.json /3/plan: ..." for each entry that fails the schema. */
function schemaProblems(files: unknown): string[] {
  validator ??= compileSchema();
  if (validator.Check(files)) return [];
  const lines = new Set<string>();
  for (const e of validator.Errors(files)) {
    // A failed union reports each branch, then itself: the union's own line says enough.
    if (e.keyword === 'const' || e.keyword === 'boolean') continue;
    const [, file = '', ...rest] = e.instancePath.split('/');
    lines.add(`${FILE_OF[file] ?? file} /${rest.join('/')}: ${e.message}`);
  }
  return [...lines];
}

/** Every plan and payer an entry names exists: "members.json /3/plan: unknown plan ...". */
function keyProblems(files: CatalogFiles, payerIds: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const plan = (where: string, key: string) => {
    if (!Object.hasOwn(files.plans, key)) problems.push(`${where}: unknown plan ${JSON.stringify(key)}: plans.json has no such key (a typo?)`);
  };
  const payer = (where: string, id: string) => {
    if (!payerIds.has(id)) problems.push(`${where}: unknown payer ${JSON.stringify(id)}: not in payers.json nor a SBX-MCD-<state> program`);
  };
  files.members.forEach((m, i) => (plan(`members.json /${i}/plan`, m.plan), payer(`members.json /${i}/payer_id`, m.payer_id)));
  files.suffixes.forEach((s, i) => plan(`suffixes.json /${i}/plan`, s.plan));
  for (const [id, key] of Object.entries(files.payers.administrator_plans)) {
    payer(`payers.json /administrator_plans/${id}`, id);
    plan(`payers.json /administrator_plans/${id}`, key);
  }
  for (const [suffix, id] of Object.entries(files.payers.default_suffix_payer)) payer(`payers.json /default_suffix_payer/${suffix}`, id);
  payer('payers.json /default_payer_id', files.payers.default_payer_id);
  return problems;
}

/** The catalog from its four JSON files, or a CatalogError listing every entry that does not match the schema. */
export function loadCatalog(files: { payers: unknown; plans: unknown; members: unknown; suffixes: unknown }): Catalog {
  const problems = schemaProblems(files);
  const valid = files as CatalogFiles;
  const payers = problems.length === 0 ? [...valid.payers.payers, ...MEDICAID_PAYERS] : [];
  if (problems.length === 0) problems.push(...keyProblems(valid, new Set(payers.map((p) => p.payer_id))));
  if (problems.length > 0)
    throw new CatalogError(`the sandbox catalog (src/sandbox/*.json) does not match its schema (catalog-schema.ts):\n${problems.join('\n')}`);
  return {
    payers,
    plans: valid.plans,
    members: valid.members,
    suffixes: valid.suffixes,
    administratorPlans: valid.payers.administrator_plans,
    defaultSuffixPayer: valid.payers.default_suffix_payer,
    defaultPayerId: valid.payers.default_payer_id,
    anyPayerId: valid.payers.any_payer_id,
  };
}

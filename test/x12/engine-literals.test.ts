/**
 * The engine names no code value (issue 38, "The engine's shape follows the data"): the code tables
 * (src/x12/code-tables/*.json) carry what the rules read of a code (family level, telehealth, kind of
 * share, not covered, status meaning, behavioral-health service type, ...), and the engine asks them.
 * This test reads the engine's sources with the TypeScript compiler and fails on an X12 code literal
 * (a value of any code table: EB01 to EB13, HSD, DTP, NM1, REF, III, INS, AAA, place of service)
 * compared against (=== !== == != < <= > >=), tested for membership (`includes`, `has`, a Set or an
 * array of codes), or switched on (`case`), unless ALLOWED below names it with its reason.
 *
 * Segment IDs ('EB', 'DTP', 'NM1', ...) are the grammar, not code values: a comparison with a
 * segment's `id` is read as a segment name and passes.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import ts from 'typescript';
import { CODE_TABLE_NAMES, codeTable, type CodeEntry, type CodeTableName } from '../../src/x12/code-tables/index.ts';
import segmentsJson from '../../src/x12/code-tables/segments.json' with { type: 'json' };

const root = new URL('../../', import.meta.url);
const src = (p: string) => new URL(p, root);

/** The engine: the benefits room, the 271 reader and its split files, and the estimate. */
const ENGINE_DIRS = ['src/x12/benefits/', 'src/domain/estimate/'];
const ENGINE_FILES = [
  'src/x12/normalize-271.ts',
  'src/x12/eligibility-stages.ts',
  'src/x12/benefit-selection.ts',
  'src/x12/eb-benefit.ts',
  'src/x12/member-loops.ts',
  'src/x12/member-refusal.ts',
  'src/x12/mental-health-status.ts',
  'src/x12/transaction-set.ts',
  'src/x12/related-entities.ts',
  'src/x12/patient.ts',
  'src/x12/plan-dates.ts',
  'src/x12/plan-identity.ts',
  'src/x12/plan-rows.ts',
  'src/x12/medicare.ts',
  'src/x12/carve-out-message.ts',
  'src/x12/continuation.ts',
  'src/x12/encounter-service.ts',
];

export function engineFiles(): string[] {
  const out = [...ENGINE_FILES];
  for (const dir of ENGINE_DIRS) for (const f of readdirSync(src(dir)).sort()) if (f.endsWith('.ts') && !f.endsWith('.d.ts')) out.push(dir + f);
  return out;
}

const CODES = new Set<string>();
for (const name of CODE_TABLE_NAMES) for (const code of Object.keys(codeTable(name).codes)) CODES.add(code);
const SEGMENT_IDS = new Set(Object.keys(segmentsJson.segments));

export interface Finding {
  file: string;
  line: number;
  code: string;
  /** Where the literal stands: compared, case, member (includes/has/Set/array of codes), a key of an object of codes. */
  how: 'compared' | 'case' | 'member' | 'key';
  /** What a compared literal is compared with, as written (`gender`, `el(nm1, 2)`): ALLOWED names it. */
  against: string;
  text: string;
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);

const isString = (n: ts.Node): n is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral => ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n);

/** `x.id` (a segment's ID): a literal compared with it is a segment name. */
const isSegmentId = (n: ts.Node) => ts.isPropertyAccessExpression(n) && n.name.text === 'id';

/** The literals an operand can be: itself, or either branch of a conditional (`x === (n ? 'Y' : 'N')`). */
function operandLiterals(n: ts.Expression): (ts.StringLiteral | ts.NoSubstitutionTemplateLiteral)[] {
  if (ts.isParenthesizedExpression(n)) return operandLiterals(n.expression);
  if (ts.isConditionalExpression(n)) return [...operandLiterals(n.whenTrue), ...operandLiterals(n.whenFalse)];
  return isString(n) ? [n] : [];
}

/** An object literal whose keys are all codes (two or more): a code table written in TypeScript. */
function codeKeys(n: ts.ObjectLiteralExpression): ts.PropertyName[] {
  const keys = n.properties.map((p) => (ts.isPropertyAssignment(p) ? p.name : undefined));
  if (keys.length < 2 || keys.some((k) => k === undefined)) return [];
  const names = keys as ts.PropertyName[];
  const text = (k: ts.PropertyName) => (ts.isIdentifier(k) || ts.isStringLiteral(k) || ts.isNumericLiteral(k) ? k.text : '');
  return names.every((k) => CODES.has(text(k))) ? names : [];
}

/** An array literal of strings, at least one a code: a code list, wherever it stands. */
function codeList(n: ts.ArrayLiteralExpression): boolean {
  return n.elements.length > 0 && n.elements.every(isString) && n.elements.some((e) => CODES.has((e as ts.StringLiteral).text));
}

export function findLiterals(file: string, text = readFileSync(src(file), 'utf8')): Finding[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: Finding[] = [];
  const add = (node: ts.Node, code: string, how: Finding['how'], against = '') => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    out.push({ file, line, code, how, against, text: text.split('\n')[line - 1]!.trim() });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
      for (const [side, other] of [
        [node.left, node.right],
        [node.right, node.left],
      ] as const) {
        for (const lit of operandLiterals(side)) {
          if (!CODES.has(lit.text)) continue;
          if (isSegmentId(other) && SEGMENT_IDS.has(lit.text)) continue;
          add(lit, lit.text, 'compared', other.getText(sf));
        }
      }
    } else if (ts.isCaseClause(node) && isString(node.expression) && CODES.has(node.expression.text)) {
      add(node.expression, node.expression.text, 'case');
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const arg = node.arguments[0];
      if ((method === 'includes' || method === 'has') && arg && isString(arg) && CODES.has(arg.text)) add(arg, arg.text, 'member');
    }
    if (ts.isObjectLiteralExpression(node)) for (const k of codeKeys(node)) add(k, (k as ts.Identifier).text, 'key');
    if (ts.isArrayLiteralExpression(node) && codeList(node)) {
      for (const e of node.elements) if (CODES.has((e as ts.StringLiteral).text)) add(e, (e as ts.StringLiteral).text, 'member');
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/**
 * Literals that stay, each with why: keyed "file: compared-with === code" (the operand as written, so
 * the same code compared with anything else in the file still fails). Each names its reason.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  // DMG03 is no element the benefit rules read: no code table decides it (elements.json, closed world), and its three
  // values are the API's own `gender` enum (M, F, U), copied when the payer sends one of them. 'M', 'F', 'U' match
  // EB01 codes only by spelling.
  'src/x12/member-loops.ts: gender === M': 'DMG03 gender copied into the API enum (M, F, U); decides no benefit',
  'src/x12/member-loops.ts: gender === F': 'DMG03 gender copied into the API enum (M, F, U); decides no benefit',
  'src/x12/member-loops.ts: gender === U': 'DMG03 gender copied into the API enum (M, F, U); decides no benefit',
  // NM102 (entity type qualifier: 1 person, 2 non-person) says how a name is written (first and last, or one
  // organization name); no code table decides it, and it decides no benefit. '1' matches EB01 1 only by spelling.
  'src/x12/related-entities.ts: el(nm1, 2) === 1': 'NM102 1 (a person): the name has first and last parts; decides no benefit',
  'src/x12/related-entities.ts: el(r.nm1, 2) === 1': 'NM102 1 (a person): the PCP named as a person, not an organization; decides no benefit',
};

const keyOf = (f: Finding) => `${f.file}: ${f.against} === ${f.code}`;

test('the engine compares no X12 code literal that does not come from a code table', () => {
  const findings = engineFiles().flatMap((f) => findLiterals(f));
  const offending = findings.filter((f) => f.how !== 'compared' || !Object.hasOwn(ALLOWED, keyOf(f)));
  // Every allowed entry still matches a literal (a stale one would allow a later literal silently).
  const used = new Set(findings.map(keyOf));
  assert.deepEqual(
    Object.keys(ALLOWED).filter((k) => !used.has(k)),
    [],
    'allowed entries no literal matches any more: remove them',
  );
  if (process.env.ENGINE_LITERALS_LIST) for (const f of findings) console.log(`${f.file}:${f.line} ${f.how} '${f.code}'  ${f.text}`);
  assert.deepEqual(
    offending.map((f) => `${f.file}:${f.line} ${f.how} '${f.code}': ${f.text}`),
    [],
    'code literals in the engine: give the code table the attribute the rule reads and ask the table',
  );
});

test('the scanner finds each kind of literal it is meant to, and passes what is not a code', () => {
  const probe = [
    "if (a === 'FAM' || 'MH' !== b) {}",
    "switch (x) { case 'IND': break; case 'total': break; }",
    "s.has('30'); l.includes('98'); const L = ['CF', 'A4'];",
    "if (seg.id === 'EB' || p === 'any' || x === '') {}",
    "const t = { PRP: 'primary', SEP: 'secondary' }; if (b.net === (n === 'in' ? 'Y' : 'N')) {}",
  ].join('\n');
  const found = findLiterals('probe.ts', probe).map((f) => `${f.line} ${f.how} ${f.code}`);
  assert.deepEqual(found, [
    '1 compared FAM',
    '1 compared MH',
    '2 case IND',
    '3 member 30',
    '3 member 98',
    '3 member CF',
    '3 member A4',
    '5 key PRP',
    '5 key SEP',
    '5 compared Y',
    '5 compared N',
  ]);
});

test('each allowed literal names its reason', () => {
  for (const [key, why] of Object.entries(ALLOWED)) assert.ok(why.length > 20, key);
});

/** The values each attribute the engine reads may hold (the unions of CodeEntry): a typo in a table would read as absent. */
const ATTRIBUTE_VALUES: Readonly<Record<string, readonly unknown[]>> = {
  role: [
    'status',
    'coinsurance',
    'copayment',
    'deductible',
    'out_of_pocket',
    'limitation',
    'not_covered',
    'cannot_process',
    'spend_down',
    'other_payer',
    'contact',
    'other_source',
    'primary_care',
    'restricted_provider',
    'managed_care',
    'disclaimer',
    'facility',
  ],
  coverage: ['active', 'active_pending_investigation', 'inactive'],
  family: [true],
  planLevel: [true],
  mentalHealth: [true],
  program: ['medicare', 'medicare_advantage', 'medicaid', 'qmb'],
  medicarePart: ['part_a', 'part_b'],
  premiumOnly: [true],
  exceeded: [true],
  perAdmission: [true],
  authorization: ['required', 'not_required'],
  network: ['in', 'out', 'both', 'unstated'],
  placeOfService: [true],
  telehealth: [true],
  inpatientStay: [true],
  of: ['plan', 'eligibility', 'benefit', 'coordination', 'period'],
  date: ['begin', 'end', 'range'],
  reads: ['member_id', 'plan_number', 'group_number', 'group_or_policy_number', 'policy_number', 'prior_authorization'],
  entity: ['utilization_manager', 'primary_care', 'other_payer', 'administrator'],
  coordination: ['primary', 'secondary', 'tertiary'],
  managedCare: [true],
  identifies: ['npi', 'payer', 'payer_plan', 'payer_naic', 'member'],
  demographicsCorrected: [true],
  persons: ['subscriber', 'spouse', 'children', 'dependents'],
  limitedProgram: ['family planning', 'emergency services', 'emergency care', 'dental care', 'vision care', 'pharmacy'],
};

test('the attributes the engine reads hold only the values it compares them with', () => {
  for (const name of CODE_TABLE_NAMES)
    for (const [code, entry] of Object.entries(codeTable(name).codes))
      for (const [key, value] of Object.entries(entry)) {
        const allowed = ATTRIBUTE_VALUES[key];
        if (allowed) assert.ok(allowed.includes(value), `${name} ${code} ${key}: ${String(value)}`);
      }
});

test('each attribute agrees with the effect the table states in words', () => {
  const codes = (name: CodeTableName, has: (e: CodeEntry) => boolean) =>
    Object.entries(codeTable(name).codes)
      .filter(([, e]) => has(e))
      .map(([c]) => c)
      .sort();
  // EB02: family levels are those whose effect says so.
  assert.deepEqual(
    codes('eb02', (e) => e.family === true),
    codes('eb02', (e) => e.effect.startsWith('family level')),
  );
  // EB01: every status code (1-8) has a coverage, and only they.
  assert.deepEqual(
    codes('eb01', (e) => e.role === 'status'),
    codes('eb01', (e) => e.coverage !== undefined),
  );
  // EB03: the mental-health types are behavioral-health tiers, never the plan level or substance abuse.
  for (const c of codes('eb03', (e) => e.mentalHealth === true)) assert.equal(codeTable('eb03').codes[c]!.tier, c === 'MH' ? 0 : 1, c);
  // DTP: the 2100 and 2110 tables agree on the dates both hold.
  for (const [code, e] of Object.entries(codeTable('dtp-2100').codes)) {
    const other = codeTable('dtp-2110').codes[code];
    if (e.of !== undefined && other) assert.deepEqual([other.of, other.date], [e.of, e.date], code);
  }
});

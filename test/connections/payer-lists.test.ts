/** `coverage payers import` of the vendors' own payer lists: Availity JSON, Stedi CSV, Stedi JSON; a bad record refuses the whole list. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Command } from 'commander';
import { availityEligibility, parseAvailityPayers } from '../../src/cli/payer-formats/availity-json.ts';
import { parseStediCsv } from '../../src/cli/payer-formats/stedi-csv.ts';
import { IMPORT_FORMATS, importPayers, registerPayersCommands } from '../../src/cli/payers.ts';
import { openDb, type Db } from '../../src/store/db.ts';
import { PayerCatalogStore } from '../../src/store/payer-catalog.ts';

let dir: string;
let db: Db;
let store: PayerCatalogStore;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coverage-payer-lists-'));
  db = await openDb({ dataDir: dir });
  store = new PayerCatalogStore(db);
});
after(async () => {
  await db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let files = 0;
async function runImport(content: string, connection: string, format: string, into = store): Promise<{ code: number; stderr: string }> {
  const file = join(dir, `list-${files++}`);
  writeFileSync(file, content);
  const err: string[] = [];
  const code = await importPayers(into, file, { connection, format }, { stdout: () => {}, stderr: (s) => err.push(s) });
  return { code, stderr: err.join('') };
}

const route = (transactionDescription: string, submissionMode: string, extra: Record<string, unknown> = {}) => ({
  transactionDescription,
  submissionMode,
  availability: true,
  enrollmentRequired: false,
  effectiveDate: '2011-09-18T01:48:45.000+0000',
  ...extra,
});
const ELIGIBILITY = 'Eligibility and Benefits Inquiry';

describe('availity-json', () => {
  const list = [
    {
      payerId: 'BCBSF',
      name: 'FLORIDA BLUE (BCBS FLORIDA)',
      displayName: 'FLORIDA BLUE',
      shortName: 'BCBS_OF_FL',
      processingRoutes: [route(ELIGIBILITY, 'RealTime'), route('Claim Status Inquiry', 'RealTime')],
    },
    {
      payerId: 'ENROLLME',
      name: 'Enrollment Health',
      processingRoutes: [route(ELIGIBILITY, 'API', { enrollmentRequired: true, enrollmentMode: 'Paperless' })],
    },
    { payerId: 'PORTALONLY', displayName: 'Portal Only Plan', processingRoutes: [route(ELIGIBILITY, 'Portal'), route('Professional Claims', 'Batch')] },
    { payerId: 'CLAIMSONLY', displayName: 'Claims Only Plan', processingRoutes: [route('Professional Claims', 'Batch')] },
    // The swagger's own typing: one route object rather than a list.
    { payerId: 'ONEROUTE', displayName: 'One Route Plan', processingRoutes: route(ELIGIBILITY, 'RealTime') },
  ];

  test('payerId is the payer and its Availity ID; displayName else name; eligibility from the 270 routes', async () => {
    const { code, stderr } = await runImport(JSON.stringify(list), 'availity', 'availity-json');
    assert.equal(code, 0, stderr);
    assert.match(stderr, /Imported 5 payers for connection availity: 5 added, 0 updated/);
    const byId = new Map((await store.list()).map((p) => [p.payer_id, p]));
    assert.deepEqual(byId.get('BCBSF'), {
      payer_id: 'BCBSF',
      name: 'FLORIDA BLUE',
      aliases: [],
      eligibility: 'supported',
      medicaid_state: null,
      routes: { availity: { payer_id: 'BCBSF', eligibility: 'supported' } },
    });
    assert.equal(byId.get('ENROLLME')!.name, 'Enrollment Health');
    assert.equal(byId.get('ENROLLME')!.eligibility, 'enrollment_required');
    assert.equal(byId.get('PORTALONLY')!.eligibility, 'not_supported', 'a portal-only 270 cannot answer a real-time check');
    assert.equal(byId.get('CLAIMSONLY')!.eligibility, 'not_supported');
    assert.equal(byId.get('ONEROUTE')!.eligibility, 'supported');
  });

  test('the list may come wrapped in {payers: [...]}; a payer listed twice is one payer with both route sets', () => {
    const { payers } = parseAvailityPayers(
      JSON.stringify({
        totalCount: 2,
        payers: [
          { payerId: 'TWICE', displayName: 'Twice Listed', processingRoutes: [route(ELIGIBILITY, 'Portal')] },
          { payerId: 'TWICE', displayName: 'Twice Listed', processingRoutes: [route(ELIGIBILITY, 'RealTime')] },
        ],
      }),
    );
    assert.equal(payers.length, 1);
    assert.equal(payers[0]!.entry.eligibility, 'supported');
    assert.equal(payers[0]!.connection_payer_id, 'TWICE');
  });

  test('eligibility: a 270 by transactionType too; a route needing another Availity contract or enrollment is enrollment_required', () => {
    assert.equal(availityEligibility([{ transactionType: '270', submissionMode: 'RealTime' }]), 'supported');
    assert.equal(availityEligibility([{ transactionDescription: ELIGIBILITY }]), 'supported', 'no mode given: usable');
    assert.equal(availityEligibility([route(ELIGIBILITY, 'RealTime', { availability: false })]), 'enrollment_required');
    assert.equal(availityEligibility([route(ELIGIBILITY, 'RealTime', { enrollmentRequired: true }), route(ELIGIBILITY, 'API')]), 'supported');
    assert.equal(availityEligibility([route(ELIGIBILITY, 'Batch')]), 'not_supported');
    assert.equal(availityEligibility([]), 'not_supported');
  });

  test('a bad record refuses the list, naming its index, and nothing is written', async () => {
    const before = await store.list();
    const bad = {
      payers: [
        { payerId: 'FINE1', displayName: 'Fine' },
        { payerId: 'BAD ID!', displayName: 'Broken' },
        { displayName: 'No ID' },
        { payerId: 'NONAME' },
        { payerId: 'ROUTES', displayName: 'R', processingRoutes: 'RealTime' },
      ],
    };
    const { code, stderr } = await runImport(JSON.stringify(bad), 'availity', 'availity-json');
    assert.equal(code, 1);
    assert.match(
      stderr,
      /nothing imported; fix these records: payers\[1\]: \/payerId .*; payers\[2\]: .*payerId.*; payers\[3\]: no displayName or name; payers\[4\]: \/processingRoutes/,
    );
    assert.deepEqual(await store.list(), before);
    assert.match((await runImport('{"payers": 3}', 'availity', 'availity-json')).stderr, /not Availity's payer list/);
    assert.match((await runImport('{payers', 'availity', 'availity-json')).stderr, /is not valid JSON \(availity-json\)/);
  });
});

// Stedi's documented CSV header names (GET /payers/csv), a subset and out of their order, with one we do not read.
const STEDI_HEADER =
  '"StediId","PrimaryPayerId","DisplayName","Names","Aliases","EligibilityInquiry","EligibilityInquiryEnrollmentRequired","EligibilityInquiryEnrollmentType","ClaimStatusInquiry","CoverageTypes","OperatingStates"';
const stediRow = (cells: string[]) => cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(',');

describe('stedi-csv', () => {
  test("Stedi's columns by name: PrimaryPayerId, DisplayName, Aliases and StediId as aliases, eligibility from the two flags", async () => {
    const csv = [
      STEDI_HEADER,
      stediRow(['KRPCH', '60054', 'Aetna', 'Aetna Inc|Aetna Health', '60054|AETNA|AETNA-PPO', 'true', 'false', '', 'true', 'medical', 'NATIONAL']),
      stediRow(['QWERT', '00590', 'Florida Blue', '', 'BCBSF|00590', 'true', 'true', 'ONE_CLICK', 'true', 'medical|dental', 'FL']),
      stediRow(['ZXCVB', 'NOELIG1', '', 'Claims Only Mutual|Other Name', '', 'false', 'false', '', 'true', 'medical', 'TX']),
    ].join('\r\n');
    const { code, stderr } = await runImport(csv, 'stedi', 'stedi-csv');
    assert.equal(code, 0, stderr);
    const byId = new Map((await store.list()).map((p) => [p.payer_id, p]));
    assert.deepEqual(byId.get('60054'), {
      payer_id: '60054',
      name: 'Aetna',
      aliases: ['AETNA', 'AETNA-PPO', 'KRPCH'],
      eligibility: 'supported',
      medicaid_state: null,
      routes: { stedi: { payer_id: '60054', eligibility: 'supported' } },
    });
    assert.equal(byId.get('00590')!.eligibility, 'enrollment_required');
    assert.deepEqual(byId.get('00590')!.aliases, ['BCBSF', 'QWERT']);
    assert.equal(byId.get('NOELIG1')!.eligibility, 'not_supported');
    assert.equal(byId.get('NOELIG1')!.name, 'Claims Only Mutual', 'no DisplayName: the first of Names');
  });

  test('header names match without regard to case, spaces or underscores', () => {
    const { payers } = parseStediCsv('primary payer id,display_name,ELIGIBILITY INQUIRY,aliases\nCMS,Medicare,TRUE,CMSMED|MEDICARE|CMS\n');
    assert.deepEqual(
      payers.map((p) => [p.entry.payer_id, p.entry.name, p.entry.eligibility, p.entry.aliases]),
      [['CMS', 'Medicare', 'supported', ['CMSMED', 'MEDICARE']]],
    );
  });

  test('missing columns are named with the ones read; a bad row refuses the file with its row number', async () => {
    assert.throws(
      () => parseStediCsv('payer_id,name\nA,B\n'),
      /no PrimaryPayerId, DisplayName, EligibilityInquiry column \(the columns read: StediId, PrimaryPayerId, DisplayName, Names, Aliases, EligibilityInquiry, EligibilityInquiryEnrollmentRequired/,
    );
    const before = await store.list();
    const csv = [
      STEDI_HEADER,
      stediRow(['OKAY1', 'OKAY1', 'Okay', '', '', 'true', 'false', '', '', '', '']),
      stediRow(['BAD01', 'BAD ID', 'Bad', '', '', 'maybe', 'x', '', '', '', '']),
    ].join('\n');
    const { code, stderr } = await runImport(csv, 'stedi', 'stedi-csv');
    assert.equal(code, 1);
    assert.match(
      stderr,
      /nothing imported; fix these rows: row 3: PrimaryPayerId .*, EligibilityInquiry \(true or false\), EligibilityInquiryEnrollmentRequired/,
    );
    assert.deepEqual(await store.list(), before);
  });

  test('an alias that cannot serve as an ID is left out and said so; the payer is imported', async () => {
    const csv = [STEDI_HEADER, stediRow(['ALIAS', 'ALIAS1', 'Alias Plan', '', 'GOOD1|BAD/ALIAS', 'true', 'false', '', '', '', ''])].join('\n');
    const { code, stderr } = await runImport(csv, 'stedi', 'stedi-csv');
    assert.equal(code, 0, stderr);
    assert.match(stderr, /row 2: skipped 1 alias\(es\) that are not IDs/);
    assert.deepEqual((await store.list()).find((p) => p.payer_id === 'ALIAS1')!.aliases, ['GOOD1', 'ALIAS']);
  });
});

test('stedi-json: a record without a usable primaryPayerId or with an unknown eligibility value refuses the list, naming it', async () => {
  const before = await store.list();
  const items = [
    { stediId: 'AAAAA', primaryPayerId: 'GOOD2', displayName: 'Good' },
    { stediId: 'BBBBB', displayName: 'No primary ID' },
    { stediId: 'CCCCC', primaryPayerId: 'ELIG', displayName: 'Odd', transactionSupport: { eligibilityCheck: 'SOMETIMES' } },
  ];
  const { code, stderr } = await runImport(JSON.stringify({ items }), 'stedi', 'stedi-json');
  assert.equal(code, 1);
  assert.match(stderr, /items\[1\]: .*primaryPayerId.*; items\[2\]: \/transactionSupport\/eligibilityCheck/);
  assert.deepEqual(await store.list(), before);
});

// Issue 23, finding 7: a payer listed twice in one file kept the last record without a word.
test('a payer_id listed twice in one file refuses the file, naming both records, in every format that lists a payer once', async () => {
  const before = await store.list();
  const generic = await runImport('payer_id,name\nTWICE1,First\nOTHER1,Other\nTWICE1,Second\n', 'gateway', 'csv');
  assert.equal(generic.code, 1);
  assert.match(generic.stderr, /nothing imported; fix these rows: row 4 repeats payer_id TWICE1 of row 2 \(one record per payer\)/);
  const stediCsv = [
    STEDI_HEADER,
    stediRow(['S1', 'TWICE2', 'First', '', '', 'true', 'false', '', '', '', '']),
    stediRow(['S2', 'TWICE2', 'Second', '', '', 'true', 'false', '', '', '', '']),
  ].join('\n');
  const stedi = await runImport(stediCsv, 'stedi', 'stedi-csv');
  assert.equal(stedi.code, 1);
  assert.match(stedi.stderr, /row 3 repeats PrimaryPayerId TWICE2 of row 2/);
  const items = [
    { primaryPayerId: 'TWICE3', displayName: 'First' },
    { primaryPayerId: 'TWICE3', displayName: 'Second' },
  ];
  const json = await runImport(JSON.stringify({ items }), 'stedi', 'stedi-json');
  assert.equal(json.code, 1);
  assert.match(json.stderr, /items\[1\] repeats primaryPayerId TWICE3 of items\[0\]/);
  assert.deepEqual(await store.list(), before);
});

test('`coverage payers import --help` and the --format check name all four formats', async () => {
  assert.deepEqual(IMPORT_FORMATS, ['csv', 'stedi-json', 'stedi-csv', 'availity-json']);
  const program = new Command('coverage');
  registerPayersCommands(program);
  const help = program.commands
    .find((c) => c.name() === 'payers')!
    .commands.find((c) => c.name() === 'import')!
    .helpInformation();
  for (const f of IMPORT_FORMATS) assert.ok(help.includes(f), `${f} in ${help}`);
  const { code, stderr } = await runImport('x', 'stedi', 'x12');
  assert.equal(code, 2);
  assert.match(stderr, /--format must be csv, stedi-json, stedi-csv, availity-json/);
});

describe("one payer across connections' lists", () => {
  let own: PayerCatalogStore;
  let ownDb: Db;
  before(async () => {
    ownDb = await openDb({ dataDir: mkdtempSync(join(dir, 'merge-')) });
    own = new PayerCatalogStore(ownDb);
  });
  after(() => ownDb?.close());

  test("an ID that is an existing payer's alias or another connection's payer ID merges into it (said on stderr); eligibility stays per route", async () => {
    // Gateway's ID for UnitedHealthcare is 87726, which is also the payer's ID in Stedi's list.
    const gateway = (eligibility: string) => `payer_id,name,connection_payer_id,eligibility\nUHC,UnitedHealthcare,87726,${eligibility}\n`;
    assert.match((await runImport(gateway('enrollment_required'), 'gateway', 'csv', own)).stderr, /1 added, 0 updated, 0 merged/);
    const stediList = {
      items: [
        { primaryPayerId: '60054', displayName: 'Aetna', aliases: ['AETNA'] },
        { primaryPayerId: '87726', displayName: 'UHC' },
      ],
    };
    assert.match((await runImport(JSON.stringify(stediList), 'stedi', 'stedi-json', own)).stderr, /1 added, 0 updated, 1 merged into existing payers/);
    // Availity keys Aetna by its name, Stedi's alias, in another case.
    const availityList = [{ payerId: 'aetna', displayName: 'AETNA (Availity)', processingRoutes: [route(ELIGIBILITY, 'Portal')] }];
    const merged = await runImport(JSON.stringify(availityList), 'availity', 'availity-json', own);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stderr, /Imported 1 payers for connection availity: 0 added, 0 updated, 1 merged into existing payers/);
    assert.deepEqual(await own.list(), [
      {
        payer_id: '60054',
        name: 'Aetna',
        aliases: ['AETNA'],
        eligibility: 'supported',
        medicaid_state: null,
        routes: { availity: { payer_id: 'aetna', eligibility: 'not_supported' }, stedi: { payer_id: '60054', eligibility: 'supported' } },
      },
      {
        payer_id: 'UHC',
        name: 'UnitedHealthcare',
        aliases: ['87726'],
        eligibility: 'supported',
        medicaid_state: null,
        routes: { gateway: { payer_id: '87726', eligibility: 'enrollment_required' }, stedi: { payer_id: '87726', eligibility: 'supported' } },
      },
    ]);
    // The CSV's eligibility column is its connection's: the gateway route not_supported leaves Stedi's.
    assert.match((await runImport(gateway('not_supported'), 'gateway', 'csv', own)).stderr, /0 added, 1 updated, 0 merged/);
    const uhc = (await own.list()).find((p) => p.payer_id === 'UHC')!;
    assert.equal(uhc.eligibility, 'supported');
    assert.equal(uhc.routes.gateway!.eligibility, 'not_supported');
  });

  test('a record matching two payers refuses the list, naming it, and nothing is written', async () => {
    const before = await own.list();
    // AETNA is Aetna's alias and 87726 UHC's ID at Stedi: one row cannot be both payers.
    const csv = 'payer_id,name,connection_payer_id\nNEWPAYER,New,NEWPAYER\nAETNA,Confused,87726\n';
    const { code, stderr } = await runImport(csv, 'optum', 'csv', own);
    assert.equal(code, 1);
    assert.match(stderr, /nothing imported; fix these records, each of which must name one payer of the catalog: AETNA: matches catalog payers 60054 and UHC/);
    assert.deepEqual(await own.list(), before);
  });
});

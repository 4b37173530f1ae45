/**
 * The closed world (docs/estimates.md 1.1, "Closed world"): the one place a 271's values are held to
 * the code tables. A value its table decides "unknown: ...", or one outside every table, is never read
 * as if its element were absent: the row carrying it cannot price, and a figure it competes for is
 * unknown (benefit-selection.ts). Which elements are checked, and against which table, is
 * code-tables/elements.json; no code value is written here.
 */
import type { IsoDate } from '../../domain/coverage.ts';
import { ELEMENT_RULES, codeIn, codeTable, decisionOf, type CodeEntry } from '../code-tables/index.ts';
import { isProviderEntity } from '../code-tables/attributes.ts';
import type { Delimiters } from '../delimiters.ts';
import type { BenefitLoop, NameLoop } from '../loops.ts';
import { components, el, repetitions, type Segment } from '../tokenizer.ts';
import { readDtpDate } from '../values.ts';
import { namesNetwork, shareRankOf, type Selectable, type UnknownValue } from './rows.ts';

export type { UnknownValue } from './rows.ts';

interface Check {
  /** "2110 EB13-01" */
  key: string;
  segment: string;
  element: number;
  /** 1-based component of a composite; 0: the element itself. */
  component: number;
  codes: Readonly<Record<string, CodeEntry>>;
  table: string;
  /** Checked only when another element of the segment has this value (III02 when III01 is ZZ). */
  when: { element: number; value: string } | null;
  scope: UnknownValue['scope'];
}

/** "EB13-01" -> segment EB, element 13, component 1; "III02" -> III, 2, 0. */
function parseElement(name: string): { segment: string; element: number; component: number } {
  const m = /^([A-Z][A-Z0-9]*?)(\d\d)(?:-(\d\d))?$/.exec(name);
  if (!m) throw new Error(`elements.json: cannot read element ${name}`);
  return { segment: m[1]!, element: Number(m[2]), component: m[3] ? Number(m[3]) : 0 };
}

function checksOf(loop: string): Check[] {
  const out: Check[] = [];
  for (const [key, rule] of Object.entries(ELEMENT_RULES)) {
    if (!key.startsWith(`${loop} `) || rule.table === undefined) continue;
    const where = parseElement(key.slice(loop.length + 1));
    let when: Check['when'] = null;
    if (rule.when) {
      const [name, value] = rule.when.split(' ');
      when = { element: parseElement(name!).element, value: value! };
    }
    out.push({ key, ...where, codes: codeTable(rule.table).codes, table: rule.table, when, scope: rule.scope ?? null });
  }
  return out;
}

/** The checks of a 2110 loop, by the segments they read (most loops have only the EB). */
interface LoopChecks {
  eb: Check[];
  hsd: Check[];
  ref: Check[];
  dtp: Check[];
  aaa: Check[];
  iii: Check[];
  nm1: Check[];
  prv: Check[];
}

let loopChecks: LoopChecks | null = null;
let memberChecks: Check[] | null = null;

function benefitChecks(): LoopChecks {
  const out: LoopChecks = { eb: [], hsd: [], ref: [], dtp: [], aaa: [], iii: [], nm1: [], prv: [] };
  for (const c of [...checksOf('2110'), ...checksOf('2115'), ...checksOf('2120')]) {
    const list = (out as unknown as Record<string, Check[] | undefined>)[c.segment.toLowerCase()];
    if (list === undefined) throw new Error(`closed-world: no segment list for ${c.key}`);
    list.push(c);
  }
  return out;
}

/** The verdict on each value a check met (the same values come again and again): null, or the unknown value. */
const verdicts = new WeakMap<Check, Map<string, UnknownValue | null>[]>();

function judge(check: Check, value: string, figureRow: boolean): UnknownValue | null {
  let byRow = verdicts.get(check);
  if (!byRow) verdicts.set(check, (byRow = [new Map<string, UnknownValue | null>(), new Map<string, UnknownValue | null>()]));
  const memo = byRow[figureRow ? 1 : 0]!;
  const known = memo.get(value);
  if (known !== undefined) return known;
  const entry = codeIn(check.codes, value);
  const element = check.key.slice(5);
  let verdict: UnknownValue | null = null;
  if (entry === undefined) verdict = { element, value, why: `not in the TR3 list (${check.table}): no rule reads it`, scope: check.scope };
  else if (decisionOf(entry, figureRow) === 'unknown') verdict = { element, value, why: entry.effect, scope: check.scope };
  // A value outside every table can be anything a sender writes: only the table's own values are kept.
  if (entry !== undefined || memo.size < 256) memo.set(value, verdict);
  return verdict;
}

function checkSegment(seg: Segment, checks: readonly Check[], d: Delimiters, figureRow: boolean, out: UnknownValue[] | null): UnknownValue[] | null {
  for (const check of checks) {
    if (check.when && el(seg, check.when.element) !== check.when.value) continue;
    const raw = el(seg, check.element);
    if (raw === '') continue;
    // A composite (EB13) is one value, never repeated: its separator may be the repetition separator too.
    if (check.component > 0) {
      const value = components(raw, d)[check.component - 1] ?? '';
      const u = value === '' ? null : judge(check, value, figureRow);
      if (u) (out ??= []).push(u);
    } else if (d.repetition !== null && raw.includes(d.repetition)) {
      for (const value of repetitions(raw, d)) {
        const u = value === '' ? null : judge(check, value, figureRow);
        if (u) (out ??= []).push(u);
      }
    } else {
      const u = judge(check, raw, figureRow);
      if (u) (out ??= []).push(u);
    }
  }
  return out;
}

const NO_VALUES: readonly UnknownValue[] = [];

/**
 * The values of a 2110 loop (its EB, HSD, REF, DTP, AAA, 2115 III and 2120 NM1/PRV) that no rule reads:
 * decided "unknown" by their table (on a row stating a figure when the table says so: `figureRow`), or
 * outside every table. Most rows have none. `providersDecided`: the row's named providers were held to
 * the treating provider's NPI (providers.ts): their NM101 is read, not unknown.
 */
export function unknownValues(loop: BenefitLoop, d: Delimiters, figureRow: boolean, providersDecided = false): readonly UnknownValue[] {
  const c = (loopChecks ??= benefitChecks());
  let out = checkSegment(loop.seg, c.eb, d, figureRow, null);
  for (const seg of loop.hsd) out = checkSegment(seg, c.hsd, d, figureRow, out);
  for (const seg of loop.ref) out = checkSegment(seg, c.ref, d, figureRow, out);
  for (const seg of loop.dtp) out = checkSegment(seg, c.dtp, d, figureRow, out);
  for (const seg of loop.aaa) out = checkSegment(seg, c.aaa, d, figureRow, out);
  for (const seg of loop.iii) out = checkSegment(seg, c.iii, d, figureRow, out);
  for (const r of loop.related) {
    out = checkSegment(r.nm1, c.nm1, d, figureRow && !(providersDecided && isProviderEntity(el(r.nm1, 1))), out);
    if (r.prv) out = checkSegment(r.prv, c.prv, d, figureRow, out);
  }
  return out ?? NO_VALUES;
}

/** "EB13-01 ID (…why…)", the values in words for the explanation. */
export function unknownWords(values: readonly UnknownValue[]): string {
  return values.map((u) => `${u.element} ${u.value}: ${u.why}`).join('; ');
}

/**
 * The 2100C/2100D dates that bound the coverage without being ones the plan gate reads (dtp-2100.json
 * `bounds`: a premium paid-to end before the day the payer answered, a date of death before the date of
 * service in the patient's own loop (`at.patient` false: another person's loop), ...), and DTP qualifiers
 * outside the table: while any holds, no figure prices the session.
 */
export function unknownMemberDates(
  name: NameLoop | undefined,
  dateOfService: IsoDate | null,
  at: { inquiry?: IsoDate | null; patient?: boolean } = {},
): readonly UnknownValue[] {
  if (!name || name.dtp.length === 0 || dateOfService === null) return NO_VALUES;
  memberChecks ??= checksOf('2100').filter((c) => c.segment === 'DTP' && c.element === 1);
  let out: UnknownValue[] | null = null;
  for (const check of memberChecks) {
    for (const dtp of name.dtp) {
      const q = el(dtp, 1);
      if (q === '') continue;
      const entry = codeIn(check.codes, q);
      if (entry === undefined) {
        (out ??= []).push({ element: 'DTP01', value: q, why: `not in the TR3 list (${check.table}): no rule reads it`, scope: null });
        continue;
      }
      // A person's date (442 death) in another person's loop (the subscriber's, for a dependent patient) says nothing of the patient.
      if (entry.bounds === undefined || (entry.person === true && at.patient === false)) continue;
      const r = readDtpDate(el(dtp, 2), el(dtp, 3));
      if (r === null) continue;
      const date = entry.bounds === 'end' ? (r.end ?? r.start) : r.start;
      // A premium paid-to date is compared with the day the payer answered (dtp-2100.json `boundsAt`).
      const against = entry.boundsAt === 'inquiry' ? (at.inquiry ?? dateOfService) : dateOfService;
      const outside = entry.bounds === 'end' ? date < against : date > against;
      if (outside) (out ??= []).push({ element: 'DTP01', value: `${q} ${date}`, why: entry.effect, scope: null });
    }
  }
  return out ?? NO_VALUES;
}

/** Whether the row has an unknown value in an element deciding where it applies (its service type, procedure, place or network). */
export function unknownScope(b: Pick<Selectable, 'unknown'>, scope: NonNullable<UnknownValue['scope']>): boolean {
  const u = b.unknown;
  if (u === undefined || u.length === 0) return false;
  for (const v of u) if (v.scope === scope) return true;
  return false;
}

/**
 * The most specific rank (rows.ts rowRank) a row with unknown values could have: an unknown service
 * type may be MH, an unknown procedure qualifier the encounter's procedure, an unknown network the
 * one asked about. A figure whose deciding rank is not more specific than this is one the row competes for.
 */
export function competingRank(b: Selectable): number {
  return competingScope(b) + competingNet(b);
}

/** competingRank's procedure and service type part. */
function competingScope(b: Selectable): number {
  const procedure = unknownScope(b, 'procedure') ? 0 : b.procedure === null ? 1000 : b.procedureEnd != null ? 500 : 0;
  const tier = unknownScope(b, 'service') ? 0 : Math.max(b.tier, 0);
  return procedure + tier * 10;
}
const competingNet = (b: Selectable) => (unknownScope(b, 'network') || namesNetwork(b) ? 0 : 1);

/**
 * competingRank for a cost share, where a row naming the place ranks first (share-group.ts shareRank); an unknown
 * place may be the visit's, and a provider named with no NPI the treating one (providers.ts).
 */
export function competingShareRank(b: Selectable): number {
  const ours = b.provider != null && b.provider.fit !== 'other';
  return shareRankOf(competingScope(b), competingNet(b), b.place !== 'any' || unknownScope(b, 'place') ? 0 : 2, ours);
}

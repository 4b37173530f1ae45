/**
 * The TR3 005010X279A1 code lists the 271 reader acts on, as data (one JSON file per list, every
 * value with its effect, "ignored, because ..." or "unknown: ..."): docs/estimates.md section 1.7.
 * The reader's decisions on EB03 (tier, inpatient/outpatient), EB06 (accumulator kind) and
 * EB09/HSD01 (the unit of a limit) come from these tables, and elements.json says which table
 * decides each coded element of the member loops: what no table decides is unknown (closed world,
 * docs/estimates.md 1.1; benefits/closed-world.ts).
 */
import type { Segment } from '../tokenizer.ts';
import { el } from '../tokenizer.ts';
import aaa032100 from './aaa03-2100.json' with { type: 'json' };
import aaa032110 from './aaa03-2110.json' with { type: 'json' };
import aaa04 from './aaa04.json' with { type: 'json' };
import dtp2100 from './dtp-2100.json' with { type: 'json' };
import dtp2110 from './dtp-2110.json' with { type: 'json' };
import eb01 from './eb01.json' with { type: 'json' };
import eb02 from './eb02.json' with { type: 'json' };
import eb03 from './eb03.json' with { type: 'json' };
import eb04 from './eb04.json' with { type: 'json' };
import eb06 from './eb06.json' with { type: 'json' };
import eb11 from './eb11.json' with { type: 'json' };
import eb12 from './eb12.json' with { type: 'json' };
import eb13Qualifier from './eb13-qualifier.json' with { type: 'json' };
import elements from './elements.json' with { type: 'json' };
import hsd03 from './hsd03.json' with { type: 'json' };
import hsd05 from './hsd05.json' with { type: 'json' };
import hsd07 from './hsd07.json' with { type: 'json' };
import hsd08 from './hsd08.json' with { type: 'json' };
import iii from './iii.json' with { type: 'json' };
import ins01 from './ins01.json' with { type: 'json' };
import ins02 from './ins02.json' with { type: 'json' };
import ins03 from './ins03.json' with { type: 'json' };
import ins04 from './ins04.json' with { type: 'json' };
import nm1012120 from './nm101-2120.json' with { type: 'json' };
import nm1082120 from './nm108-2120.json' with { type: 'json' };
import nm1102120 from './nm110-2120.json' with { type: 'json' };
import placeOfService from './place-of-service.json' with { type: 'json' };
import prv01 from './prv01.json' with { type: 'json' };
import quantity from './quantity.json' with { type: 'json' };
import ref2100 from './ref-2100.json' with { type: 'json' };
import ref2110 from './ref-2110.json' with { type: 'json' };

export interface CodeEntry {
  name: string;
  effect: string;
  /** EB06: what an amount with this period is (an accumulator total, remaining, met so far, or none of these). */
  kind?: 'total' | 'remaining' | 'met' | 'other';
  /** EB03: the behavioral-health specificity tier (0 MH ... 3 plan level), null when not one. */
  tier?: number | null;
  /** EB03: the care the type is limited to (inpatient rows never price an outpatient visit, and the reverse). */
  care?: 'inpatient' | 'outpatient' | null;
  /** EB09/HSD01: what a limit in it counts (visits; another unit a session uses: hours, days, units; nothing a session uses). */
  unit?: 'visits' | 'service' | 'none';
  /** EB09/HSD01 of a unit of time: the minutes of a session one of it is (HS hours: 60), compared with a timed procedure's session. */
  minutes?: number;
  /** EB06: what a dollar limit (EB01 F with an amount) in this period is: the most paid for one session, or a maximum used up (benefits/dollar-limits.ts). */
  dollarLimit?: 'per_session' | 'used_up';
  /** 2100C/D DTP01: a date that bounds the coverage without being one the plan gate reads; outside the date of service it is unknown. */
  bounds?: 'begin' | 'end';
  /** 2100C/D DTP01 with `bounds`: compared with the day the payer answered (BHT04), not the date of service (343 premium paid to). */
  boundsAt?: 'inquiry';
  /** 2100C/D DTP01 with `bounds`: a date of the person (442 death), read in the patient's own loop only. */
  person?: boolean;
  /** 2100C/D DTP01: a begin or end of the member's coverage beside the eligibility dates: the later begin, the earlier end (continuation.ts). */
  narrows?: 'begin' | 'end';
  /** 2100C/D DTP01: the begin or end of COBRA continuation, which continues an eligibility ending right before it (continuation.ts). */
  continuation?: 'begin' | 'end';
  /**
   * EB01: the row states that the benefit has no limit (H Unlimited): a less specific visit limit does not limit it.
   * EB09/HSD01 (quantity.json) with no unit of its own: on a limit row, the used count or the total of the limit beside
   * it, or a quantity that leaves what is left of the limit unknown.
   */
  limit?: 'unlimited' | 'used' | 'maximum' | 'unknown';
  /** Unknown on a row stating a figure (a cost share, accumulator, limit, not covered) only; an effect on another row. */
  unknownOn?: 'figures';
  /** EB01: what the row is (a status, a kind of cost share, a limitation, not covered, another payer, a contact, ...). */
  role?: BenefitRole;
  /** EB01 1-8: what the status says of coverage. */
  coverage?: 'active' | 'active_pending_investigation' | 'inactive';
  /** EB02: the level covers more than one person (family accumulators). */
  family?: boolean;
  /** EB03: the service type of the plan as a whole (30). */
  planLevel?: boolean;
  /** EB03: a service type of mental health itself (not substance abuse, 98 or 30). */
  mentalHealth?: boolean;
  /** EB04: the government program the code names (anything else is commercial). */
  program?: 'medicare' | 'medicare_advantage' | 'medicaid' | 'qmb';
  /** EB04: the Medicare part the code names. */
  medicarePart?: 'part_a' | 'part_b';
  /** EB04: a program paying the Medicare premium only (SLMB): never QMB. */
  premiumOnly?: boolean;
  /** EB06: the limit is used up (a remaining of 0). */
  exceeded?: boolean;
  /** EB06: stated per admission, an inpatient measure. */
  perAdmission?: boolean;
  /** EB06: the span an accumulator's total, remaining or used count measures, when not the plan year (absent: the plan year). */
  span?: 'lifetime' | 'episode';
  /** EB11: whether the service needs authorization or certification. */
  authorization?: 'required' | 'not_required';
  /** EB12: the network the row speaks for ('both': stated for both; 'unstated': the payer does not say). */
  network?: 'in' | 'out' | 'both' | 'unstated';
  /** III01: III02 is a place of service. */
  placeOfService?: boolean;
  /** III01: III02 is a nature of injury, the only care the row applies to. */
  natureOfInjury?: boolean;
  /** Place of service: its name in the explanation's words (the places a behavioral-health 271 uses). */
  words?: string;
  /** Place of service: a telehealth place (the patient is elsewhere). */
  telehealth?: boolean;
  /**
   * Place of service, telehealth: the code named all telehealth before the CMS split of 2022, so a row naming it
   * still prices a telehealth visit at the other telehealth place; a telehealth code without it names its own place only.
   */
  anyTelehealth?: boolean;
  /** Place of service: a place of an inpatient stay (an outpatient visit never is). */
  inpatientStay?: boolean;
  /** EB02: the persons a cost share at this coverage level is for; INS02: the persons the relationship makes the patient one of. */
  persons?: string;
  /** EB03: a limited program's service (family planning, emergency services, dental, vision, pharmacy), in words: a plan active for such services alone does not cover a psychotherapy session. */
  limitedProgram?: string;
  /** DTP01: what the date is of (the plan, the member's eligibility, the benefit, coordination of benefits, the period a figure counts)... */
  of?: 'plan' | 'eligibility' | 'benefit' | 'coordination' | 'period';
  /** ... and which date it is: a begin, an end, or a range (RD8, or one date). */
  date?: 'begin' | 'end' | 'range';
  /** REF01: what REF02 holds. */
  reads?: 'member_id' | 'plan_number' | 'group_number' | 'group_or_policy_number' | 'policy_number' | 'prior_authorization';
  /** 2120 NM101: the part the entity plays. */
  entity?: 'utilization_manager' | 'primary_care' | 'other_payer' | 'administrator';
  /** 2120 NM101: the other payer's place in coordination of benefits. */
  coordination?: 'primary' | 'secondary' | 'tertiary';
  /** 2120 NM101: a managed care organization. */
  managedCare?: boolean;
  /** 2120 NM101: a provider a figure can be tied to (1P, P3, 73, FA, 13, I3): its NPI decides whether the row is the treating provider's. */
  provider?: boolean;
  /** NM108: what NM109 identifies (a payer by its payer ID, its CMS plan ID or its NAIC code; an NPI; a member). */
  identifies?: 'npi' | 'payer' | 'payer_plan' | 'payer_naic' | 'member';
  /** INS03/INS04: together, the payer corrected the member's identifying data. */
  demographicsCorrected?: boolean;
}

/** EB01 as the rules read it (code-tables/eb01.json `role`). */
export type BenefitRole =
  | 'status'
  | 'coinsurance'
  | 'copayment'
  | 'deductible'
  | 'out_of_pocket'
  | 'limitation'
  | 'not_covered'
  | 'cannot_process'
  | 'description'
  | 'spend_down'
  | 'other_payer'
  | 'contact'
  | 'other_source'
  | 'primary_care'
  | 'restricted_provider'
  | 'managed_care'
  | 'disclaimer'
  | 'facility';

export interface CodeTable {
  title: string;
  source: string;
  codes: Readonly<Record<string, CodeEntry>>;
}

export const CODE_TABLE_NAMES = [
  'eb01',
  'eb02',
  'eb03',
  'eb04',
  'eb06',
  'eb11',
  'eb12',
  'eb13-qualifier',
  'dtp-2100',
  'dtp-2110',
  'hsd03',
  'hsd05',
  'hsd07',
  'hsd08',
  'iii',
  'place-of-service',
  'quantity',
  'ref-2100',
  'ref-2110',
  'nm101-2120',
  'nm108-2120',
  'nm110-2120',
  'prv01',
  'ins01',
  'ins02',
  'ins03',
  'ins04',
  'aaa03-2100',
  'aaa03-2110',
  'aaa04',
] as const;
export type CodeTableName = (typeof CODE_TABLE_NAMES)[number];

// JSON modules (x12/ does no I/O): the tables are part of the code's data, read once at import.
const TABLES: Readonly<Record<CodeTableName, CodeTable>> = {
  eb01: eb01 as CodeTable,
  eb02: eb02,
  eb03: eb03 as CodeTable,
  eb04: eb04 as CodeTable,
  eb06: eb06 as CodeTable,
  eb11: eb11 as CodeTable,
  eb12: eb12 as CodeTable,
  'eb13-qualifier': eb13Qualifier,
  'dtp-2100': dtp2100 as CodeTable,
  'dtp-2110': dtp2110 as CodeTable,
  hsd03: hsd03,
  hsd05: hsd05,
  hsd07: hsd07,
  hsd08: hsd08,
  iii: iii,
  'place-of-service': placeOfService,
  quantity: quantity as CodeTable,
  'ref-2100': ref2100 as CodeTable,
  'ref-2110': ref2110 as CodeTable,
  'nm101-2120': nm1012120 as CodeTable,
  'nm108-2120': nm1082120 as CodeTable,
  'nm110-2120': nm1102120,
  prv01: prv01,
  ins01: ins01,
  ins02: ins02,
  ins03: ins03,
  ins04: ins04,
  'aaa03-2100': aaa032100,
  'aaa03-2110': aaa032110,
  aaa04: aaa04,
};

export function codeTable(name: CodeTableName): CodeTable {
  return TABLES[name];
}

/**
 * `table[code]` for a code read from a document, own keys only: code tables are plain objects, and a
 * code such as "constructor" must not find Object.prototype's.
 */
export function codeIn<T>(table: Readonly<Record<string, T>>, code: string): T | undefined {
  return Object.hasOwn(table, code) ? table[code] : undefined;
}

/**
 * How a table decides a value: an effect (a rule reads it), ignored ("ignored, because ...": the row
 * is read as if the value said nothing), or unknown ("unknown: ...": the row cannot price, and a
 * figure it competes for is unknown). The effect text says which, so the reason and the decision are
 * one string.
 */
export type Decision = 'effect' | 'ignored' | 'unknown';

export function decisionOf(entry: CodeEntry, figureRow = true): Decision {
  if (entry.unknownOn === 'figures') return figureRow ? 'unknown' : 'effect';
  if (entry.effect.startsWith('ignored')) return 'ignored';
  if (entry.effect.startsWith('unknown')) return 'unknown';
  return 'effect';
}

/** One coded element of the member loops (elements.json): the table deciding its values, or one decision for any value. */
export interface ElementRule {
  table?: CodeTableName;
  /** Set on an element decided in a table only beside another element's value (III02 with III01 ZZ). */
  when?: string;
  decision?: string;
  /** The element decides where the row applies: an unknown value there may make the row as specific as any. */
  scope?: 'service' | 'procedure' | 'place' | 'network';
}

/** Every coded element of loops 2000C/D to 2120C/D, keyed "2110 EB13-01" (loop without C/D, element; a segment alone for all of its). */
export const ELEMENT_RULES: Readonly<Record<string, ElementRule>> = elements.elements as Record<string, ElementRule>;

/** The entry of a code, or undefined when it is not in the TR3 list. */
export function codeEntry(name: CodeTableName, code: string): CodeEntry | undefined {
  return codeIn(codeTable(name).codes, code);
}

/** A code in words, e.g. "MH mental health"; an unknown code stays as sent with "(not in the TR3 list)". */
export function codeWords(name: CodeTableName, code: string): string {
  const entry = codeEntry(name, code);
  return entry ? `${code} ${entry.name.toLowerCase()}` : `${code} (not in the TR3 list)`;
}

/** Every coded element of an EB row in words beside its code: EB01, EB02, EB03 (each repetition), EB04, EB06, EB09, EB12. */
export function ebWords(seg: Segment, serviceTypes: readonly string[]): string {
  const parts: string[] = [`EB01 ${codeWords('eb01', el(seg, 1))}`];
  const add = (n: number, table: CodeTableName) => {
    const v = el(seg, n);
    if (v !== '') parts.push(`EB${String(n).padStart(2, '0')} ${codeWords(table, v)}`);
  };
  add(2, 'eb02');
  if (serviceTypes.length > 0) parts.push(`EB03 ${serviceTypes.map((t) => codeWords('eb03', t)).join(', ')}`);
  add(4, 'eb04');
  add(6, 'eb06');
  add(9, 'quantity');
  add(12, 'eb12');
  return parts.join('; ');
}

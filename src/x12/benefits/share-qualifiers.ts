/**
 * What a row's MSG says of its own copay or coinsurance beyond its amount (docs/estimates.md 1.1, "Cost
 * shares qualified in words"): not charged for a kind of visit ("COPAY WAIVED FOR TELEHEALTH VISITS",
 * "COINSURANCE DOES NOT APPLY TO OFFICE VISITS"), capped per visit ("COINSURANCE NOT TO EXCEED $50 PER
 * VISIT"), or qualified in words no entry reads: then that cost share is unknown, never charged as if the
 * words were absent. The phrases and the kinds of visit are data (share-qualifiers.json).
 */
import TABLE from './share-qualifiers.json' with { type: 'json' };
import { msgWords } from './msg-words.ts';

export type ShareKind = 'copay' | 'coinsurance';

/** One statement of a row's MSG about a cost share. */
export type ShareQualifier =
  | { share: ShareKind; effect: 'as_stated'; words: string }
  /** Not charged at these places of service (CMS codes); charged as stated elsewhere. */
  | { share: ShareKind; effect: 'none_at'; places: readonly string[]; words: string }
  /** Not the cost share of these procedures (CPT/HCPCS codes), whose own is unstated; charged as stated for any other. */
  | { share: ShareKind; effect: 'none_for'; procedures: readonly string[]; words: string }
  /** At most `cents` of that cost share for one visit. */
  | { share: ShareKind; effect: 'cap'; cents: number; words: string }
  | { share: ShareKind; effect: 'unknown'; words: string; alsoUnknown?: 'oop_max' };

const SHARES = Object.entries(TABLE.shares) as [ShareKind, string][];
const VISITS = TABLE.visits.map((v) => ({ re: new RegExp(`^(?:${v.pattern})\\b`), places: v.places }));

const withShare = (pattern: string, share: string) => new RegExp(pattern.replaceAll('{share}', `\\b(?:${share})`), 'g');

const QUALIFIERS = TABLE.qualifiers.flatMap((q) => SHARES.map(([share, pattern]) => ({ share, effect: q.effect, re: withShare(q.pattern, pattern) })));
/** Words no entry reads: waiving, excluding or capping (`unread`), or conditioning the cost share (`conditions`: who the patient is, the OOP max met). */
const UNREAD = [{ pattern: TABLE.unread.pattern }, ...TABLE.conditions].flatMap((c) =>
  SHARES.map(([share, pattern]) => ({
    share,
    re: withShare(c.pattern, pattern),
    alsoUnknown: 'alsoUnknown' in c && c.alsoUnknown === 'oop_max' ? ('oop_max' as const) : undefined,
  })),
);

/** The places of service a kind of visit named in words is ("TELEHEALTH VISITS": 02 and 10), or null when no entry reads it. */
function placesOf(words: string): readonly string[] | null {
  for (const v of VISITS) if (v.re.test(words)) return v.places;
  return null;
}

/** The statements `text` makes of a copay or coinsurance (share-qualifiers.json), in the order of the table. */
export function shareQualifiers(text: string): ShareQualifier[] {
  let t = msgWords(text);
  if (!SHARES.some(([, p]) => new RegExp(p).test(t))) return [];
  const out: ShareQualifier[] = [];
  for (const { share, effect, re } of QUALIFIERS) {
    re.lastIndex = 0;
    for (let m = re.exec(t); m !== null; m = re.exec(t)) {
      const words = m[0];
      if (effect === 'none_for_procedures') {
        const procedures = (m.groups?.['codes'] ?? '').match(/\b(?:\d{5}|[A-Z]\d{4})\b/g) ?? [];
        out.push({ share, effect: 'none_for', procedures, words });
      } else if (effect === 'none_for_visits') {
        const places = placesOf(m.groups?.['visits'] ?? '');
        out.push(places === null ? { share, effect: 'unknown', words } : { share, effect: 'none_at', places, words });
      } else if (effect === 'cap_per_visit') {
        const cents = Math.round(Number.parseFloat(m.groups?.['amount'] ?? '') * 100);
        out.push(Number.isFinite(cents) && cents > 0 ? { share, effect: 'cap', cents, words } : { share, effect: 'unknown', words });
      } else out.push({ share, effect: 'as_stated', words });
    }
    // A statement read once is not read again by a later entry or as unread words.
    t = t.replace(re, (s) => ' '.repeat(s.length));
  }
  for (const { share, re, alsoUnknown } of UNREAD) {
    re.lastIndex = 0;
    for (let m = re.exec(t); m !== null; m = re.exec(t))
      out.push(alsoUnknown ? { share, effect: 'unknown', words: m[0], alsoUnknown } : { share, effect: 'unknown', words: m[0] });
  }
  return out;
}

/** What the group's rows say of its copay and coinsurance for the visit at `place` (a CMS code; null: no encounter). */
export interface QualifiedShare {
  copay: number | null;
  coinsurance: number | null;
  /** The most the member pays of the coinsurance for one visit, in cents; absent: no cap stated. */
  coinsuranceCap?: number;
  /** A cost share qualified in words no entry reads, or caps that disagree: the group is unknown (in conflict). */
  unknown: boolean;
  /** The words leave the OOP max's hold on the session open too (share-qualifiers.json `alsoUnknown`). */
  oopUnknown?: boolean;
  /** The statements read, for the explanation. */
  words: string[];
}

/**
 * The group's copay and coinsurance as its rows' MSGs qualify them (`texts`: each MSG of the group's copay and
 * coinsurance rows) for a visit at `place` of `procedure`: a cost share not charged there is 0, one capped per visit is capped
 * (a copay at once, a coinsurance by `coinsuranceCap`), one qualified in words no entry reads is unknown. A
 * statement about a cost share the group does not state says nothing.
 */
export function qualifyShare(
  texts: readonly string[],
  place: string | null,
  copay: number | null,
  coinsurance: number | null,
  procedure: string | null = null,
): QualifiedShare {
  const out: QualifiedShare = { copay, coinsurance, unknown: false, words: [] };
  const caps: Record<ShareKind, number | null> = { copay: null, coinsurance: null };
  for (const text of texts) {
    for (const q of shareQualifiers(text)) {
      const stated = q.share === 'copay' ? copay : coinsurance;
      if (stated === null) continue;
      out.words.push(q.words);
      if (q.effect === 'unknown' || (q.effect === 'none_at' && place === null)) out.unknown = true;
      // For a procedure it names, or an unnamed one, the words leave the share unstated.
      if (q.effect === 'none_for' && (procedure === null || q.procedures.includes(procedure))) out.unknown = true;
      if (q.effect === 'unknown' && q.alsoUnknown === 'oop_max') out.oopUnknown = true;
      else if (q.effect === 'none_at') {
        if (place !== null && q.places.includes(place)) out[q.share] = 0;
      } else if (q.effect === 'cap') {
        if (caps[q.share] !== null && caps[q.share] !== q.cents) out.unknown = true;
        caps[q.share] = q.cents;
      }
    }
  }
  if (caps.copay !== null && out.copay !== null) out.copay = Math.min(out.copay, caps.copay);
  if (caps.coinsurance !== null && out.coinsurance !== null && out.coinsurance > 0) out.coinsuranceCap = caps.coinsurance;
  return out;
}

/** The statements this table decides (an effect, or the cost share unknown), for share-messages.ts. */
export function qualifierPhrases(): readonly RegExp[] {
  return [...QUALIFIERS.map((q) => q.re), ...UNREAD.map((u) => u.re)];
}

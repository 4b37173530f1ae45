// The verdict on one answer, in the front desk's words: what it means and what to do next. Written
// once, pure (no DOM): the console's card, schedule table and printout, the results CSV and the
// `coverage check` summary all say what this says (docs/batch.md, "The verdict").

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** Cents as "$1,150.00"; null stays null (unknown is never $0.00). */
export const moneyText = (cents) => (typeof cents === 'number' ? money.format(cents / 100) : null);

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
/** "2026-06-30" as "Jun 30, 2026"; anything else as given. */
export const shortDateText = (iso) =>
  typeof iso === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? shortDate.format(new Date(`${iso}T00:00:00Z`)) : (iso ?? null);

/** A US number as "(800) 555-0142"; anything else as given. */
export function phoneText(phone) {
  if (!phone) return null;
  const digits = String(phone)
    .replace(/\D/g, '')
    .replace(/^1(?=\d{10}$)/, '');
  return digits.length === 10 ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` : String(phone);
}

/** "MINDFUL BEHAVIORAL HEALTH" as "Mindful Behavioral Health"; mixed case is kept. */
export function properName(text) {
  if (!text) return text;
  return /[a-z]/.test(text) ? text : text.toLowerCase().replace(/(^|[\s'-])([a-z])/g, (_, pre, c) => pre + c.toUpperCase());
}

const PARTIAL_CODES = ['UNKNOWN_COSTSHARE', 'UNKNOWN_REMAININGS'];
const CARD_PHONE = "the phone number on the member's card";

/** Refusals and failures (README, "Status codes"): the verdict and the next step. */
const ERRORS = {
  MEMBER_NOT_FOUND: {
    state: 'not-found',
    text: 'Not found: check the member ID',
    next: 'Check the member ID, name and date of birth against the card, or search by name and date of birth.',
  },
  PAYER_FAILURE: {
    state: 'payer-failure',
    text: 'No answer from the payer: try again',
    next: `Try again in a few minutes; if it keeps failing, call the payer at ${CARD_PHONE}.`,
  },
  PAYER_NOT_SUPPORTED: { state: 'error', text: 'Payer not supported: call the payer', next: `Check the payer ID, or call the payer at ${CARD_PHONE}.` },
  PROVIDER_NOT_RECOGNIZED: {
    state: 'error',
    text: 'Provider not recognized: check the NPI',
    next: 'Check the provider NPI; the provider may not be enrolled with this payer.',
  },
  TOO_MANY_REQUESTS: { state: 'error', text: 'Too many checks at once: try again', next: 'Wait a moment and check again.' },
  INVALID_REQUEST: { state: 'error', text: 'Not checked: fix the details', next: 'Correct the details named and check again.' },
  SERVICE_UNAVAILABLE: { state: 'error', text: 'Service busy: try again', next: 'Try again in a minute.' },
};
const FAILED = { state: 'error', text: 'Not checked: try again', next: 'Try again; if it happens again, give the reference to whoever supports this system.' };

/**
 * A payer ID that names no payer (a typo, not a payer that refuses us): the API keeps its code,
 * PAYER_NOT_SUPPORTED, and names payer_id in `errors`, with the nearest payer when there is one.
 */
function unknownPayerId(b) {
  if (b.error_code !== 'PAYER_NOT_SUPPORTED') return null;
  const field = (b.errors ?? []).find((e) => e.field === 'payer_id');
  if (!field) return null;
  const guess = /did you mean (\S+)\?/.exec(field.message ?? '')?.[1];
  return {
    state: 'error',
    text: 'Unknown payer ID: fix the payer ID',
    next: guess ? `Fix the payer ID: did you mean ${guess}? Then check again.` : 'Fix the payer ID (search the payer list by name), then check again.',
  };
}

/** The day coverage ended (the earlier of plan end and eligibility end), or null. */
function endedOn(body) {
  return [body.plan_end_date, body.eligibility_end_date].filter(Boolean).sort()[0] ?? null;
}

/**
 * The carve-out administrator that priced the session, or null: the answer says so (`priced_by`),
 * or, from a server before that field, a carve-out with a price can only have the administrator's.
 */
export function pricedBy(body) {
  if (body.mental_health_coverage !== 'carved_out' || !body.third_party_payer) return null;
  if (body.priced_by) return body.priced_by;
  return typeof body.member_obligation === 'number' ? body.third_party_payer : null;
}

/**
 * `status` and `body` as the API answered (an error body carries `error_code`); `endpoint` the
 * check asked; `today` as YYYY-MM-DD. Returns { state, tone, text, next, price }: `state` one of
 * active, at-risk, no-price, partial, inactive, not-started, carve-out-priced, carve-out,
 * not-found, payer-failure, error; `tone` ok, warn or bad; `price` the patient's share in cents
 * when it is the answer (else null).
 */
export function verdict(endpoint, status, body, today) {
  const b = body ?? {};
  if (status >= 300 || (b.error_code && !PARTIAL_CODES.includes(b.error_code))) {
    const unknownPayer = unknownPayerId(b);
    if (unknownPayer) return { ...unknownPayer, tone: 'bad', price: null };
    return { ...(ERRORS[b.error_code] ?? FAILED), tone: 'bad', price: null };
  }
  const estimate = endpoint === 'estimate';
  const cost = moneyText(b.provider_session_cost);
  if (b.plan_status === 'INACTIVE') {
    const full = estimate && cost ? `: full ${cost}` : '';
    const price = estimate && typeof b.provider_session_cost === 'number' ? b.provider_session_cost : null;
    if (b.plan_begin_date && today && b.plan_begin_date > today) {
      return {
        state: 'not-started',
        tone: 'bad',
        text: `Coverage not started${full}`,
        next: `The plan starts on ${shortDateText(b.plan_begin_date)}; ask for the insurance that covers this session.`,
        price,
      };
    }
    const ended = endedOn(b);
    return {
      state: 'inactive',
      tone: 'bad',
      text: `Coverage ended${full}`,
      next: `${ended ? `Ended ${shortDateText(ended)}. ` : ''}Ask for the patient's current insurance card, or search every payer by name and date of birth.`,
      price,
    };
  }
  const tpp = b.mental_health_coverage === 'carved_out' ? b.third_party_payer : null;
  const phone = phoneText(tpp?.phone);
  if (tpp) {
    const admin = properName(tpp.name);
    const by = estimate ? pricedBy(b) : null;
    if (by && typeof b.member_obligation === 'number') {
      const pays = moneyText(b.member_obligation);
      return {
        state: 'carve-out-priced',
        tone: 'ok',
        text: `${pays} per ${properName(by.name)}`,
        next: `Collect ${pays}. ${admin} handles therapy for this plan${phone ? `: call ${phone}` : ''} for authorization.`,
        price: b.member_obligation,
      };
    }
    return {
      state: 'carve-out',
      tone: 'warn',
      text: `Call ${admin}${phone ? ` ${phone}` : ''}`,
      next: `${admin} handles therapy for this plan, not ${b.payer_name ? properName(b.payer_name) : 'the medical plan'}: ask it what the patient pays${phone ? '' : ' (the number is often on the back of the card)'}.`,
      price: null,
    };
  }
  const atRisk = b.plan_status === 'ACTIVE_AT_RISK';
  const risk = atRisk
    ? ` Coverage may end${b.eligibility_end_date || b.plan_end_date ? ` ${shortDateText(b.eligibility_end_date ?? b.plan_end_date)}` : ' soon'}: confirm with the patient.`
    : '';
  if (!estimate) {
    return {
      state: atRisk ? 'at-risk' : 'active',
      tone: atRisk ? 'warn' : 'ok',
      text: 'Coverage active',
      next: `Run an estimate for the price.${risk}`,
      price: null,
    };
  }
  if (typeof b.member_obligation === 'number') {
    const pays = moneyText(b.member_obligation);
    const unknownLeft = b.error_code === 'UNKNOWN_REMAININGS' ? ' The deductible left was not reported: confirm with the plan.' : '';
    return {
      state: atRisk ? 'at-risk' : 'active',
      tone: atRisk || unknownLeft ? 'warn' : 'ok',
      text: `Patient pays ${pays}`,
      next: `Collect ${pays} at the visit.${unknownLeft}${risk}`,
      price: b.member_obligation,
    };
  }
  if (status === 206 || b.error_code) {
    const what = b.error_code === 'UNKNOWN_REMAININGS' ? 'how much of the deductible is left' : 'the copay or coinsurance for therapy';
    return { state: 'partial', tone: 'warn', text: 'Price unknown: call the plan', next: `Ask the plan (${CARD_PHONE}) ${what}.${risk}`, price: null };
  }
  return {
    state: 'no-price',
    tone: atRisk ? 'warn' : 'ok',
    text: 'Coverage active: no session cost given',
    next: `Give the session cost to see what the patient pays.${risk}`,
    price: null,
  };
}

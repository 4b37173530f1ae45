// The answer to one check, drawn so that it cannot be misread at the front desk: the plan's state
// comes first (ended, handed to an administrator, partly unknown), and amounts are shown only when
// they are the answer.

import { dateText, dollars, h, phoneLink, properName, todayIso } from './dom.js';
import { payerErrorsList } from './error-card.js';
import { phoneText, pricedBy, shortDateText, verdict } from './verdict.js';

const STATUS_LABELS = { ACTIVE: 'Active', ACTIVE_AT_RISK: 'Active, at risk', INACTIVE: 'Inactive' };
const CARD_PHONE = "the phone number on the member's card";

export function badge(planStatus) {
  return h('span', { class: `badge badge-${String(planStatus).toLowerCase().replace(/_/g, '-')}` }, STATUS_LABELS[planStatus] ?? planStatus);
}

/** What kind of answer this is; the card and the print summary both follow it. */
export function answerState(status, body) {
  if (body.plan_status === 'INACTIVE') return 'inactive';
  if (body.mental_health_coverage === 'carved_out' && body.third_party_payer) return pricedBy(body) ? 'carve-out-priced' : 'carve-out';
  if (status === 206) return 'partial';
  return 'active';
}

/** The day coverage ended (the earlier of plan end and eligibility end), or when it starts if not yet. */
function inactiveBanner(body) {
  const today = todayIso();
  if (body.plan_begin_date && body.plan_begin_date > today) {
    return { title: `Coverage has not started: it begins on ${dateText(body.plan_begin_date)}`, text: 'The plan will not pay for a session before that day.' };
  }
  const ends = [body.plan_end_date, body.eligibility_end_date].filter(Boolean).sort();
  return {
    title: ends.length ? `Coverage ended on ${dateText(ends[0])}` : 'Coverage is not active',
    text: 'The plan will not pay for this session. Ask the patient for their current insurance card, or search every payer by name and date of birth.',
  };
}

/** The answer names no phone for the plan itself (only for administrators), so the desk is sent to the card. */
function partialText(body) {
  const ask = [`Ask the patient's plan: call ${CARD_PHONE}.`];
  if (body.error_code === 'UNKNOWN_COSTSHARE') {
    return {
      title: 'The plan did not say what the patient pays for a session',
      text: ['Coverage is active, but the copay or coinsurance for behavioral health is unknown, so the cost of this session is unknown. ', ...ask],
    };
  }
  return {
    title: 'The plan did not say how much of the deductible and out-of-pocket maximum is left',
    text: ["Coverage is active and the cost share is known, but without what is left of the deductible this session's cost is unknown. ", ...ask],
  };
}

/** The verdict (verdict.js) as the card's first line, with what to do next: the schedule table, CSV, printout and CLI say the same. */
export function verdictLine(endpoint, status, body) {
  const v = verdict(endpoint, status, body, todayIso());
  return h(
    'section',
    { class: `verdict verdict-${v.tone}`, 'data-verdict': v.state, 'aria-label': 'Verdict' },
    h('p', { class: 'verdict-text' }, v.text),
    h('p', { class: 'verdict-next' }, v.next),
  );
}

export function banner(state, body) {
  if (state === 'inactive') {
    const b = inactiveBanner(body);
    return h('section', { class: 'banner banner-bad', role: 'alert', id: 'state-banner' }, h('h3', {}, b.title), h('p', {}, b.text));
  }
  if (state === 'carve-out') {
    const tpp = body.third_party_payer;
    return h(
      'section',
      { class: 'banner banner-carve-out', id: 'state-banner' },
      h('p', { class: 'banner-kicker' }, 'Behavioral health is handled by another company'),
      h('h3', { id: 'administrator' }, properName(tpp.name)),
      tpp.phone
        ? h('p', { class: 'administrator-phone' }, 'Call ', phoneLink(tpp.phone), " for this patient's therapy benefits, cost and authorization.")
        : h(
            'p',
            {},
            `Call the administrator (the number is often on the back of the member's card) for this patient's therapy benefits, cost and authorization.`,
          ),
      tpp.payer_id ? h('p', { class: 'muted' }, `Administrator payer ID: ${tpp.payer_id}`) : null,
      h('p', { class: 'muted' }, `${body.payer_name}'s medical benefits do not apply to therapy sessions, so no price is shown here.`),
    );
  }
  if (state === 'carve-out-priced') {
    const tpp = body.third_party_payer;
    const by = pricedBy(body);
    return h(
      'section',
      { class: 'banner banner-carve-out', id: 'state-banner' },
      h('p', { class: 'banner-kicker' }, 'Behavioral health is handled by another company'),
      h('h3', { id: 'administrator' }, properName(tpp.name)),
      h('p', {}, `The price below is the answer of ${properName(by.name)} for therapy, not of ${properName(body.payer_name)}.`),
      tpp.phone ? h('p', { class: 'administrator-phone' }, 'Call ', phoneLink(tpp.phone), ' for authorization.') : null,
    );
  }
  if (state === 'partial') {
    const p = partialText(body);
    return h('section', { class: 'banner banner-warn', id: 'state-banner' }, h('h3', {}, p.title), h('p', {}, ...p.text));
  }
  if (body.plan_status === 'ACTIVE_AT_RISK') {
    const ends = body.eligibility_end_date ?? body.plan_end_date;
    return h(
      'section',
      { class: 'banner banner-warn', id: 'state-banner' },
      h('h3', {}, ends ? `Coverage may end on ${dateText(ends)}` : 'Coverage may end soon'),
      h('p', {}, 'The plan says coverage is at risk (often an unpaid premium). Confirm with the patient before the session.'),
    );
  }
  return null;
}

function meter(label, total, remaining) {
  if (typeof total !== 'number' && typeof remaining !== 'number')
    return h('div', { class: 'meter' }, h('span', { class: 'meter-label' }, label), h('span', { class: 'muted' }, 'Not reported'));
  if (typeof total !== 'number')
    return h('div', { class: 'meter' }, h('span', { class: 'meter-label' }, label), h('span', {}, `${dollars(remaining)} left (total not reported)`));
  if (typeof remaining !== 'number')
    return h(
      'div',
      { class: 'meter' },
      h('span', { class: 'meter-label' }, label),
      h('span', {}, `${dollars(total)} a year; how much is left was not reported`),
    );
  const met = Math.max(0, total - remaining);
  const id = `meter-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return h(
    'div',
    { class: 'meter' },
    h('label', { class: 'meter-label', for: id }, label),
    h('progress', { id, max: String(Math.max(total, 1)), value: String(met) }),
    h('span', {}, `${dollars(met)} of ${dollars(total)} met · ${dollars(remaining)} left`),
  );
}

export function costShare(copay, coinsurance) {
  const parts = [];
  if (typeof copay === 'number') parts.push(`${dollars(copay)} copay`);
  if (typeof coinsurance === 'number') parts.push(`${coinsurance} % coinsurance`);
  return parts.length ? parts.join(' + ') : 'Not reported';
}

export function alertTitle(code) {
  const text = code.replace(/_/g, ' ').toLowerCase();
  return text[0].toUpperCase() + text.slice(1);
}

/** An alert's message with its dates as "Jun 30, 2026" and its phones as "(800) 555-0142" (never digits inside an id). */
export function readableMessage(message) {
  return (
    String(message ?? '')
      .replace(/\b\d{4}-\d{2}-\d{2}\b/g, (iso) => shortDateText(iso))
      .replace(/\s*\((1?\d{10})\)/g, (_, digits) => ` at ${phoneText(digits)}`)
      // Ten digits standing alone: not within an identifier (a remittance id's hex, rem_3f0c1234567890ab).
      .replace(/(^|[^\w])(1?\d{10})(?!\w)/g, (_, pre, digits) => pre + phoneText(digits))
  );
}

function alertItem(alert, body) {
  const detail = [];
  if (alert.payer_values) {
    detail.push(
      h(
        'span',
        { class: 'alert-detail' },
        "Payer's values: ",
        Object.entries(alert.payer_values)
          .map(([k, v]) => `${k.replace(/_/g, ' ')} ${v ?? '(none)'}`)
          .join(', '),
      ),
    );
  }
  if (alert.code === 'PLAN_RESET_SOON' && body.reset_benefits) {
    detail.push(
      h(
        'span',
        { class: 'alert-detail' },
        `From ${dateText(body.reset_benefits.effective_date)}${body.reset_benefits.changes.length ? `: ${body.reset_benefits.changes.join(', ').replace(/_/g, ' ')} change` : ''}`,
      ),
    );
  }
  return h(
    'li',
    { class: `alert alert-${alert.code.toLowerCase().replace(/_/g, '-')}` },
    h('strong', {}, alertTitle(alert.code)),
    ' ',
    readableMessage(alert.message),
    ...detail,
  );
}

function rawToggle(body) {
  return h('details', { class: 'raw' }, h('summary', {}, 'Raw JSON'), h('pre', { tabindex: '0' }, JSON.stringify(body, null, 2)));
}

const PLACES = { 11: 'in the office', '02': 'by telehealth, not in the home', 10: 'by telehealth in the home' };

/** Where the visit is, in words ("in the office", "at place of service 12"): the card's and the printout's. */
export const placeText = (code) => PLACES[code] ?? `at place of service ${code}`;

/** The encounter the estimate priced: its date, procedure and place (docs/estimates.md, "The encounter"). */
function encounterLine(encounter) {
  if (!encounter) return null;
  const what = encounter.procedure_code ? `Procedure ${encounter.procedure_code}` : 'A psychotherapy visit';
  const where = placeText(encounter.place_of_service);
  return h('p', { class: 'muted', id: 'encounter' }, `${what} ${where} on ${encounter.date_of_service}`);
}

/**
 * Whether this session is priced without the deductible (a copay or coinsurance from the first
 * visit, or covered in full): then the deductible's progress says nothing about what it costs.
 */
export const deductibleSkipped = (body) => /no deductible|^Fully covered$/.test(body.benefit_structure ?? '');

/** The amounts of an estimate; only for an answer whose amounts are the plan's answer for therapy. */
function estimateSections(status, body) {
  const pays = dollars(body.member_obligation);
  const tele = body.telehealth;
  return [
    h(
      'section',
      { class: 'pays', 'aria-label': 'What the patient pays' },
      h('p', { class: 'pays-label' }, `Patient pays for this session (${body.in_network ? 'in network' : 'out of network'})`),
      h('p', { class: 'pays-amount', id: 'patient-pays' }, pays ?? 'Not known'),
      pricedBy(body) && pays ? h('p', { class: 'pays-source', id: 'priced-by' }, `per ${properName(pricedBy(body).name)}`) : null,
      body.payer_obligation !== null && body.provider_session_cost !== null
        ? h('p', { class: 'muted' }, `Payer pays ${dollars(body.payer_obligation)} of ${dollars(body.provider_session_cost)}`)
        : null,
      encounterLine(body.encounter),
    ),
    h(
      'section',
      { class: 'meters', 'aria-label': 'Deductible and out-of-pocket' },
      meter('Deductible', body.deductible, body.remaining_deductible),
      deductibleSkipped(body)
        ? h(
            'p',
            { class: 'meter-note', id: 'deductible-note' },
            `The deductible does not apply to this session (${body.benefit_structure.replace(/, (with|no) OOP Max$/, '').toLowerCase()}): it is not part of the price above.`,
          )
        : null,
      meter('Out-of-pocket maximum', body.oop_max, body.remaining_oop_max),
    ),
    h(
      'table',
      { class: 'modes' },
      h('caption', {}, 'In person and telehealth'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), h('th', { scope: 'col' }, 'In person'), h('th', { scope: 'col' }, 'Telehealth'))),
      h(
        'tbody',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, 'Cost share'),
          h('td', {}, costShare(body.copayment, body.coinsurance)),
          h('td', {}, tele ? costShare(tele.copayment, tele.coinsurance) : 'Same as in person'),
        ),
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, 'Patient pays'),
          h('td', {}, pays ?? 'Not known'),
          h('td', {}, tele ? (dollars(tele.member_obligation) ?? 'Not known') : 'Same as in person'),
        ),
      ),
    ),
  ];
}

/** Inactive: what the patient would pay is the whole session, said in words rather than as a plan price. */
function inactiveSection(body) {
  if (typeof body.provider_session_cost !== 'number') return null;
  return h(
    'section',
    { class: 'pays pays-none', 'aria-label': 'What the patient pays' },
    h('p', { class: 'pays-label' }, 'Patient pays for this session'),
    h('p', { class: 'pays-amount', id: 'patient-pays' }, `The full ${dollars(body.provider_session_cost)}`),
    h('p', { class: 'muted' }, 'unless they have other coverage'),
  );
}

export function whoOf(body) {
  const name = [body.demographics?.first_name, body.demographics?.last_name].filter(Boolean).map(properName).join(' ');
  return name || body.demographics?.member_id || 'Member';
}

/**
 * `options`: { onPrint } adds a "Print summary" button; { why } an element shown under the amounts ("Why this price?");
 * { course } one shown under it ("The next 12 weeks").
 */
export function coverageCard(endpoint, status, body, options = {}) {
  const state = answerState(status, body);
  const card = h(
    'article',
    { class: `card card-${state}`, 'aria-labelledby': 'card-title', 'data-state': state },
    h(
      'header',
      { class: 'card-head' },
      h('div', {}, h('h2', { id: 'card-title' }, whoOf(body)), h('p', { class: 'muted' }, [body.payer_name, body.plan_name].filter(Boolean).join(' · '))),
      badge(body.plan_status),
    ),
    verdictLine(endpoint, status, body),
    banner(state, body),
    payerErrorsList(body.payer_errors),
  );
  if (endpoint === 'estimate') {
    if (state === 'active' || state === 'partial' || state === 'carve-out-priced')
      card.append(...estimateSections(status, body), options.why ?? '', options.course ?? '');
    else if (state === 'inactive') card.append(inactiveSection(body) ?? '');
  }
  const facts = h('dl', { class: 'facts' });
  const fact = (term, value) => value !== null && value !== undefined && value !== '' && facts.append(h('dt', {}, term), h('dd', {}, value));
  fact('Plan dates', body.plan_begin_date ? `${dateText(body.plan_begin_date)} to ${body.plan_end_date ? dateText(body.plan_end_date) : 'open'}` : null);
  fact('Eligibility ends', dateText(body.eligibility_end_date));
  fact('Insurance', [body.insurance_type, body.plan_type].filter(Boolean).join(', '));
  fact('Member ID', body.demographics?.member_id);
  fact('Group', body.group_name);
  if (endpoint === 'estimate' && state === 'active') fact('Benefit structure', body.benefit_structure);
  card.append(facts);
  const alerts = body.alerts ?? [];
  card.append(
    h(
      'section',
      { class: 'alerts', 'aria-label': 'Alerts' },
      h('h3', {}, alerts.length ? `Alerts (${alerts.length})` : 'No alerts'),
      alerts.length
        ? h(
            'ul',
            {},
            alerts.map((a) => alertItem(a, body)),
          )
        : null,
    ),
  );
  if (options.onPrint) {
    const button = h('button', { type: 'button', class: 'secondary print-button' }, 'Print summary');
    button.addEventListener('click', options.onPrint);
    card.append(h('div', { class: 'card-actions' }, button));
  }
  card.append(rawToggle(body));
  return card;
}

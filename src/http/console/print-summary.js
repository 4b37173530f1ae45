// The one-page "coverage summary" printed for the chart: patient, plan, cost for this session,
// deductible and out-of-pocket, alerts, and when it was checked. Hidden on screen; console.css
// prints it alone.

import { dateText, dollars, h, properName, todayIso } from './dom.js';
import { alertTitle, answerState, banner, costShare, deductibleSkipped, placeText, readableMessage, whoOf } from './result-card.js';
import { phoneText, pricedBy, verdict } from './verdict.js';

/** On every printout from a sandbox server: no one files it as a real patient's coverage. */
export const SANDBOX_MARK = 'SANDBOX — not real coverage data';

const STATUS_WORDS = { ACTIVE: 'Active', ACTIVE_AT_RISK: 'Active, at risk', INACTIVE: 'Inactive' };

/** Label and value rows; a third element true marks the row to read first. */
function rows(pairs) {
  return h(
    'table',
    { class: 'summary-table' },
    h(
      'tbody',
      {},
      pairs
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([k, v, key]) => h('tr', { class: key ? 'summary-key' : null }, h('th', { scope: 'row' }, k), h('td', {}, v))),
    ),
  );
}

function progressText(total, remaining) {
  if (typeof total !== 'number' && typeof remaining !== 'number') return 'Not reported';
  if (typeof total !== 'number') return `${dollars(remaining)} left (total not reported)`;
  if (typeof remaining !== 'number') return `${dollars(total)}; amount left not reported`;
  return `${dollars(Math.max(0, total - remaining))} of ${dollars(total)} met; ${dollars(remaining)} left`;
}

function sessionRows(endpoint, state, body) {
  if (endpoint !== 'estimate') return [['This session', 'No cost estimate (this check looks up coverage only)']];
  const cost = dollars(body.provider_session_cost);
  const network = body.in_network ? 'in network' : 'out of network';
  if (state === 'carve-out') {
    const tpp = body.third_party_payer;
    return [
      [
        'This session',
        `Ask ${properName(tpp.name)}${tpp.phone ? ` at ${phoneText(tpp.phone)}` : ''}: therapy is handled by the administrator, not by this plan`,
      ],
    ];
  }
  if (state === 'inactive') return [['This session', cost ? `Patient pays the full ${cost}: coverage is not active` : 'Coverage is not active']];
  const tele = body.telehealth;
  const by = state === 'carve-out-priced' ? pricedBy(body) : null;
  const pays = dollars(body.member_obligation);
  return [
    ['Session price', cost ? `${cost}, ${network}` : network],
    ['Patient pays', pays ? `${pays}${by ? ` per ${properName(by.name)}` : ''}` : 'Not known', true],
    ['Plan pays', dollars(body.payer_obligation) ?? 'Not known'],
    ['Cost share', costShare(body.copayment, body.coinsurance)],
    tele
      ? ['Telehealth', `${costShare(tele.copayment, tele.coinsurance)}; patient pays ${dollars(tele.member_obligation) ?? 'not known'}`]
      : ['Telehealth', 'Same as in person'],
    ['Deductible', `${progressText(body.deductible, body.remaining_deductible)}${deductibleSkipped(body) ? ' (does not apply to this session)' : ''}`],
    ['Out-of-pocket maximum', progressText(body.oop_max, body.remaining_oop_max)],
  ];
}

function resetDetail(alert, body) {
  if (alert.code !== 'PLAN_RESET_SOON' || !body.reset_benefits) return null;
  const r = body.reset_benefits;
  const next = [
    typeof r.copayment === 'number' ? `copay ${dollars(r.copayment)}` : null,
    typeof r.coinsurance === 'number' ? `coinsurance ${r.coinsurance} %` : null,
    typeof r.deductible === 'number' ? `deductible ${dollars(r.deductible)}` : null,
    typeof r.oop_max === 'number' ? `out-of-pocket maximum ${dollars(r.oop_max)}` : null,
    r.member_id ? `member ID ${r.member_id}` : null,
  ].filter(Boolean);
  return ` (from ${dateText(r.effective_date)}${next.length ? `: ${next.join(', ')}` : ''})`;
}

/** The visit the estimate priced (docs/estimates.md, "The encounter"): the card's line, as rows for the chart. */
function visitRows(encounter) {
  return [
    ['Date of service', dateText(encounter.date_of_service)],
    ['Procedure', encounter.procedure_code ? `${encounter.procedure_code}` : 'None given (priced as an office psychotherapy visit)'],
    ['Place of service', `${encounter.place_of_service}, ${placeText(encounter.place_of_service).replace(/^(in the|in|by|at) /, '')}`],
  ];
}

/** When the check was made, with the time zone: a chart is read in other places and seasons. */
const checkedAtText = (at) =>
  at.toLocaleString('en-US', { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });

/** `checked`: { at: Date, or null for a schedule row (from: { row, batch }), reference: request id or null, sent: the request body }. */
export function printSummary(endpoint, status, body, checked) {
  const state = answerState(status, body);
  const v = verdict(endpoint, status, body, todayIso());
  const d = body.demographics ?? {};
  const stateBanner = banner(state, body);
  // The card on screen holds the same banner: ids stay unique, and the alert is announced once.
  stateBanner?.removeAttribute('role');
  for (const el of stateBanner ? [stateBanner, ...stateBanner.querySelectorAll('[id]')] : []) el.removeAttribute('id');
  return h(
    'section',
    { class: 'print-summary', id: 'print-summary', 'aria-hidden': 'true' },
    checked.sandbox ? h('p', { class: 'print-sandbox', id: 'print-sandbox' }, SANDBOX_MARK) : null,
    h(
      'header',
      { class: 'summary-head' },
      h('h1', {}, checked.sandbox ? 'Coverage summary (sandbox)' : 'Coverage summary'),
      h(
        'p',
        {},
        checked.at
          ? `Checked ${checkedAtText(checked.at)}`
          : `From schedule row ${checked.from?.row ?? '?'}${checked.from?.batch ? ` (batch ${checked.from.batch})` : ''}`,
      ),
    ),
    rows([
      ['Verdict', v.text, true],
      ['Next', v.next],
    ]),
    stateBanner,
    h('h2', {}, 'Patient'),
    rows([
      ['Name', whoOf(body)],
      ['Date of birth', dateText(d.dob ?? checked.sent?.member_dob)],
      ['Member ID', d.member_id ?? checked.sent?.member_id],
      ['Relationship', body.relationship_to_subscriber],
    ]),
    h('h2', {}, 'Plan'),
    rows([
      ['Payer', `${body.payer_name}${body.payer_id ? ` (${body.payer_id})` : ''}`],
      ['Plan', [body.plan_name, body.plan_type, body.insurance_type].filter(Boolean).join(', ')],
      ['Group', [body.group_name, body.group_id].filter(Boolean).join(', ')],
      ['Status', STATUS_WORDS[body.plan_status] ?? body.plan_status],
      ['Plan dates', body.plan_begin_date ? `${dateText(body.plan_begin_date)} to ${body.plan_end_date ? dateText(body.plan_end_date) : 'open'}` : null],
      ['Eligibility ends', dateText(body.eligibility_end_date)],
    ]),
    endpoint === 'estimate' && body.encounter ? h('h2', {}, 'Visit') : null,
    endpoint === 'estimate' && body.encounter ? rows(visitRows(body.encounter)) : null,
    h('h2', {}, 'Cost for this session'),
    rows(sessionRows(endpoint, state, body)),
    h('h2', {}, 'Alerts'),
    (body.alerts ?? []).length
      ? h(
          'ul',
          { class: 'summary-alerts' },
          body.alerts.map((a) => h('li', {}, h('strong', {}, `${alertTitle(a.code)}: `), readableMessage(a.message), resetDetail(a, body))),
        )
      : h('p', {}, 'None'),
    h(
      'footer',
      { class: 'summary-foot' },
      h('p', {}, `From the payer's eligibility answer (${endpoint}${status === 206 ? ', partial' : ''}). An estimate, not a guarantee of payment.`),
      checked.reference ? h('p', {}, `Reference: ${checked.reference}`) : null,
      checked.sandbox ? h('p', { class: 'print-sandbox' }, SANDBOX_MARK) : null,
    ),
  );
}

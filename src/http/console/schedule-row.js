// One row of the schedule table, in the card's words (verdict.js): the verdict and what to do next,
// never an HTTP status. Row numbers are the spreadsheet's own: the header is row 1.

import { h, todayIso } from './dom.js';
import { moneyText, verdict } from './verdict.js';

/** The outcome filter's names in words (the API's outcome codes stay the values). */
const OUTCOME_WORDS = {
  OK: 'Answered',
  UNKNOWN_COSTSHARE: 'Price unknown',
  UNKNOWN_REMAININGS: 'Deductible left unknown',
  MEMBER_NOT_FOUND: 'Not found',
  PAYER_FAILURE: 'No answer from the payer',
  PAYER_NOT_SUPPORTED: 'Payer not supported',
  PROVIDER_NOT_RECOGNIZED: 'Provider not recognized',
  INVALID_REQUEST: 'Not checked: details to fix',
  TOO_MANY_REQUESTS: 'Too many checks',
  PENDING: 'Not checked yet',
  CANCELLED: 'Cancelled',
};
export const outcomeWords = (code) => OUTCOME_WORDS[code] ?? String(code).replace(/_/g, ' ').toLowerCase();

/** The "Patient pays" cell: the verdict's price, or why there is none. */
function paysText(v) {
  if (v.price !== null) return moneyText(v.price);
  return v.state === 'partial' || v.state === 'carve-out' ? 'Not known' : '—';
}

/** The telehealth price under the in-person one when it differs, as the results CSV's telehealth column gives it. */
function telehealthLine(v, body) {
  const tele = moneyText(body.telehealth?.member_obligation);
  if (v.price === null || tele === null) return null;
  return h('div', { class: 'muted small telehealth-pays' }, `telehealth ${tele}`);
}

/** `badge(planStatus)` draws the plan's status as the card does; `onOpen(r)`, when given, opens a checked row as its card. */
export function verdictRow(r, badge, onOpen) {
  const req = r.request ?? {};
  const body = r.body ?? {};
  // The name as the schedule has it, so staff can find their row; the payer's spelling is in the check tab.
  const who = [req.member_first_name, req.member_last_name].filter(Boolean).join(' ') || req.member_id || body.demographics?.member_id || '';
  // The API numbers rows as the upload did: a CSV's spreadsheet row.
  const sheetRow = String(r.row);
  if (r.state !== 'done') {
    const waiting = r.state === 'cancelled' ? 'Cancelled: not checked' : 'Not checked yet';
    return h(
      'tr',
      { 'data-row': sheetRow },
      h('td', {}, sheetRow),
      h('td', {}, who || '—'),
      h('td', {}, r.endpoint),
      h('td', {}, h('span', { class: 'badge badge-pending' }, waiting)),
      h('td', {}, '—'),
      h('td', { class: 'num' }, '—'),
      h('td', {}, '—'),
    );
  }
  const v = verdict(r.endpoint, r.status, { error_code: r.error_code, ...body }, todayIso());
  const open = onOpen
    ? h('button', { type: 'button', class: 'secondary open-row', 'aria-label': `Open row ${sheetRow} as a card to read or print` }, 'Open')
    : null;
  open?.addEventListener('click', () => onOpen(r));
  return h(
    'tr',
    { 'data-row': sheetRow, 'data-verdict': v.state },
    h('td', {}, sheetRow),
    h('td', {}, who || '—', open ? ' ' : null, open),
    h('td', {}, r.endpoint),
    h('td', { class: 'verdict-cell' }, h('strong', { class: `verdict-text tone-${v.tone}` }, v.text), h('div', { class: 'muted small verdict-next' }, v.next)),
    h('td', {}, body.plan_status ? badge(body.plan_status) : '—', body.plan_name ? h('div', { class: 'muted small' }, body.plan_name) : null),
    h('td', { class: 'num pays-cell' }, paysText(v), telehealthLine(v, body)),
    h('td', {}, (body.alerts ?? []).map((a) => a.code.replace(/_/g, ' ').toLowerCase()).join(', ') || '—'),
  );
}

// The console's "Watched patients" view (docs/monitoring.md): the monitors of the person signed in
// (or of the API key), each with its last check, next check and a timeline of what changed; a
// schedule CSV with appointment dates starts watching many patients at once. Plain browser JS.

import { dateText, dollars, h } from './dom.js';
import { errorCard, errorWords } from './error-card.js';
import { badge } from './result-card.js';
import { properName } from './verdict.js';
import { api, hasAccess } from './session.js';

const PAGE = 50;
const $ = (id) => document.getElementById(id);
const view = { offset: 0 };

/** What each watched field is called at the front desk, and how its values read. */
const FIELDS = {
  plan_status: ['Plan status', (v) => v],
  coverage_status: ['Coverage status', (v) => v],
  plan_begin_date: ['Plan begins', dateText],
  plan_end_date: ['Plan ends', dateText],
  eligibility_end_date: ['Eligibility ends', dateText],
  reset_benefits_status: ['Plan-year reset', (v) => v],
  reset_effective_date: ['Reset date', dateText],
  member_id: ['Member ID', (v) => v],
  payer_id: ['Payer', (v) => v],
  payer_corrected: ['Payer corrected', (v) => (v ? 'yes' : 'no')],
  carve_out: ['Carve-out', (v) => v],
  benefit_structure: ['Benefit structure', (v) => v],
  copayment: ['Copay', dollars],
  coinsurance: ['Coinsurance', (v) => `${v} %`],
  deductible: ['Deductible', dollars],
  oop_max: ['Out-of-pocket max', dollars],
  deductible_met: ['Deductible met', (v) => (v ? 'yes' : 'no')],
  oop_max_met: ['Out-of-pocket max met', (v) => (v ? 'yes' : 'no')],
  member_obligation: ['Patient pays', dollars],
};
const shown = (field, value) => (value === null || value === undefined ? 'not reported' : String(FIELDS[field]?.[1](value) ?? value));
const changeText = (c) => `${FIELDS[c.field]?.[0] ?? c.field}: ${shown(c.field, c.old)} → ${shown(c.field, c.new)}`;

const when = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const instant = (iso) => (iso ? when.format(new Date(iso)) : '—');

/**
 * The last check in the words the single-check card uses for the same answer: its plan status
 * badge, and for an answer without a price, why; an answer without coverage is named by its error's
 * title (error-card.js), never by its code.
 */
export function checkWords(last) {
  if (!last.plan_status) return { badge: null, text: errorWords(last.error_code).title };
  if (last.plan_status === 'INACTIVE') return { badge: badge('INACTIVE'), text: 'Coverage ended' };
  if (last.error_code === 'UNKNOWN_COSTSHARE') return { badge: badge(last.plan_status), text: 'Price unknown: call the plan' };
  if (last.status === 206) return { badge: badge(last.plan_status), text: 'Deductible left unknown: call the plan' };
  return { badge: badge(last.plan_status), text: null };
}

function lastCheckCell(m) {
  const last = m.last_check;
  if (!last) return h('span', { class: 'muted' }, 'First check pending');
  const words = checkWords(last);
  return h(
    'div',
    {},
    words.badge,
    words.text ? h('div', { class: words.badge ? 'small' : 'check-problem' }, words.text) : null,
    h('div', { class: 'muted small' }, instant(last.at)),
  );
}

/** What the patient pays as the card says it: a price, or "Not known" when coverage was found without one. */
function paysCell(m) {
  const last = m.last_check;
  const price = dollars(last?.member_obligation);
  // A carve-out's price is its administrator's answer, said as the card says it (verdict.js).
  if (price) return last.priced_by ? `${price} per ${properName(last.priced_by.name)}` : price;
  return last?.plan_status ? h('span', { class: 'muted' }, 'Not known') : '—';
}

function timelineCell(m) {
  if (m.timeline.length === 0) return h('span', { class: 'muted' }, 'No changes');
  return h(
    'details',
    { class: 'timeline' },
    h('summary', {}, `${m.timeline.length} check${m.timeline.length === 1 ? '' : 's'} with changes`),
    h(
      'ol',
      {},
      ...[...m.timeline].reverse().map((t) => h('li', {}, h('strong', {}, instant(t.at)), h('ul', {}, ...t.changes.map((c) => h('li', {}, changeText(c)))))),
    ),
  );
}

function row(m) {
  const check = h('button', { type: 'button', class: 'secondary' }, 'Check now');
  check.addEventListener('click', () => act(check, `/v1/monitors/${m.id}/check`, 'POST', 'Checked.'));
  const stop = h('button', { type: 'button', class: 'secondary' }, 'Stop watching');
  stop.addEventListener('click', () => act(stop, `/v1/monitors/${m.id}`, 'DELETE', 'No longer watched.'));
  const appointments = m.schedule.appointments?.map(dateText).join(', ');
  return h(
    'tr',
    { 'data-monitor': m.id },
    h(
      'td',
      {},
      m.member_name ? h('strong', {}, m.member_name) : (m.reference ?? h('span', { class: 'muted' }, m.id)),
      h('div', { class: 'muted small' }, [m.member_name ? m.reference : null, m.payer_id].filter(Boolean).join(' · ')),
    ),
    h('td', {}, appointments || '—', m.schedule.every_days ? h('div', { class: 'muted small' }, `every ${m.schedule.every_days} days`) : null),
    h('td', {}, lastCheckCell(m)),
    h('td', {}, paysCell(m)),
    h('td', {}, instant(m.next_check_at)),
    h('td', {}, timelineCell(m)),
    h('td', { class: 'row-actions' }, check, stop),
  );
}

async function act(button, path, method, done) {
  button.disabled = true;
  try {
    const res = await api(path, { method });
    $('watch-status').textContent = res.ok ? done : `Not done: ${(await res.json()).message}`;
    await load();
  } catch (err) {
    $('watch-status').textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

export async function load() {
  if (!hasAccess()) return;
  try {
    const res = await api(`/v1/monitors?offset=${view.offset}&limit=${PAGE}&sort=${$('watch-sort').value}`);
    const body = await res.json();
    if (!res.ok) {
      $('watch-errors').replaceChildren(errorCard(res.status, body));
      return;
    }
    const rows = body.monitors.map(row);
    $('watch-table')
      .querySelector('tbody')
      .replaceChildren(...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 7, class: 'muted' }, 'No patients are watched yet.'))]));
    $('watch-prev').disabled = view.offset === 0;
    $('watch-next').disabled = body.next_offset === null;
    $('watch-page').textContent = body.monitors.length ? `${view.offset + 1}–${view.offset + body.monitors.length}` : '';
  } catch (err) {
    $('watch-status').textContent = err.message;
  }
}

$('watch-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const file = $('watch-file').files[0];
  if (!file) {
    $('watch-status').textContent = 'Choose a CSV file first.';
    $('watch-file').focus();
    return;
  }
  $('watch-errors').replaceChildren();
  $('watch-submit').disabled = true;
  $('watch-status').textContent = 'Uploading…';
  try {
    const res = await api('/v1/monitors/bulk', { method: 'POST', headers: { 'content-type': 'text/csv' }, body: await file.text() });
    const body = await res.json();
    if (res.status !== 201) {
      $('watch-status').textContent = `Not accepted: ${body.message}`;
      $('watch-errors').replaceChildren(errorCard(res.status, body, { context: 'batch' }));
      return;
    }
    const n = body.monitors.length;
    $('watch-status').textContent = `Watching ${n} patient${n === 1 ? '' : 's'}; each is checked now, then before each appointment.`;
    view.offset = 0;
    await load();
    // The first checks run in the background: read them again shortly.
    setTimeout(() => void load(), 1500);
  } catch (err) {
    $('watch-status').textContent = err.message;
  } finally {
    $('watch-submit').disabled = false;
  }
});

$('watch-refresh').addEventListener('click', () => void load());
$('watch-sort').addEventListener('change', () => {
  view.offset = 0;
  void load();
});
$('watch-prev').addEventListener('click', () => {
  view.offset = Math.max(0, view.offset - PAGE);
  void load();
});
$('watch-next').addEventListener('click', () => {
  view.offset += PAGE;
  void load();
});
$('tab-watch').addEventListener('click', () => void load());

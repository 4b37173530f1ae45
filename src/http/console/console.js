// The front-desk console: one check in a form, or a whole schedule as CSV. Plain browser JS, no
// dependencies; it calls this server's /v1 API as the person signed in (session.js).

import { h } from './dom.js';
import { errorCard } from './error-card.js';
import { courseOfCare } from './course.js';
import { whyThisPrice } from './explain.js';
import { printSummary } from './print-summary.js';
import { badge, coverageCard } from './result-card.js';
import { api, hasAccess, serverEnv, startAccess } from './session.js';
import { outcomeWords, verdictRow } from './schedule-row.js';

const PAGE_SIZE = 50;
const POLL_MS = 1000;

const $ = (id) => document.getElementById(id);

// ---- who is asking: the signed-in person (or, sandbox without users, an API key): session.js ----

async function loadPayers() {
  if (!hasAccess()) return;
  try {
    const res = await api('/v1/payers');
    if (!res.ok) return;
    const { payers } = await res.json();
    $('payer-list').replaceChildren(...payers.map((p) => h('option', { value: p.payer_id }, p.name)));
  } catch {
    // The datalist is a convenience; checks work without it.
  }
}

// ---- tabs ----

const tabs = [$('tab-check'), $('tab-batch'), $('tab-watch'), $('tab-accuracy'), $('tab-gfe')];

function selectTab(tab, focus) {
  for (const t of tabs) {
    const selected = t === tab;
    t.setAttribute('aria-selected', String(selected));
    t.tabIndex = selected ? 0 : -1;
    $(t.getAttribute('aria-controls')).hidden = !selected;
  }
  if (focus) tab.focus();
}

for (const tab of tabs) {
  tab.addEventListener('click', () => selectTab(tab, false));
  tab.addEventListener('keydown', (event) => {
    const i = tabs.indexOf(tab);
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      selectTab(tabs[(i + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length], true);
    }
  });
}

// ---- one check ----

// The server's own list of states (src/domain/us-states.ts, served by routes/console.ts), never a copy here.
fetch('/console/us-states.json')
  .then((res) => (res.ok ? res.json() : []))
  .then((states) => $('patient_state').append(...states.map((s) => h('option', { value: s }, s))))
  .catch(() => {
    // Without the list the field offers no state; the check still works without one.
  });

/** Fields each endpoint takes; `blank` ones are sent even when empty (the API reads blank as "any"). */
const ENDPOINT_FIELDS = {
  estimate: {
    fields: [
      'member_id',
      'member_first_name',
      'member_last_name',
      'member_dob',
      'payer_id',
      'provider_npi',
      'provider_session_cost',
      'in_network',
      'date_of_service',
      'procedure_code',
      'place_of_service',
    ],
    blank: ['member_first_name', 'member_last_name'],
  },
  discover: {
    fields: ['member_first_name', 'member_last_name', 'member_dob', 'zip', 'payer_id'],
    blank: ['zip', 'payer_id', 'member_first_name', 'member_last_name'],
  },
  scan: { fields: ['member_first_name', 'member_last_name', 'member_dob', 'zip'], blank: ['zip', 'member_first_name', 'member_last_name'] },
  medicaid: {
    fields: ['member_id', 'member_first_name', 'member_last_name', 'member_dob', 'payer_id', 'patient_state'],
    blank: ['member_first_name', 'member_last_name'],
  },
};
/** The form control of each API field. */
const CONTROL = { provider_session_cost: 'session_cost' };
const controlOf = (field) => $(CONTROL[field] ?? field);

function showEndpointFields() {
  const endpoint = $('endpoint').value;
  for (const el of document.querySelectorAll('#check-form [data-endpoints]')) {
    el.hidden = !el.dataset.endpoints.split(' ').includes(endpoint);
  }
}
$('endpoint').addEventListener('change', showEndpointFields);

/** "150", "150.5" or "$1,150.00" dollars as a cents string; anything else goes through for the API to name. */
function centsOf(text) {
  const clean = text.replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return text;
  const [whole, frac = ''] = clean.split('.');
  return String(Number(whole) * 100 + Number(frac.padEnd(2, '0')));
}

function requestBody(endpoint) {
  const { fields, blank } = ENDPOINT_FIELDS[endpoint];
  const body = {};
  for (const field of fields) {
    const raw = controlOf(field).value.trim();
    if (field === 'in_network') body.in_network = raw === 'true';
    else if (raw !== '') body[field] = field === 'provider_session_cost' ? centsOf(raw) : raw;
    else if (blank.includes(field)) body[field] = '';
  }
  return body;
}

function clearFieldErrors() {
  for (const el of document.querySelectorAll('#check-form .field-error')) el.remove();
  for (const el of document.querySelectorAll('#check-form [aria-invalid]')) {
    el.removeAttribute('aria-invalid');
    el.removeAttribute('aria-errormessage');
  }
}

function markFieldErrors(errors) {
  let first = null;
  for (const { field, message } of errors ?? []) {
    const control = controlOf(field);
    if (!control || control.closest('[hidden]')) continue;
    const id = `${control.id}-error`;
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-errormessage', id);
    control.closest('.field').append(h('p', { class: 'field-error', id }, `${control.labels[0]?.textContent ?? field} ${message}`));
    first ??= control;
  }
  first?.focus();
}

$('check-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const endpoint = $('endpoint').value;
  clearFieldErrors();
  $('check-status').textContent = 'Checking…';
  $('check-submit').disabled = true;
  try {
    const sent = requestBody(endpoint);
    const res = await api(`/v1/${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sent) });
    const body = await res.json();
    $('check-status').textContent = res.ok ? 'Done.' : 'The check did not complete: see below.';
    showResult(endpoint, res, body, sent);
    if (!res.ok) markFieldErrors(body.errors);
  } catch (err) {
    $('check-status').textContent = err.message;
  } finally {
    $('check-submit').disabled = false;
  }
});

/** Draws the answer, and the print summary that goes with it; `from` names the schedule row it came from. */
function showResult(endpoint, res, body, sent, from = null) {
  if (!res.ok) {
    const retryAfter = Number(res.headers.get('retry-after')) || null;
    $('result').replaceChildren(errorCard(res.status, body, { retryAfter, onTry: tryEndpoint, fieldLabel: (f) => controlOf(f)?.labels[0]?.textContent ?? f }));
    return;
  }
  const checked = { at: from ? null : new Date(), from, reference: res.headers.get('x-request-id'), sent, sandbox: serverEnv() === 'sandbox' };
  $('result').replaceChildren(
    coverageCard(endpoint, res.status, body, {
      onPrint: () => window.print(),
      why: endpoint === 'estimate' ? whyThisPrice(sent, body.member_obligation === null ? 'Why is the price not known?' : 'Why this price?') : null,
      // The course of care needs a session price (docs/course-of-care.md).
      course: endpoint === 'estimate' && sent.provider_session_cost !== undefined ? courseOfCare(sent) : null,
    }),
    printSummary(endpoint, res.status, body, checked),
  );
}

/**
 * A schedule row opened as its card (the Check tab), with "Print summary" as for a single check: the
 * row's status and body are what its endpoint answered.
 */
function openRow(r) {
  const res = { ok: r.status < 300, status: r.status, headers: new Headers() };
  selectTab($('tab-check'), false);
  showResult(r.endpoint, res, r.body ?? {}, r.request ?? {}, { row: r.row, batch: batch.id });
  $('result').scrollIntoView({ block: 'start' });
}

/** From a not-found answer: the same patient by another check, names and date of birth kept. */
function tryEndpoint(endpoint) {
  $('endpoint').value = endpoint;
  showEndpointFields();
  $('check-status').textContent =
    `Switched to ${$('endpoint').selectedOptions[0].textContent.split(':')[0]}: the name and date of birth are kept. Press Check coverage.`;
  $('member_first_name').focus();
}

// ---- batch ----

const batch = { id: null, total: 0, timer: null, offset: 0, outcome: '', status: null };

$('batch-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const file = $('batch-file').files[0];
  if (!file) {
    $('batch-status').textContent = 'Choose a CSV file first.';
    $('batch-file').focus();
    return;
  }
  $('batch-errors').replaceChildren();
  $('batch-submit').disabled = true;
  $('batch-status').textContent = 'Uploading…';
  try {
    const res = await api(`/v1/batches?filename=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: await file.text(),
    });
    const body = await res.json();
    if (res.status !== 202) {
      $('batch-status').textContent = `Not queued: ${body.message}`;
      $('batch-errors').replaceChildren(errorCard(res.status, body, { context: 'batch' }));
      return;
    }
    $('batch-status').textContent = `Queued ${body.total} checks.`;
    startBatch(body.id, body.total, file.name);
  } catch (err) {
    $('batch-status').textContent = err.message;
  } finally {
    $('batch-submit').disabled = false;
  }
});

function startBatch(id, total, name) {
  clearTimeout(batch.timer);
  Object.assign(batch, { id, total, offset: 0, outcome: '', status: null });
  $('batch-view').hidden = false;
  $('batch-title').textContent = `${name} · ${total} rows`;
  $('batch-filter').replaceChildren(h('option', { value: '' }, 'All rows'));
  void poll();
}

async function poll() {
  const id = batch.id;
  try {
    const res = await api(`/v1/batches/${id}`);
    if (id !== batch.id) return;
    if (res.ok) {
      const progress = await res.json();
      showProgress(progress);
      await loadRows();
      if (progress.status === 'completed' || (progress.status === 'cancelled' && progress.running === 0)) return;
    }
  } catch {
    // A missed poll is retried on the next tick.
  }
  if (id === batch.id) batch.timer = setTimeout(poll, POLL_MS);
}

function showProgress(p) {
  batch.status = p.status;
  $('batch-progress').max = Math.max(p.total, 1);
  $('batch-progress').value = p.done;
  $('batch-progress-text').textContent =
    p.status === 'completed'
      ? `All ${p.total} checked`
      : p.status === 'cancelled'
        ? `Cancelled: ${p.done} of ${p.total} checked`
        : `${p.done} of ${p.total} checked`;
  $('batch-outcomes').replaceChildren(...p.outcomes.map((o) => h('li', { class: `chip chip-${tone(o.status)}` }, `${outcomeWords(o.outcome)} ${o.count}`)));
  const select = $('batch-filter');
  const current = select.value;
  const options = [
    h('option', { value: '' }, `All rows (${p.total})`),
    ...p.outcomes.map((o) => h('option', { value: o.outcome }, `${outcomeWords(o.outcome)} (${o.count})`)),
  ];
  if (p.pending + p.running > 0) options.push(h('option', { value: 'PENDING' }, `Not checked yet (${p.pending + p.running})`));
  if (p.cancelled > 0) options.push(h('option', { value: 'CANCELLED' }, `Cancelled (${p.cancelled})`));
  if (current && !options.some((o) => o.value === current)) options.push(h('option', { value: current }, `${outcomeWords(current)} (0)`));
  select.replaceChildren(...options);
  select.value = current;
}

async function loadRows() {
  const params = new URLSearchParams({ offset: String(batch.offset), limit: String(PAGE_SIZE) });
  if (batch.outcome) params.set('outcome', batch.outcome);
  const res = await api(`/v1/batches/${batch.id}/results?${params}`);
  if (!res.ok) return;
  const { results } = await res.json();
  $('batch-table').tBodies[0].replaceChildren(...results.map((r) => verdictRow(r, badge, openRow)));
  const selected = batch.outcome ? Number(/\((\d+)\)$/.exec($('batch-filter').selectedOptions[0]?.textContent ?? '')?.[1] ?? results.length) : batch.total;
  const last = Math.min(batch.offset + results.length, selected);
  $('batch-page').textContent = results.length ? `Checks ${batch.offset + 1}–${last} of ${selected}` : 'No rows';
  $('batch-prev').disabled = batch.offset === 0;
  $('batch-next').disabled = batch.offset + PAGE_SIZE >= selected;
}

/** 200 is good news, 206 a partial answer to look at, anything else a problem. */
const tone = (status) => (status === 200 ? 'ok' : status < 300 ? 'warn' : 'error');

$('batch-filter').addEventListener('change', () => {
  batch.outcome = $('batch-filter').value;
  batch.offset = 0;
  void loadRows();
});
$('batch-prev').addEventListener('click', () => {
  batch.offset = Math.max(0, batch.offset - PAGE_SIZE);
  void loadRows();
});
$('batch-next').addEventListener('click', () => {
  batch.offset += PAGE_SIZE;
  void loadRows();
});

$('batch-download').addEventListener('click', async () => {
  const res = await api(`/v1/batches/${batch.id}/results`, { headers: { accept: 'text/csv' } });
  if (!res.ok) {
    $('batch-status').textContent = `Download failed (${res.status}).`;
    return;
  }
  const url = URL.createObjectURL(await res.blob());
  // The server names the file after the upload and its day (schedule-2026-11-26-results.csv).
  const named = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  const link = h('a', { href: url, download: named ? named[1] : `${batch.id}.csv`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
});

showEndpointFields();
void startAccess({ onReady: loadPayers });

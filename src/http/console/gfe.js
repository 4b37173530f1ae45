// The console's "Good Faith Estimates" view (docs/good-faith-estimate.md): the key's estimates, overdue
// drafts first, and for each a page to print for the client in plain language: what to expect, the
// total by provider, what may be scheduled separately, and the right to dispute a bill $400 or more
// above it. Plain browser JS.

import { dateText, dollars, h } from './dom.js';
import { errorCard } from './error-card.js';
import { api, hasAccess } from './session.js';

const $ = (id) => document.getElementById(id);

const STATUS = { draft: 'Not given yet', given: 'Given', superseded: 'Replaced' };

function dueCell(e) {
  if (!e.due_date) return h('span', { class: 'muted' }, 'No deadline');
  if (e.overdue) return h('span', { class: 'gfe-overdue' }, `Overdue since ${dateText(e.due_date)}`);
  return dateText(e.due_date);
}

function row(e) {
  const open = h('button', { type: 'button' }, 'Open for the client');
  open.addEventListener('click', () => void show(e.id));
  const actions = [open];
  if (e.status === 'draft') {
    const give = h('button', { type: 'button', class: 'secondary' }, 'Mark as given');
    give.addEventListener('click', () => void markGiven(give, e.id));
    actions.push(give);
  }
  return h(
    'tr',
    { 'data-gfe': e.id, class: e.overdue ? 'gfe-row-overdue' : null },
    h('td', {}, h('strong', {}, e.client_name), e.version > 1 ? h('div', { class: 'muted small' }, `version ${e.version}`) : null),
    h('td', {}, dateText(e.service_date) ?? '—'),
    h('td', {}, dueCell(e)),
    h('td', {}, STATUS[e.status] ?? e.status),
    h('td', {}, dollars(e.total_cents)),
    h('td', { class: 'row-actions' }, ...actions),
  );
}

export async function load() {
  if (!hasAccess()) return;
  $('gfe-errors').replaceChildren();
  try {
    const res = await api('/v1/good-faith-estimates');
    const body = await res.json();
    if (!res.ok) {
      $('gfe-errors').replaceChildren(errorCard(res.status, body));
      return;
    }
    const rows = body.estimates.map(row);
    $('gfe-table')
      .querySelector('tbody')
      .replaceChildren(...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'No Good Faith Estimates yet.'))]));
    const overdue = body.estimates.filter((e) => e.overdue).length;
    $('gfe-status').textContent = overdue ? `${overdue} overdue: give ${overdue === 1 ? 'it' : 'them'} to the client today.` : '';
  } catch (err) {
    $('gfe-status').textContent = err.message;
  }
}

async function markGiven(button, id) {
  button.disabled = true;
  try {
    const res = await api(`/v1/good-faith-estimates/${encodeURIComponent(id)}/given`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const done = res.ok ? 'Marked as given today.' : `Not done: ${(await res.json()).message}`;
    await load();
    $('gfe-status').textContent = done;
  } finally {
    button.disabled = false;
  }
}

const sentence = (text) => h('p', {}, text);

function providerBlock(p) {
  const where = p.locations.map((l) => [l.office, l.address, l.state].filter(Boolean).join(', ')).join('; ');
  return h(
    'section',
    { class: 'gfe-provider' },
    h('h3', {}, p.name, p.role === 'convening' ? h('span', { class: 'gfe-role' }, ' (your provider, who scheduled this care)') : null),
    h('p', { class: 'gfe-ids' }, `NPI ${p.npi} · Tax ID ${p.tin} · Where: ${where}`),
    h(
      'table',
      { class: 'gfe-services' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Service'),
          h('th', { scope: 'col' }, 'Code'),
          h('th', { scope: 'col', class: 'num' }, 'How many'),
          h('th', { scope: 'col', class: 'num' }, 'Each'),
          h('th', { scope: 'col', class: 'num' }, 'Estimated cost'),
        ),
      ),
      h(
        'tbody',
        {},
        ...p.services.map((s) =>
          h(
            'tr',
            {},
            h('td', {}, s.description ?? s.code),
            h(
              'td',
              {},
              [s.code, s.modifier].filter(Boolean).join('-'),
              s.diagnosis_codes.length ? h('div', { class: 'small' }, `Diagnosis ${s.diagnosis_codes.join(', ')}`) : null,
            ),
            h('td', { class: 'num' }, String(s.quantity)),
            h('td', { class: 'num' }, dollars(s.charge_cents)),
            h('td', { class: 'num' }, dollars(s.total_cents)),
          ),
        ),
      ),
      h('tfoot', {}, h('tr', {}, h('th', { scope: 'row', colspan: 4 }, `Total from ${p.name}`), h('td', { class: 'num' }, dollars(p.total_cents)))),
    ),
  );
}

/** The page the client keeps: plain words first, the details after. */
export function clientPage(g) {
  const c = g.client;
  const period = g.period_of_care ? `from ${dateText(g.period_of_care.start)} to ${dateText(g.period_of_care.end)}` : null;
  const separate = g.separate_scheduling;
  return [
    h(
      'header',
      { class: 'gfe-head' },
      h('h1', {}, 'Good Faith Estimate'),
      h('p', {}, 'What your care is expected to cost, if you pay for it yourself (you have no insurance, or are not using it).'),
    ),
    h(
      'dl',
      { class: 'gfe-facts' },
      h('dt', {}, 'For'),
      h('dd', {}, `${c.first_name} ${c.last_name}, born ${dateText(c.dob)}`),
      h('dt', {}, 'Estimate date'),
      h('dd', {}, dateText(g.given_on ?? g.created_at.slice(0, 10))),
      g.version > 1 ? h('dt', {}, 'Replaces') : null,
      g.version > 1 ? h('dd', {}, `the estimate you were given before (this is version ${g.version})`) : null,
    ),
    h(
      'section',
      { class: 'gfe-expect' },
      h('h2', {}, 'What to expect'),
      sentence(g.primary_service.description + '.'),
      g.primary_service.scheduled_date ? sentence(`Your first visit is scheduled for ${dateText(g.primary_service.scheduled_date)}.`) : null,
      period ? sentence(`This estimate covers your care ${period}.`) : null,
      g.diagnosis_codes.length ? sentence(`Diagnosis codes: ${g.diagnosis_codes.join(', ')}.`) : null,
    ),
    h(
      'section',
      { class: 'gfe-total' },
      h('h2', {}, 'The total'),
      h('p', { class: 'gfe-total-line' }, 'Estimated total: ', h('strong', {}, dollars(g.total_cents))),
      g.providers.length > 1
        ? sentence(
            `This adds up what ${g.providers.length} providers expect to charge: ${g.providers.map((p) => `${p.name} ${dollars(p.total_cents)}`).join(', ')}.`,
          )
        : null,
      ...g.providers.map(providerBlock),
    ),
    separate.items.length
      ? h(
          'section',
          { class: 'gfe-separate' },
          h('h2', {}, 'You may need to schedule these separately'),
          sentence('These are not in the total above. You will get a separate estimate for each when it is scheduled or when you ask.'),
          h('ul', {}, ...separate.items.map((i) => h('li', {}, i.code ? `${i.description} (${i.code})` : i.description))),
          separate.instructions ? sentence(separate.instructions) : null,
        )
      : null,
    h(
      'section',
      { class: 'gfe-rights' },
      h('h2', {}, 'Your right to dispute the bill'),
      h('p', { class: 'gfe-key' }, 'If a bill from any one provider is $400 or more above this estimate, you can dispute it.'),
      sentence(g.notices.dispute_rights),
      h('h2', {}, 'Good to know'),
      sentence(g.notices.estimate_only),
      sentence(g.notices.additional_services),
      sentence(g.notices.not_a_contract),
      sentence('Keep a copy of this estimate: you will need it if you dispute a bill.'),
    ),
    h('footer', { class: 'gfe-foot' }, `Estimate ${g.id}, version ${g.version}`),
  ];
}

async function show(id) {
  $('gfe-errors').replaceChildren();
  const res = await api(`/v1/good-faith-estimates/${encodeURIComponent(id)}`);
  const body = await res.json();
  if (!res.ok) {
    $('gfe-errors').replaceChildren(errorCard(res.status, body));
    return;
  }
  $('gfe-page').replaceChildren(...clientPage(body).filter(Boolean));
  $('gfe-list').hidden = true;
  $('gfe-view').hidden = false;
  document.body.classList.add('gfe-printing');
  $('gfe-print').focus();
}

function back() {
  $('gfe-view').hidden = true;
  $('gfe-list').hidden = false;
  $('gfe-page').replaceChildren();
  document.body.classList.remove('gfe-printing');
}

$('gfe-back').addEventListener('click', back);
$('gfe-print').addEventListener('click', () => window.print());
$('gfe-refresh').addEventListener('click', () => void load());
$('tab-gfe').addEventListener('click', () => {
  back();
  void load();
});

// The console's "Estimate accuracy" view (docs/remittances.md 'The accuracy report'): GET /v1/accuracy
// drawn as one bar per payer (exact, within a dollar, off, not comparable), a weekly trend of the
// share right to the dollar, a table per plan, and the whole report as a CSV file. Plain browser JS.

import { dateText, dollars, h } from './dom.js';
import { errorCard } from './error-card.js';
import { api, hasAccess } from './session.js';

const $ = (id) => document.getElementById(id);
const view = { report: null, query: '' };

/** The parts of a bar, in the order drawn, with the words the legend and the labels use. */
const PARTS = [
  ['exact', 'Exact'],
  ['within_1', 'Within $1'],
  ['off', 'Off by more'],
  ['not_comparable', 'Not comparable'],
];

const percent = (n, of) => (of > 0 ? Math.round((n / of) * 100) : 0);
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A bar segment: its width set through the CSSOM (the page's CSP allows no style attribute). */
function segment(kind, n, of) {
  const el = h('span', { class: `seg seg-${kind}`, title: `${PARTS.find(([k]) => k === kind)[1]}: ${n}` });
  el.style.width = `${(n / of) * 100}%`;
  return el;
}

function legend() {
  return h('ul', { class: 'accuracy-legend' }, ...PARTS.map(([kind, words]) => h('li', {}, h('span', { class: `swatch seg-${kind}` }), words)));
}

/** "12 lines: 75 % right to the dollar; collected $40.00 too little, $0.00 too much". */
function tallyText(t) {
  const right = percent(t.exact + t.within_1, t.compared);
  const money =
    t.under_collected_cents || t.over_collected_cents
      ? `; collected ${dollars(t.under_collected_cents)} too little, ${dollars(t.over_collected_cents)} too much`
      : '';
  return `${plural(t.lines, 'line')}: ${t.compared ? `${right} % right to the dollar` : 'none comparable'}${money}`;
}

function payerChart(payers) {
  return h(
    'figure',
    { class: 'accuracy-chart' },
    h('figcaption', {}, 'By payer'),
    legend(),
    ...payers.map((p) =>
      h(
        'div',
        { class: 'bar-row', 'data-payer': p.payer_id },
        h('div', { class: 'bar-label' }, h('strong', {}, p.payer_id), h('div', { class: 'muted small' }, tallyText(p))),
        h(
          'div',
          { class: 'bar', role: 'img', 'aria-label': `${p.payer_id}: ${PARTS.map(([k, w]) => `${w} ${p[k]}`).join(', ')}` },
          ...PARTS.filter(([k]) => p[k] > 0).map(([k]) => segment(k, p[k], p.lines)),
        ),
      ),
    ),
  );
}

/** Every payer's weeks added up: the week's lines, and how many were right to the dollar. */
function weeksOf(payers) {
  const weeks = new Map();
  for (const p of payers)
    for (const w of p.weeks) {
      const t = weeks.get(w.week) ?? { week: w.week, lines: 0, compared: 0, right: 0, off: 0 };
      t.lines += w.lines;
      t.compared += w.compared;
      t.right += w.exact + w.within_1;
      t.off += w.off;
      weeks.set(w.week, t);
    }
  return [...weeks.values()].sort((a, b) => a.week.localeCompare(b.week));
}

function trendChart(payers) {
  const weeks = weeksOf(payers);
  const columns = weeks.map((w) => {
    const share = percent(w.right, w.compared);
    const bar = h('span', { class: 'column-bar' });
    bar.style.height = `${share}%`;
    return h(
      'div',
      { class: 'column', 'data-week': w.week, title: `${plural(w.compared, 'line')} compared, ${w.off} off` },
      h('span', { class: 'column-value' }, w.compared ? `${share} %` : '—'),
      h('span', { class: 'column-track' }, bar),
      h('span', { class: 'column-label' }, dateText(w.week).replace(/, \d{4}$/, '')),
    );
  });
  return h(
    'figure',
    { class: 'accuracy-chart' },
    h('figcaption', {}, 'Week by week: lines right to the dollar (exact or within $1), all payers'),
    h(
      'div',
      { class: 'columns', role: 'img', 'aria-label': weeks.map((w) => `week of ${dateText(w.week)}: ${percent(w.right, w.compared)} %`).join('; ') },
      ...columns,
    ),
  );
}

function planTable(payers) {
  const num = (v) => h('td', { class: 'num' }, String(v));
  const rows = payers.flatMap((p) =>
    p.plans.map((plan) =>
      h(
        'tr',
        {},
        h('td', {}, p.payer_id),
        h('td', {}, plan.group_id ?? '—', h('div', { class: 'muted small' }, plan.benefit_structure ?? '')),
        num(plan.lines),
        num(plan.exact),
        num(plan.within_1),
        num(plan.off),
        num(plan.not_comparable),
        h('td', { class: 'num' }, dollars(plan.under_collected_cents)),
        h('td', { class: 'num' }, dollars(plan.over_collected_cents)),
        h('td', {}, plan.causes[0] ? `${plan.causes[0].cause} (${plan.causes[0].lines})` : '—'),
      ),
    ),
  );
  const head = ['Payer', 'Plan', 'Lines', 'Exact', 'Within $1', 'Off', 'Not comparable', 'Too little', 'Too much', 'Most frequent cause'];
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id: 'accuracy-table' },
      h('caption', { class: 'visually-hidden' }, 'Accuracy by plan'),
      h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ...rows),
    ),
  );
}

function render(report) {
  if (report.payers.length === 0) {
    $('accuracy-report').replaceChildren(
      h('p', { class: 'muted' }, 'No remittance lines compared yet. Send a payer\u2019s 835 with coverage remit FILE (or POST /v1/remittances).'),
    );
    return;
  }
  $('accuracy-report').replaceChildren(payerChart(report.payers), trendChart(report.payers), planTable(report.payers));
}

const CSV_COLUMNS = [
  'payer_id',
  'group_id',
  'benefit_structure',
  'week',
  'lines',
  'compared',
  'exact',
  'within_1',
  'off',
  'not_comparable',
  'under_collected_cents',
  'over_collected_cents',
  'top_cause',
];

/** A CSV cell; text a spreadsheet would run as a formula is kept as text. */
function cell(value) {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The report as CSV: a row per payer (its totals), per plan within it, and per week. */
export function reportCsv(report) {
  const row = (p, t, extra) =>
    CSV_COLUMNS.map((c) => (c === 'payer_id' ? p.payer_id : c === 'top_cause' ? (t.causes[0]?.cause ?? '') : c in extra ? extra[c] : (t[c] ?? '')))
      .map(cell)
      .join(',');
  const lines = [CSV_COLUMNS.join(',')];
  for (const p of report.payers) {
    lines.push(row(p, p, { group_id: '', benefit_structure: '', week: '' }));
    for (const plan of p.plans) lines.push(row(p, plan, { week: '' }));
    for (const w of p.weeks) lines.push(row(p, w, { group_id: '', benefit_structure: '' }));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export async function load() {
  if (!hasAccess()) return;
  const params = new URLSearchParams();
  if ($('accuracy-from').value) params.set('from', $('accuracy-from').value);
  if ($('accuracy-to').value) params.set('to', $('accuracy-to').value);
  view.query = params.toString();
  $('accuracy-errors').replaceChildren();
  $('accuracy-status').textContent = 'Loading…';
  try {
    const res = await api(`/v1/accuracy${view.query ? `?${view.query}` : ''}`);
    const body = await res.json();
    if (!res.ok) {
      $('accuracy-status').textContent = '';
      $('accuracy-errors').replaceChildren(errorCard(res.status, body));
      return;
    }
    view.report = body;
    render(body);
    $('accuracy-download').disabled = body.payers.length === 0;
    const lines = body.payers.reduce((t, p) => t + p.lines, 0);
    $('accuracy-status').textContent = `${plural(lines, 'line')} from ${plural(body.payers.length, 'payer')}.`;
  } catch (err) {
    $('accuracy-status').textContent = err.message;
  }
}

$('accuracy-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void load();
});

$('accuracy-download').addEventListener('click', () => {
  if (!view.report) return;
  const url = URL.createObjectURL(new Blob([reportCsv(view.report)], { type: 'text/csv' }));
  const span = [$('accuracy-from').value, $('accuracy-to').value].filter(Boolean).join('-to-');
  const link = h('a', { href: url, download: `estimate-accuracy${span ? `-${span}` : ''}.csv`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
});

$('tab-accuracy').addEventListener('click', () => void load());

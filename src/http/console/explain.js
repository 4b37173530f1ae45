// "Why this price?": asks the same estimate again with "explain": true and shows, for each figure,
// the line of the payer's answer (271 EB segment) it came from, in words; the segment itself and the
// rule that chose it are folded behind a toggle. Then the lines that contradict each other and,
// folded, every line not used with the reason.

import { dollars, h } from './dom.js';
import { api } from './session.js';

const SERVICE_TYPES = {
  MH: 'mental health',
  CF: 'mental health provider, outpatient',
  A4: 'psychiatric',
  A6: 'psychotherapy',
  A7: 'psychiatric, inpatient',
  A8: 'psychiatric, outpatient',
  AI: 'substance use',
  98: 'professional office visit',
  30: 'the whole plan',
};
const LEVELS = { IND: 'individual', FAM: 'family', EMP: 'employee', ESP: 'employee and spouse', ECH: 'employee and children', CHD: 'children' };
const PERIODS = {
  23: 'per calendar year',
  22: 'per service year',
  21: 'per year',
  25: 'per contract',
  27: 'per visit',
  29: 'what is left',
  24: 'so far this year',
  32: 'lifetime',
  33: 'lifetime, what is left',
  34: 'per month',
  7: 'per day',
};
const PLACES = { 11: 'office', '02': 'telehealth', 10: 'telehealth at home', 21: 'inpatient hospital', 22: 'outpatient hospital', 23: 'emergency room' };

/** "copayment" as "Copay", "deductible individual remaining" as "Deductible, individual, left", ... */
function figureLabel(figure) {
  const words = figure
    .replace(/^copayment$/, 'copay')
    .replace(/^telehealth copayment$/, 'telehealth copay')
    .replace(/^OOP max/, 'out-of-pocket maximum')
    .replace(
      / (individual|family) (total|remaining|met.*)$/,
      (_, level, what) => `, ${level}, ${what === 'total' ? 'total' : what === 'remaining' ? 'left' : 'met'}`,
    )
    .replace(/^deductible applies: (yes|no)$/, (_, yes) => (yes === 'yes' ? 'the deductible comes first' : 'the deductible does not come first'));
  return words[0].toUpperCase() + words.slice(1);
}

const codes = (text, names) =>
  String(text)
    .split(/[^A-Z0-9]+/i)
    .filter(Boolean)
    .map((c) => names[c] ?? c)
    .join(', ');

/** The amount an EB states: EB07 dollars for copays and amounts, EB08 share for coinsurance. */
function amountOf(eb) {
  const el = eb.split('*');
  if (el[7]) return dollars(Math.round(Number(el[7]) * 100));
  if (el[8]) {
    const share = Number(el[8]);
    return `${share > 1 ? share : Math.round(share * 10000) / 100} %`;
  }
  return null;
}

/** The benefit line in words: "Line 19: mental health, in network, individual, per calendar year: $1,500.00". */
function benefitLine(entry) {
  if (entry.segment === null) {
    return h(
      'p',
      { class: 'why-line muted' },
      entry.network === null
        ? 'A rule about the whole plan, not one line of the answer.'
        : 'No single line of the answer says this: the rule below decides it.',
    );
  }
  const parts = [
    entry.service_type ? codes(entry.service_type, SERVICE_TYPES) : 'no service type',
    entry.network === 'in' ? 'in network' : entry.network === 'out' ? 'out of network' : null,
    entry.coverage_level ? codes(entry.coverage_level, LEVELS) : null,
    entry.place_of_service ? `at ${codes(entry.place_of_service, PLACES)}` : null,
    entry.time_period ? (PERIODS[entry.time_period] ?? `period ${entry.time_period}`) : null,
  ].filter(Boolean);
  const amount = amountOf(entry.eb);
  return h(
    'p',
    { class: 'why-line' },
    `Line ${entry.segment} of the payer's answer${entry.administrator ? ` from ${entry.administrator}` : ''}: ${parts.join(', ')}${amount ? `: ${amount}` : ''}`,
  );
}

/** The payer's own segment, its codes and the rule that read it: folded, for whoever checks the codes. */
function codesToggle(entry, ruleLabel) {
  // A rule that reads no single line is itself the explanation: shown, not folded.
  if (!entry.eb) return ruleLabel ? h('p', { class: 'why-rule' }, `${ruleLabel}: `, entry.rule) : null;
  return h(
    'details',
    { class: 'why-codes' },
    h('summary', {}, ruleLabel ? "The payer's codes and the rule" : "The payer's codes"),
    h('code', { class: 'why-eb' }, entry.eb),
    entry.words ? h('p', { class: 'why-words muted' }, entry.words) : null,
    ruleLabel ? h('p', { class: 'why-rule' }, `${ruleLabel}: `, entry.rule) : null,
  );
}

function entryItem(entry) {
  return h(
    'li',
    { class: 'why-entry' },
    h('strong', {}, figureLabel(entry.figure)),
    benefitLine(entry),
    entry.alternative ? h('p', { class: 'why-alternative' }, 'Another reading: ', entry.alternative) : null,
    codesToggle(entry, 'Rule'),
  );
}

/** A line of the answer that priced nothing, or contradicts another: its text in words and why. */
function rowItem(entry, why) {
  return h('li', { class: 'why-entry' }, benefitLine(entry), h('p', { class: 'why-rule' }, `${why}: `, entry.rule), codesToggle(entry, null));
}

function explanationView(body) {
  const net = body.in_network === false ? 'out' : 'in';
  const entries = body.explanation.benefits.filter((e) => e.network === null || e.network === net);
  const skipped = body.explanation.skipped ?? [];
  const conflicts = body.explanation.conflicts ?? [];
  return [
    h('h4', {}, "How the patient's share was worked out"),
    h(
      'ol',
      { class: 'why-steps' },
      body.explanation.obligation.map((s) => h('li', {}, s[0].toUpperCase() + s.slice(1))),
    ),
    h('h4', {}, `Where each figure came from (${net === 'in' ? 'in' : 'out of'} network)`),
    h('ul', { class: 'why-entries' }, entries.map(entryItem)),
    ...(conflicts.length > 0
      ? [
          h('h4', { class: 'why-conflicts-title' }, 'Lines that contradict each other (the figure is unknown: confirm with the payer)'),
          h(
            'ul',
            { class: 'why-conflicts' },
            conflicts.map((e) => rowItem(e, 'Conflict')),
          ),
        ]
      : []),
    ...(skipped.length > 0
      ? [
          h(
            'details',
            { class: 'why-skipped' },
            h('summary', {}, `Lines of the answer not used (${skipped.length})`),
            h(
              'ul',
              {},
              skipped.map((e) => rowItem(e, 'Not used')),
            ),
          ),
        ]
      : []),
  ];
}

/**
 * A closed "Why this price?" section for an estimate sent as `sent`; opening it asks once. The
 * payer is asked afresh (an explanation is never cached), so the figures may in rare cases differ.
 */
export function whyThisPrice(sent, label = 'Why this price?') {
  const content = h('div', { class: 'why-content', 'aria-live': 'polite' });
  const details = h('details', { class: 'why', id: 'why-this-price' }, h('summary', {}, label), content);
  let asked = false;
  details.addEventListener('toggle', async () => {
    if (!details.open || asked) return;
    asked = true;
    content.replaceChildren(h('p', { class: 'muted' }, 'Asking the payer again for the details…'));
    try {
      const res = await api('/v1/estimate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...sent, explain: true }),
      });
      const body = await res.json();
      if (!res.ok || !body.explanation) {
        asked = false;
        content.replaceChildren(
          h('p', { class: 'field-error' }, `The details could not be fetched: ${body.message ?? res.status}. Close and open this section to try again.`),
        );
        return;
      }
      content.replaceChildren(...explanationView(body));
    } catch (err) {
      asked = false;
      content.replaceChildren(h('p', { class: 'field-error' }, `The details could not be fetched: ${err.message}`));
    }
  });
  return details;
}

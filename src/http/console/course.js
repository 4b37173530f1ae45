// "The next 12 weeks": the course of care (docs/course-of-care.md). Opening the section asks the same
// estimate again with a weekly course and shows, session by session, what the patient pays (a bar
// each, to scale), what is left of the deductible and the out-of-pocket maximum, and the plan-year
// reset; an unknown session says why, never $0.

import { dateText, dollars, h } from './dom.js';
import { api } from './session.js';

/** The course the console asks for: weekly, twelve sessions. */
export const CONSOLE_COURSE = Object.freeze({ sessions: 12, every_days: 7 });

const PHASES = {
  deductible: 'to the deductible',
  deductible_met: 'meets the deductible',
  cost_share: 'copay / coinsurance',
  oop_max: 'out-of-pocket maximum reached',
  qmb: 'QMB: nothing owed',
  inactive: 'not covered: plan inactive',
  not_in_force: 'not covered: plan not in force',
  behavioral_health_inactive: 'not covered: behavioral health inactive',
  not_covered: 'not covered',
  visit_limit: 'not covered: visit limit used up',
};

function totalLine(course) {
  if (course.member_obligation === null) {
    const n = course.unknown_sessions;
    return `The patient's total is not known: ${n} of ${course.lines.length} session${n === 1 ? '' : 's'} cannot be priced from the payer's answer.`;
  }
  return `${course.lines.length} sessions: the patient pays ${dollars(course.member_obligation)}, the plan ${dollars(course.payer_obligation)}.`;
}

/** A bar `percent` wide; set through the CSSOM, which the console's CSP (no inline style attributes) allows. */
function bar(percent) {
  const el = h('span', { class: 'course-bar' });
  el.style.width = `${percent}%`;
  return el;
}

function sessionRow(line, widest) {
  const known = line.member_obligation !== null;
  const share = known ? Math.round((100 * line.member_obligation) / widest) : 0;
  const reset = line.plan_year === 'next' ? h('span', { class: 'course-next' }, 'next plan year') : '';
  return h(
    'tr',
    { class: known ? '' : 'course-unknown' },
    h('td', {}, dateText(line.date_of_service)),
    h('td', { class: 'course-amount' }, known ? dollars(line.member_obligation) : 'unknown'),
    h('td', { class: 'course-bar-cell', 'aria-hidden': 'true' }, known ? bar(share) : ''),
    h('td', {}, known ? (PHASES[line.phase] ?? '') : (line.reason ?? ''), ' ', reset),
    h('td', { class: 'course-amount' }, line.remaining_deductible === null ? '—' : dollars(line.remaining_deductible)),
    h('td', { class: 'course-amount' }, line.remaining_oop_max === null ? '—' : dollars(line.remaining_oop_max)),
  );
}

export function courseView(course) {
  const widest = Math.max(1, ...course.lines.map((l) => l.provider_session_cost));
  return [
    h('p', { class: 'course-total' }, totalLine(course)),
    h(
      'table',
      { class: 'course-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'Session'),
          h('th', {}, 'Patient pays'),
          h('th', {}, h('span', { class: 'visually-hidden' }, 'Share of the session')),
          h('th', {}, 'Why'),
          h('th', {}, 'Deductible left'),
          h('th', {}, 'Out-of-pocket left'),
        ),
      ),
      h(
        'tbody',
        {},
        course.lines.map((l) => sessionRow(l, widest)),
      ),
    ),
  ];
}

/** A closed "The next 12 weeks" section for an estimate sent as `sent`; opening it asks once. */
export function courseOfCare(sent) {
  const content = h('div', { class: 'course-content', 'aria-live': 'polite' });
  const details = h('details', { class: 'why course', id: 'course-of-care' }, h('summary', {}, 'The next 12 weeks'), content);
  let asked = false;
  details.addEventListener('toggle', async () => {
    if (!details.open || asked) return;
    asked = true;
    content.replaceChildren(h('p', { class: 'muted' }, 'Pricing twelve weekly sessions…'));
    try {
      const res = await api('/v1/estimate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...sent, course: CONSOLE_COURSE }),
      });
      const body = await res.json();
      if (!res.ok || !body.course) {
        asked = false;
        content.replaceChildren(
          h('p', { class: 'field-error' }, `The course could not be priced: ${body.message ?? res.status}. Close and open this section to try again.`),
        );
        return;
      }
      content.replaceChildren(...courseView(body.course));
    } catch (err) {
      asked = false;
      content.replaceChildren(h('p', { class: 'field-error' }, `The course could not be priced: ${err.message}`));
    }
  });
  return details;
}
